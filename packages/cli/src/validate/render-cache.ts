import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createRenderContext,
  type RenderContext,
  type RenderContextInput,
  type RenderedPage,
  type SearchBudgetReport,
  type SearchScope,
  type SearchSection,
  type SourcePage,
  type ValidationRenderer,
} from '@kit/core';
import { projectCacheDir, writeFileAtomically } from '@kit/core/node';
import { type ComponentRegistry, defaultComponents } from '@kit/render';

/**
 * A snippet include (`<<< @/path`) anywhere, also after a list marker or `>` of a quote; PHP
 * heredocs (`<<<EOT`) are not includes. A page with one is rendered every time, as the included
 * file may have changed.
 */
const SNIPPET_INCLUDE = /<<<[ \t]*@/;

/** Where `kit validate` keeps rendered pages between runs: `validate` in the project's cache folder. */
export function validateCacheDir(root: string): string {
  return join(projectCacheDir(root), 'validate');
}

export interface CachedRendererOptions {
  /**
   * The components `inner` renders with: a render is kept per set of registered components (and
   * their code), so registering or removing one renders its pages again.
   * @default defaultComponents (what kit.config.ts registers into)
   */
  components?: Pick<ComponentRegistry, 'names' | 'get'>;
}

/**
 * A renderer that keeps what validation reads of each render (links, anchors, sections, agent
 * Markdown, problems; no HTML) on disk, keyed by the page's content hash, the render context
 * (`html_input` included), the registered components and the installed renderer, so a second
 * `kit validate` renders only the pages that changed. Pages with snippet includes are always
 * rendered (an included file may have changed). Renders as many pages at once as `inner` does.
 *
 * @example
 * const renderer = await cachedRenderer(createRenderPool({ renderer: kit.renderer }), validateCacheDir(root));
 */
export async function cachedRenderer(
  inner: ValidationRenderer,
  dir: string,
  options: CachedRendererOptions = {},
): Promise<ValidationRenderer> {
  const fingerprint = await rendererFingerprint();
  const componentsFingerprint = componentsFingerprinter(options.components ?? defaultComponents);
  return {
    ...(inner.concurrency !== undefined ? { concurrency: inner.concurrency } : {}),
    async renderPage(page: SourcePage, input: RenderContextInput): Promise<RenderedPage> {
      if (SNIPPET_INCLUDE.test(page.body)) return inner.renderPage(page, input);
      const key = createHash('sha256')
        .update(cacheKey(page, createRenderContext(input), `${fingerprint}\u0001${componentsFingerprint()}`))
        .digest('hex');
      const file = join(dir, key.slice(0, 2), `${key}.json`);
      try {
        return JSON.parse(await readFile(file, 'utf8')) as RenderedPage;
      } catch {
        // Not cached yet (or unreadable): render and keep it.
      }
      const rendered = await inner.renderPage(page, input);
      const slim: RenderedPage = { ...rendered, html: '' };
      await writeFileAtomically(file, JSON.stringify(slim));
      return slim;
    },
  };
}

function cacheKey(page: SourcePage, context: RenderContext, fingerprint: string): string {
  return [
    fingerprint,
    page.contentHash,
    page.path,
    page.bodyLine,
    page.file ?? '',
    context.set,
    context.version,
    context.locale,
    context.versionSegment,
    context.pageUrl(page.path),
    context.pageUrl('x/y'),
    context.linkBase ? `${context.linkBase.written}>${context.linkBase.served}` : '',
    context.origin,
    context.sanitize ? 'sanitize' : context.htmlInput,
    context.snippetsRoot ?? '',
    context.highlight === false ? 'plain' : 'highlight',
  ].join('\u0001');
}

/**
 * Changes whenever a component is registered or removed, or its code changes: whether a page's
 * `<Zed />` is unknown, and what a known one renders, depend on it. Hashed again only when the
 * registry holds other definitions than last time.
 */
function componentsFingerprinter(components: Pick<ComponentRegistry, 'names' | 'get'>): () => string {
  let seen: Array<[string, unknown]> = [];
  let fingerprint = '';
  return () => {
    const now = components.names().map((name): [string, unknown] => [name, components.get(name)]);
    const same =
      now.length === seen.length &&
      now.every(([name, definition], index) => {
        const [seenName, seenDefinition] = seen[index]!;
        return name === seenName && definition === seenDefinition;
      });
    if (same && fingerprint !== '') return fingerprint;
    const hash = createHash('sha256');
    for (const [name, definition] of now) {
      const { html, markdown } = (definition ?? {}) as { html?: unknown; markdown?: unknown };
      hash.update(`${name}\u0000${String(html)}\u0000${String(markdown)}\u0001`);
    }
    seen = now;
    fingerprint = hash.digest('hex');
    return fingerprint;
  };
}

/** Changes whenever the installed renderer does: the newest file time under its entry folder. */
async function rendererFingerprint(): Promise<string> {
  try {
    const folder = dirname(fileURLToPath(import.meta.resolve('@kit/render')));
    let newest = 0;
    let count = 0;
    for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(?:js|ts)$/.test(entry.name)) continue;
      const info = await stat(join(entry.parentPath, entry.name));
      newest = Math.max(newest, info.mtimeMs);
      count += 1;
    }
    return `${folder}:${count}:${newest}`;
  } catch {
    return 'unknown';
  }
}

/**
 * Remembers the measured size of a browser search index by the sections it was built from and the
 * budget it was measured against, so a second run skips building an unchanged index and a changed
 * `search.budget_kb` is checked again at once.
 */
export function cachedBudget(
  measure: (scope: SearchScope, sections: SearchSection[]) => Promise<SearchBudgetReport | null>,
  dir: string,
  budgetKb: number,
): (scope: SearchScope, sections: SearchSection[]) => Promise<SearchBudgetReport | null> {
  return async (scope, sections) => {
    const key = createHash('sha256')
      .update(JSON.stringify([budgetKb, scope, sections]))
      .digest('hex');
    const file = join(dir, 'search', `${key}.json`);
    try {
      const kept = JSON.parse(await readFile(file, 'utf8')) as SearchBudgetReport | null;
      if (kept === null || kept.budgetKb === budgetKb) return kept;
    } catch {
      // Not measured yet.
    }
    const report = await measure(scope, sections);
    await writeFileAtomically(file, JSON.stringify(report));
    return report;
  };
}
