import type { Nodes, Parents, Root } from 'mdast';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { type Transform, fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';

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

/** Parses Markdown (GFM + YAML frontmatter) to mdast once; every output is derived from this tree. */
export function parseMarkdown(markdown: string): Root {
  const tree = fromMarkdown(markdown, parseOptions);
  const blocks: Nodes[] = [];
  // Text straight under a flow container never comes out of micromark; should it ever, the
  // transform runs over the whole tree as mdast-util-gfm runs it.
  const targets = autolinkBlocks(tree, blocks) ? blocks : [tree];
  for (const target of targets) for (const transform of autolinkTransforms) transform(target as Root);
  return tree;
}

/**
 * A deep copy of a parsed tree (plain objects, arrays and primitives, as `parseMarkdown` makes
 * them). An object reached twice is copied once, so the copy is shaped exactly like the original.
 */
export function cloneTree<T>(tree: T): T {
  const copies = new Map<object, unknown>();
  const copy = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const seen = copies.get(value);
    if (seen !== undefined) return seen;
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      copies.set(value, out);
      for (let index = 0; index < value.length; index++) out[index] = copy(value[index]);
      return out;
    }
    const out: Record<string, unknown> = {};
    copies.set(value, out);
    for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key]);
    return out;
  };
  return copy(tree) as T;
}

/**
 * `parseMarkdown` that remembers the last Markdown it parsed: the same text again (a page unchanged
 * between versions, rendered under each version's context) gets a copy of that tree instead of a
 * second parse, which costs about a hundredth of one. A copy is handed out every time because
 * rendering edits the tree it is given; the one kept is never handed out.
 */
export function createTreeReuse(): (markdown: string) => Root {
  let last: { markdown: string; tree: Root } | null = null;
  return (markdown) => {
    if (last !== null && last.markdown === markdown) return cloneTree(last.tree);
    last = null;
    const tree = parseMarkdown(markdown);
    last = { markdown, tree: cloneTree(tree) };
    return tree;
  };
}
