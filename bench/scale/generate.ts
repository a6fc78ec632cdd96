/**
 * Generates a repository set of any size from the Laravel corpus, recombined, for `bench/scale`.
 *
 * `realistic` pages are the Laravel pages split at their second-level headings (a few KB of
 * Markdown each, code blocks, tables and links kept); `whole` pages are whole Laravel pages (about
 * 32 KB). The three corpus versions give the units; a set larger than the units holds further
 * copies under `part-N/`, each with its own titles, so no two pages are the same. Links between
 * Laravel pages (`/docs/{{version}}/routing#…`) point at the copy of that page in the same part when
 * it exists there, and become plain text when it does not, so `kit validate` finds no broken link.
 * The navigation has a group per Laravel page (its sections), as a large real set's sidebar does.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LARAVEL_VERSIONS, laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';

export type PageShape = 'realistic' | 'whole';

/** One page of the corpus before it is placed: where it came from and its Markdown. */
interface Unit {
  /** The Laravel page it came from, with the corpus version: `13.x/routing`. */
  origin: string;
  slug: string;
  title: string;
  body: string;
}

/** What `generateScaleSet` wrote. */
export interface GeneratedSet {
  /** The folder holding `kit.json`, `navigation.json` and the pages. */
  docs: string;
  /** Page paths in navigation order. */
  paths: string[];
  /** Markdown bytes written, pages only. */
  bytes: number;
}

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'section';

/** A Laravel page's sections: the text before the first `## ` is dropped (its table of contents). */
function sectionsOf(origin: string, pageTitle: string, body: string): Unit[] {
  const parts = body.split(/\n(?=## )/).slice(1);
  const seen = new Set<string>();
  return parts.map((part) => {
    const heading = /^## (.+)$/m.exec(part)?.[1]?.trim() ?? 'Section';
    let slug = slugOf(heading);
    while (seen.has(slug)) slug = `${slug}-2`;
    seen.add(slug);
    const text = part.replace(/^## .+\n/, '').replace(/^###/gm, '##');
    return { origin, slug, title: `${pageTitle}: ${heading.replace(/<[^>]+>/g, '')}`, body: text.trim() };
  });
}

function corpusUnits(shape: PageShape): Unit[] {
  return LARAVEL_VERSIONS.flatMap((version) =>
    laravelPages(version).flatMap((page) => {
      const origin = `${version}/${page.path}`;
      if (shape === 'whole')
        return [{ origin, slug: page.path, title: page.title, body: page.body.replace(/^# .+\n/, '').trim() }];
      return sectionsOf(origin, page.title, page.body);
    }),
  );
}

/** Where each unit lands: `part-N/<version>-<page>/<section>` (or `part-N/<version>-<page>` whole). */
function placeOf(unit: Unit, part: number, shape: PageShape): string {
  const folder = `part-${part}/${unit.origin.replace('/', '-').replace('.', '')}`;
  return shape === 'whole' ? folder : `${folder}/${unit.slug}`;
}

/**
 * Writes a set of `pages` pages under `root/docs` and returns its page paths. The same arguments
 * always write the same bytes.
 */
export async function generateScaleSet(root: string, pages: number, shape: PageShape): Promise<GeneratedSet> {
  const units = corpusUnits(shape);
  const docs = join(root, 'docs');
  const paths: string[] = [];
  const placed: { path: string; unit: Unit; part: number }[] = [];
  for (let index = 0; index < pages; index += 1) {
    const part = Math.floor(index / units.length) + 1;
    const unit = units[index % units.length]!;
    placed.push({ path: placeOf(unit, part, shape), unit, part });
  }
  // A link to a Laravel page goes to the first page that came from it in the same part.
  const firstOf = new Map<string, string>();
  for (const { path, unit, part } of placed) {
    const key = `${part}:${unit.origin}`;
    if (!firstOf.has(key)) firstOf.set(key, path);
  }
  let bytes = 0;
  for (const { path, unit, part } of placed) {
    const version = unit.origin.split('/')[0]!;
    const body = unit.body.replace(
      /\[([^\]]*)\]\(\/docs\/\{\{version\}\}\/([a-z0-9-]+)(#[^)]*)?\)/g,
      (_, text, page) => {
        const target = firstOf.get(`${part}:${version}/${page}`);
        return target ? `[${text}](/docs/${target})` : text;
      },
    );
    const text = `# ${unit.title}${part > 1 ? ` (part ${part})` : ''}\n\n${body}\n`;
    bytes += Buffer.byteLength(text);
    const file = join(docs, `${path}.md`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    paths.push(path);
  }
  await writeFile(join(docs, 'index.md'), `# Scale test set\n\n${pages} pages generated from the Laravel docs.\n`);
  await writeFile(join(docs, 'kit.json'), `${JSON.stringify({ name: 'Scale', landing: 'index' }, null, 2)}\n`);
  await writeFile(join(docs, 'navigation.json'), `${JSON.stringify(navigationOf(placed, shape), null, 2)}\n`);
  return { docs, paths, bytes };
}

/**
 * A group per Laravel page holding its sections (realistic), or a group per 25 whole pages: a
 * 10,000-page set has about 900 groups, as a large real sidebar does.
 */
function navigationOf(placed: { path: string; unit: Unit; part: number }[], shape: PageShape) {
  const groups: { label: string; pages: string[] }[] = [{ label: 'Start', pages: ['index'] }];
  let current: { label: string; pages: string[] } | undefined;
  placed.forEach(({ path, unit, part }, index) => {
    const [version] = unit.origin.split('/');
    const label =
      shape === 'whole'
        ? `Part ${part}, ${version}: ${Math.floor(index / 25) + 1}`
        : `${unit.title.split(': ')[0]} (${version}${part > 1 ? `, part ${part}` : ''})`;
    if (current?.label !== label) {
      current = { label, pages: [] };
      groups.push(current);
    }
    current.pages.push(path);
  });
  return { groups };
}
