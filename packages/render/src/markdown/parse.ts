import type { Nodes, Parents, Root } from 'mdast';
import { fromMarkdown, type Options, type Transform } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { renderShortcutsOn } from '../shortcuts.js';
import { createChunkedParser } from './blocks.js';

// GFM's only tree transform finds literal autolinks (`www.x.com`, `a@b.co`) in text. As shipped it
// walks the whole tree four times (once per pattern); run here, it only visits the blocks whose
// text could hold one, which gives the same tree for a fraction of the walking.
const gfmExtensions = gfmFromMarkdown();
const autolinkTransforms: Transform[] = gfmExtensions.flatMap((extension) => extension.transforms ?? []);

// Built once: constructing the extension objects is measurable when a whole corpus is rendered.
const parseOptions = {
  extensions: [gfm(), frontmatter(['yaml'])],
  mdastExtensions: [
    ...gfmExtensions.map(({ transforms: _transforms, ...extension }) => extension),
    frontmatterFromMarkdown(['yaml']),
  ],
};

/** Blocks whose children are phrasing content: the transform never looks above them. */
const PHRASING_PARENTS = new Set(['paragraph', 'heading', 'tableCell']);
const WWW = /www\./i;

/** True when some text below `node` could start a literal autolink (every pattern needs one of these). */
function mayHoldAutolink(node: Nodes): boolean {
  if (node.type === 'text') return node.value.includes('@') || node.value.includes('://') || WWW.test(node.value);
  if (!('children' in node)) return false;
  for (const child of node.children) if (mayHoldAutolink(child as Nodes)) return true;
  return false;
}

/** Collects the phrasing blocks that may hold a literal autolink; false if the tree has an unexpected shape. */
function autolinkBlocks(parent: Parents, blocks: Nodes[]): boolean {
  for (const child of parent.children as Nodes[]) {
    if (child.type === 'text') return false;
    if (PHRASING_PARENTS.has(child.type)) {
      if (mayHoldAutolink(child)) blocks.push(child);
    } else if ('children' in child && !autolinkBlocks(child, blocks)) return false;
  }
  return true;
}

/** The options as mdast-util-gfm ships them: what parsing gives with the render shortcuts off. */
let upstreamOptions: Options | undefined;

/** Parses Markdown (GFM + YAML frontmatter) to mdast once; every output is derived from this tree. */
export function parseMarkdown(markdown: string): Root {
  if (!renderShortcutsOn()) {
    upstreamOptions ??= {
      extensions: parseOptions.extensions,
      mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
    };
    return fromMarkdown(markdown, upstreamOptions);
  }
  const tree = fromMarkdown(markdown, parseOptions);
  const blocks: Nodes[] = [];
  // Text straight under a flow container never comes out of micromark; should it ever, the
  // transform runs over the whole tree as mdast-util-gfm runs it.
  const targets = autolinkBlocks(tree, blocks) ? blocks : [tree];
  for (const target of targets) for (const transform of autolinkTransforms) transform(target as Root);
  return tree;
}

/**
 * `parseMarkdown` that remembers what it parsed. The same text again (a page unchanged between
 * versions, rendered under each version's context) gets a copy of that tree instead of a second
 * parse, which costs about a hundredth of one; a text that repeats most of one parsed before (the
 * same page in the next version) parses only the chunks that differ ({@link createChunkedParser}).
 * A copy is handed out every time because rendering edits the tree it is given; the ones kept are
 * never handed out.
 */
export function createTreeReuse(): (markdown: string) => Root {
  const chunked = createChunkedParser(parseMarkdown, CHUNK_BYTES);
  // With the render shortcuts off, every page is parsed whole, as the parser alone parses it.
  return (markdown) => (renderShortcutsOn() ? chunked(markdown) : parseMarkdown(markdown));
}

/**
 * Markdown whose chunk trees a renderer keeps: a few long pages, enough for the versions of one
 * page that a render pool hands one worker together; trees take some twenty times their text.
 */
const CHUNK_BYTES = 1024 * 1024;
