import type { SourcePage } from '@kit/core';
import { codeLanguages, highlightReady, preloadLanguages } from './highlight/highlight.js';
import { renderCodeFingerprint } from './node/code-fingerprint.js';
import { createFsSnippetReader } from './node/fs-snippet-reader.js';
import { createRenderer, type KitRenderer, type RendererOptions } from './render/renderer.js';

export { renderCodeFingerprint } from './node/code-fingerprint.js';
export { createFsSnippetReader } from './node/fs-snippet-reader.js';

/** A renderer that can say whether highlighting a page would wait, and prepare grammars ahead. */
export interface NodeRenderer extends KitRenderer {
  highlightReady(page: SourcePage): boolean;
  prepareHighlight(pages: SourcePage[]): Promise<void>;
  fingerprint(): Promise<string>;
}

/**
 * `createRenderer` with snippet includes read from disk (Node only). Same options; `snippets`
 * defaults to {@link createFsSnippetReader} and `codeFingerprint` to {@link renderCodeFingerprint},
 * so its `fingerprint()` changes with Kit's code, its libraries and the registered components.
 * A server uses `highlightReady` and `prepareHighlight`
 * to answer its first pages without waiting for code grammars (see the `PageRenderer` port).
 *
 * @example
 * import { createNodeRenderer } from '@kit/render/node';
 * const renderer = createNodeRenderer();
 * void renderer.prepareHighlight(pages); // right after the server starts listening
 */
export function createNodeRenderer(options: RendererOptions = {}): NodeRenderer {
  const renderer = createRenderer({
    snippets: createFsSnippetReader(),
    codeFingerprint: renderCodeFingerprint,
    ...options,
  }) as KitRenderer & { fingerprint(): Promise<string> };
  // Scanning a page's fences is cheap, but a server asks on every uncached page: remember by hash.
  const languagesByHash = new Map<string, string[]>();
  const languagesOf = (page: SourcePage) => {
    let languages = languagesByHash.get(page.contentHash);
    if (!languages) {
      languages = codeLanguages(page.body).map((entry) => entry.language);
      if (languagesByHash.size >= 5000) languagesByHash.clear();
      languagesByHash.set(page.contentHash, languages);
    }
    return languages;
  };
  return Object.assign(renderer, {
    highlightReady: (page: SourcePage) => highlightReady(languagesOf(page)),
    async prepareHighlight(pages: SourcePage[]) {
      const usage = new Map<string, { count: number; sample: string }>();
      for (const page of pages) {
        for (const entry of codeLanguages(page.body)) {
          const known = usage.get(entry.language);
          if (known) known.count += entry.count;
          else usage.set(entry.language, { count: entry.count, sample: entry.sample });
        }
      }
      const ordered = [...usage].sort((a, b) => b[1].count - a[1].count);
      await preloadLanguages(
        ordered.map(([language]) => language),
        Object.fromEntries(ordered.map(([language, entry]) => [language, entry.sample])),
      );
    },
  });
}
