import { type KitRenderer, type RendererOptions, createRenderer } from './render/renderer.js';
import { createFsSnippetReader } from './node/fs-snippet-reader.js';

export { createFsSnippetReader } from './node/fs-snippet-reader.js';

/**
 * `createRenderer` with snippet includes read from disk (Node only). Same options; `snippets`
 * defaults to {@link createFsSnippetReader}.
 *
 * @example
 * import { createNodeRenderer } from '@kit/render/node';
 * const renderer = createNodeRenderer();
 */
export function createNodeRenderer(options: RendererOptions = {}): KitRenderer {
  return createRenderer({ snippets: createFsSnippetReader(), ...options });
}
