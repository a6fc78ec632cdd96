import { createRenderContext } from '../docset/render-context.js';
import type { SourcePage } from '../model/types.js';
import type { DocSet, Viewer } from '../ports/docset.js';
import type { RenderedPage } from '../ports/renderer.js';
import type { UrlLayout } from '../urls/set-urls.js';
import type { RenderContextInput, ValidateDocSetOptions } from './options.js';

/** The viewer validation reads pages as: the local operator, who may read every page. */
export const LOCAL: Viewer = { user: null, local: true };

/**
 * Renders one page for validation: through the renderer the caller gave (agent Markdown, no
 * highlighting), else through the set's own caches.
 */
export async function renderPage(
  options: ValidateDocSetOptions,
  docSet: DocSet,
  layout: UrlLayout,
  page: SourcePage,
): Promise<RenderedPage | null> {
  const { renderer } = options;
  if (renderer) {
    const context: RenderContextInput = {
      set: docSet.key,
      config: {
        html_input: docSet.config.html_input,
        snippets: docSet.config.snippets,
        references: docSet.config.references,
      },
      sourceKind: docSet.source.kind,
      layout,
      version: page.version,
      locale: page.locale,
      origin: options.origin ?? '',
      highlight: false,
    };
    return 'renderPage' in renderer
      ? renderer.renderPage(page, context)
      : renderer.render(page, createRenderContext(context));
  }
  if (docSet.renderForAgents) return docSet.renderForAgents(page);
  const view = await docSet.getPage({ version: page.version, locale: page.locale, path: page.path }, LOCAL);
  return view?.rendered ?? null;
}
