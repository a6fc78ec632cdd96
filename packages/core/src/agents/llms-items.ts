/**
 * The text units `llms.txt` and `llms-full.txt` are packed from: a list line per page for
 * `llms.txt`, a page block (the page's agent Markdown with a `Source:` line) for `llms-full.txt`.
 * Whether a file splits, and into how many parts each group goes, depends only on the units'
 * lengths; a page block's length is kept per page (bounded, keyed by the page's content hash), so
 * a split file reads only the pages it holds instead of every page of the version.
 */
import { mayIncludeSnippets } from '../docset/render-context.js';
import type { NormalizedManifest, SourcePage } from '../model/types.js';
import type { DocSet } from '../ports/docset.js';
import { type AgentPageEntry, type AgentScope, oneLine } from './scope.js';

/** The units of one kind of file, one per page: its length (cheap once known) and its text. */
export interface PageItems {
  length(page: AgentPageEntry): number | Promise<number>;
  text(page: AgentPageEntry): string | Promise<string>;
}

/** A page's line in `llms.txt`: `- [title](.md URL): description`. */
export function listLine(page: AgentPageEntry): string {
  const description = oneLine(page.description);
  return `- [${escapeLinkText(page.title)}](${page.markdownUrl})${description ? `: ${description}` : ''}\n`;
}

/** Link text on one line with `[`, `]` and `\` escaped. */
export function escapeLinkText(text: string): string {
  return oneLine(text).replace(/([[\]\\])/g, '\\$1');
}

/** A page's agent Markdown with a `Source:` line under its title (or a title when it has none). */
export function pageBlock(markdown: string, page: AgentPageEntry): string {
  const text = markdown.replace(/\s+$/, '');
  const source = `Source: ${page.markdownUrl}`;
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  if (/^# /.test(firstLine)) return `${firstLine}\n\n${source}\n${text.slice(firstLine.length)}\n\n`;
  return `# ${oneLine(page.title)}\n\n${source}\n\n${text}\n\n`;
}

/** The list lines of `llms.txt`: made from the listing alone, nothing is read. */
export const listItems: PageItems = {
  length: (page) => listLine(page).length,
  text: listLine,
};

/**
 * Most page-block lengths kept per set (about 200 bytes each): more than the pages of the largest
 * sets Kit is measured at (100,000), least recently used out first.
 */
export const MAX_KEPT_BLOCK_LENGTHS = 250_000;

interface KeptLength {
  hash: string;
  title: string;
  /** The block's length without its `.md` URL, which depends on the request's origin. */
  length: number;
}

interface KeptLengths {
  manifest: NormalizedManifest;
  entries: Map<string, KeptLength>;
}

const keptBySet = new WeakMap<DocSet, KeptLengths>();

/** The kept lengths of a set; a new manifest (every link may change) starts them afresh. */
function keptLengths(set: DocSet, manifest: NormalizedManifest): Map<string, KeptLength> {
  const kept = keptBySet.get(set);
  if (kept && kept.manifest === manifest) return kept.entries;
  const entries = new Map<string, KeptLength>();
  keptBySet.set(set, { manifest, entries });
  return entries;
}

/**
 * The page blocks of `llms-full.txt` for one scope. A block's length is known without reading
 * the page when the same text (content hash and title, under the same manifest) was read before;
 * each read refreshes it, so a render that changed without its page (a component registered later,
 * a render cut short) heals on the next read. Pages that may include snippet files, which change
 * without the page, are always read.
 */
export function pageBlockItems(scope: AgentScope, sources: ReadonlyMap<string, SourcePage>): PageItems {
  const kept = keptLengths(scope.set, scope.manifest);
  const keyOf = (page: AgentPageEntry) => `${scope.version.id}\u0000${scope.locale.code}\u0000${page.path}`;
  const text = async (page: AgentPageEntry): Promise<string> => {
    const result = await scope.set.readPage(
      { path: page.path, version: scope.version.id, locale: scope.locale.code },
      scope.viewer,
    );
    const block = pageBlock(result.text, page);
    const source = sources.get(page.path);
    if (source && !mayIncludeSnippets(source.body)) {
      const key = keyOf(page);
      kept.delete(key);
      kept.set(key, {
        hash: result.meta.content_hash,
        title: page.title,
        length: block.length - page.markdownUrl.length,
      });
      if (kept.size > MAX_KEPT_BLOCK_LENGTHS) kept.delete(kept.keys().next().value as string);
    }
    return block;
  };
  return {
    text,
    length(page) {
      const key = keyOf(page);
      const hit = kept.get(key);
      const source = sources.get(page.path);
      if (hit && source && hit.hash === source.contentHash && hit.title === page.title) {
        kept.delete(key);
        kept.set(key, hit);
        return hit.length + page.markdownUrl.length;
      }
      return text(page).then((block) => block.length);
    },
  };
}

/** How many pages are read at once when their lengths are not known yet. */
const READ_AHEAD = 8;

/**
 * Visits the lengths of `pages` in order, reading a few unknown ones at a time; stops early when
 * `visit` returns true. Holds no text.
 */
export async function forEachLength(
  pages: readonly AgentPageEntry[],
  items: PageItems,
  visit: (length: number, page: AgentPageEntry) => boolean | undefined | Promise<boolean | undefined>,
): Promise<void> {
  for (let start = 0; start < pages.length; start += READ_AHEAD) {
    const window = pages.slice(start, start + READ_AHEAD);
    const lengths = await Promise.all(window.map((page) => items.length(page)));
    for (let index = 0; index < window.length; index++) {
      if ((await visit(lengths[index] as number, window[index] as AgentPageEntry)) === true) return;
    }
  }
}
