import type { Root, RootContent } from 'mdast';
import { type MarkdownChunk, splitMarkdown } from './chunks.js';
import { fencedCodeChunk, indentedCodeChunk } from './code-chunks.js';
import { plainBlocksChunk } from './plain-blocks.js';
import { shift, shiftedCopy } from './shift.js';

/**
 * Characters of chunks parsed in one go. Parsing each chunk alone costs the parser's set-up each
 * time, parsing a whole long page costs more per character: on the Laravel docs, groups of 1 to
 * 16 KB take about two thirds of the time of either.
 */
const GROUP_BYTES = 8 * 1024;

/** Characters of chunk text whose trees a parser keeps by default. */
const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * A parser that keeps the trees of the chunks it parsed ({@link splitMarkdown}) and parses only
 * the chunks it has not seen: another version of a page, which mostly repeats the one before with
 * a few sections changed, costs the changed sections. Chunks not seen are parsed in groups of a
 * few kilobytes ({@link GROUP_BYTES}) and their tree shared out by position: no top-level block
 * crosses a cut. A chunk that is one code block, fenced or indented, or made of plain paragraphs,
 * headings and tables of contents ({@link plainBlocksChunk}), needs no parser at all. The
 * tree is the one `parse` gives for the whole page, positions included. A page that cannot be cut
 * is kept whole, the last one only. Kept trees are never handed out, only copies of them
 * (rendering edits the tree it is given).
 */
export function createChunkedParser(
  parse: (markdown: string) => Root,
  maxBytes = DEFAULT_CHUNK_BYTES,
): (markdown: string) => Root {
  /** Chunk trees by their text, positions counted from the chunk's start; most recently used last. */
  const kept = new Map<string, RootContent[]>();
  let bytes = 0;
  /** The last page that could not be cut, to copy when it comes again (the same page in the next version). */
  let whole: { markdown: string; tree: Root } | null = null;
  /**
   * The trees of the chunks at `indexes` (in page order), parsed in one go as if they stood one
   * after the other, and positioned in the page. Each parses there as it does in the page: a cut
   * starts afresh whatever came before it. Null when a node has no position to place it by.
   */
  const parseGroup = (chunks: MarkdownChunk[], indexes: number[]): RootContent[][] | null => {
    let text = '';
    let lines = 0;
    const starts = indexes.map((index) => {
      const start = { offset: text.length, line: lines + 1 };
      const chunk = chunks[index]!.text;
      text += chunk;
      for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) lines += 1;
      return start;
    });
    const trees: RootContent[][] = indexes.map(() => []);
    let at = 0;
    for (const node of parse(text).children) {
      const start = node.position?.start.offset;
      if (start === undefined) return null;
      while (at + 1 < starts.length && starts[at + 1]!.offset <= start) at += 1;
      trees[at]!.push(node);
    }
    trees.forEach((nodes, member) => {
      const chunk = chunks[indexes[member]!]!;
      shift(nodes, chunk.line - starts[member]!.line, chunk.offset - starts[member]!.offset);
    });
    return trees;
  };
  return (markdown) => {
    const chunks = splitMarkdown(markdown);
    if (chunks === null || chunks.length < 2) {
      if (whole?.markdown === markdown) return shiftedCopy(whole.tree, 0, 0) as Root;
      const tree = parse(markdown);
      whole = { markdown, tree: shiftedCopy(tree, 0, 0) as Root };
      return tree;
    }
    // Per chunk: a kept tree (to copy into place), or nodes parsed now, already in place.
    const known: Array<RootContent[] | undefined> = [];
    const parsed: Array<RootContent[] | undefined> = [];
    // Chunks not seen are parsed a group at a time: a parser costs something to set up, and
    // past some kilobytes micromark slows down with the length of its input.
    let group: number[] = [];
    let groupBytes = 0;
    const flush = (): boolean => {
      if (group.length === 0) return true;
      const trees = parseGroup(chunks, group);
      if (trees === null) return false;
      group.forEach((index, member) => {
        parsed[index] = trees[member];
      });
      group = [];
      groupBytes = 0;
      return true;
    };
    for (let index = 0; index < chunks.length; index++) {
      const chunk = chunks[index]!;
      const tree = kept.get(chunk.text);
      if (tree) {
        known[index] = tree;
        continue;
      }
      const code = fencedCodeChunk(chunk) ?? indentedCodeChunk(chunk);
      const plain = code ? [code] : plainBlocksChunk(chunk);
      if (plain) {
        parsed[index] = plain;
        continue;
      }
      if (groupBytes > 0 && groupBytes + chunk.text.length > GROUP_BYTES && !flush()) return parse(markdown);
      group.push(index);
      groupBytes += chunk.text.length;
    }
    if (!flush()) return parse(markdown);
    const children: RootContent[] = [];
    chunks.forEach((chunk, index) => {
      const fresh = parsed[index];
      // Handed out: the nodes parsed now, or a copy of the kept ones. Kept: never a tree handed out.
      const tree = fresh ?? (shiftedCopy(known[index], chunk.line - 1, chunk.offset) as RootContent[]);
      const keep = fresh ? (shiftedCopy(fresh, 1 - chunk.line, -chunk.offset) as RootContent[]) : known[index]!;
      // Most recently used last; a chunk seen for the first time counts toward the budget.
      if (!kept.delete(chunk.text)) bytes += chunk.text.length;
      kept.set(chunk.text, keep);
      for (const node of tree) children.push(node);
    });
    while (bytes > maxBytes) {
      const oldest = kept.keys().next().value as string;
      kept.delete(oldest);
      bytes -= oldest.length;
    }
    const lastBreak = markdown.lastIndexOf('\n');
    return {
      type: 'root',
      children,
      position: {
        start: { line: 1, column: 1, offset: 0 },
        end: {
          line: (markdown.match(/\n/g)?.length ?? 0) + 1,
          column: markdown.length - lastBreak,
          offset: markdown.length,
        },
      },
    };
  };
}
