/**
 * The render shortcuts: places where Kit writes what an upstream library gives, faster, instead of
 * calling it.
 *
 * - `html/serialize.ts` (`articleHtml`) writes mdast straight to HTML, as mdast-util-to-hast and
 *   hast-util-to-html (with trim-lines and micromark-util-sanitize-uri) would write it.
 * - `markdown/blocks.ts` (`createChunkedParser`) parses only the chunks of a page it has not seen,
 *   and builds code blocks and plain paragraphs, headings and lists as micromark and
 *   mdast-util-from-markdown (with the GFM and frontmatter extensions) would build them.
 * - `markdown/parse.ts` (`parseMarkdown`) runs mdast-util-gfm's literal autolink transform only on
 *   the blocks that could hold a literal autolink.
 *
 * Each gives the same output as the libraries it copies, at the versions pinned exactly in this
 * package's package.json (`SHORTCUT_UPSTREAMS`). Setting the environment variable
 * `KIT_RENDER_SHORTCUTS=off` turns every shortcut off: renders then take the libraries' own road.
 * That is how to tell whether a rendering problem comes from a shortcut, and how the equivalence
 * tests render both ways.
 */
export const RENDER_SHORTCUTS_VARIABLE = 'KIT_RENDER_SHORTCUTS';

/**
 * The packages whose behaviour the shortcuts copy. Their versions are exact in package.json: a new
 * release can change what the library gives, and the copy would then differ without a test noticing.
 */
export const SHORTCUT_UPSTREAMS = [
  'hast-util-to-html',
  'mdast-util-from-markdown',
  'mdast-util-frontmatter',
  'mdast-util-gfm',
  'mdast-util-to-hast',
  'micromark',
  'micromark-extension-frontmatter',
  'micromark-extension-gfm',
  'micromark-util-sanitize-uri',
  'trim-lines',
] as const;

/**
 * Whether the render shortcuts are on: they are unless `KIT_RENDER_SHORTCUTS` is `off`. Read on
 * every call (a renderer asks once per page or parse), so a test or a process can switch it.
 *
 * @example
 * const html = renderShortcutsOn() ? articleHtml(nodes, options) : null; // null: the hast road
 */
export function renderShortcutsOn(): boolean {
  return typeof process === 'undefined' || process.env[RENDER_SHORTCUTS_VARIABLE] !== 'off';
}
