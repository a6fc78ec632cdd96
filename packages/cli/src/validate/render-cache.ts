import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createRenderContext,
  type PageRenderer,
  type RenderContext,
  type RenderContextInput,
  type RenderedPage,
  type SearchBudgetReport,
  type SearchScope,
  type SearchSection,
  type SourcePage,
  type ValidationRenderer,
} from '@kit/core';
import { mayIncludeSnippets } from '@kit/core/internal';
import { projectCacheDir, writeFileAtomically } from '@kit/core/node';
import { renderCutShort } from '@kit/node';

/** Where `kit validate` keeps rendered pages between runs: `validate` in the project's cache folder. */
export function validateCacheDir(root: string): string {
  return join(projectCacheDir(root), 'validate');
}

export interface CachedRendererOptions {
  /**
   * The renderer whose output `inner` gives (the kit's). Renders are kept under its `fingerprint()`,
   * the one a doc set keys its cache store by: its code, libraries and registered components. A
   * renderer without one (or whose code cannot be read) has every page rendered, and nothing kept.
   */
  renderer: Pick<PageRenderer, 'fingerprint'>;
}

/**
 * A renderer that keeps what validation reads of each render (links, anchors, sections, agent
 * Markdown, problems; no HTML) on disk, keyed by the page's content hash, the render context
 * (`html_input` included) and the renderer's fingerprint (its code by content, not file times, and
 * its components), so a second `kit validate` renders only the pages that changed, and a new
 * release of Kit or a registered component renders them again. Pages with snippet includes are
 * always rendered (an included file may have changed). Renders as many pages at once as `inner` does.
 *
 * @example
 * const pool = createRenderPool({ renderer: kit.renderer });
 * const renderer = cachedRenderer(pool, validateCacheDir(root), { renderer: kit.renderer });
 */
export function cachedRenderer(
  inner: ValidationRenderer,
  dir: string,
  options: CachedRendererOptions,
): ValidationRenderer {
  const made = options.renderer;
  return {
    ...(inner.concurrency !== undefined ? { concurrency: inner.concurrency } : {}),
    async renderPage(page: SourcePage, input: RenderContextInput): Promise<RenderedPage> {
      // A page with a snippet include is rendered every time: the included file may have changed.
      if (mayIncludeSnippets(page.body)) return inner.renderPage(page, input);
      // Asked for each page: registering a component while validating changes it.
      const fingerprint = made.fingerprint ? await made.fingerprint().catch(() => null) : null;
      if (fingerprint === null) return inner.renderPage(page, input);
      const key = createHash('sha256')
        .update(cacheKey(page, createRenderContext(input), fingerprint))
        .digest('hex');
      const file = join(dir, key.slice(0, 2), `${key}.json`);
      try {
        return JSON.parse(await readFile(file, 'utf8')) as RenderedPage;
      } catch {
        // Not cached yet (or unreadable): render and keep it.
      }
      const rendered = await inner.renderPage(page, input);
      const slim: RenderedPage = { ...rendered, html: '' };
      // A render cut short by the deadline or a crash is this run's answer only: the next run tries again.
      if (!renderCutShort(rendered)) await writeFileAtomically(file, JSON.stringify(slim));
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
    context.references ? JSON.stringify(context.references) : '',
  ].join('\u0001');
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
