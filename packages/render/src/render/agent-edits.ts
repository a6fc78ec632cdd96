import type { Nodes } from 'mdast';
import { applyEdits, type Edit } from './edits.js';
import type { PageText } from './page-text.js';

/**
 * Replaces the destination of a link, image or definition in the agent Markdown with `agentUrl`
 * (absolute, like every link in the twin), leaving the rest of the node as written. Nothing changes
 * when the URL is the same or the written destination cannot be found.
 */
export function rewriteDestination(text: PageText, edits: Edit[], node: Nodes, url: string, agentUrl: string): void {
  const range = text.offsets(node);
  if (!range || agentUrl === url) return;
  const written = text.source.slice(range[0], range[1]);
  const from = destinationSearchStart(node, written, url, range[0]);
  if (from === null) return;
  const marker = node.type === 'definition' ? ']:' : '](';
  const at = written.indexOf(marker, from);
  if (at === -1) return;
  let start = at + 2;
  while (start < written.length && /\s/.test(written[start] as string)) start++;
  const end = destinationEnd(written, start);
  if (end === null) return;
  const safe = /[\s()<>]/.test(agentUrl) ? `<${agentUrl.replace(/[<>]/g, encodeURIComponent)}>` : agentUrl;
  edits.push({ start: range[0] + start, end: range[0] + end, text: safe });
}

/** Where in a written link or image to look for the `](` its destination follows; null to leave it. */
function destinationSearchStart(node: Nodes, written: string, url: string, nodeStart: number): number | null {
  if (node.type === 'link') {
    if (!written.startsWith('[')) return null;
    const lastChild = node.children[node.children.length - 1];
    return lastChild?.position?.end.offset !== undefined ? lastChild.position.end.offset - nodeStart : 1;
  }
  if (node.type === 'image') {
    if (!written.startsWith('![')) return null;
    // The alt text has no child positions; prefer the `](` the written destination follows.
    const exact = written.indexOf(`](${url}`, 2);
    return exact === -1 ? 2 : exact;
  }
  return 0;
}

/** The end of a destination starting at `start`: `<...>`, or a run with balanced parentheses. */
function destinationEnd(written: string, start: number): number | null {
  if (written[start] === '<') {
    const end = written.indexOf('>', start);
    return end === -1 ? null : end + 1;
  }
  let end = start;
  let depth = 0;
  while (end < written.length) {
    const char = written[end] as string;
    if (char === '\\') end += 2;
    else if (/\s/.test(char)) break;
    else if (char === '(') {
      depth++;
      end++;
    } else if (char === ')') {
      if (depth === 0) break;
      depth--;
      end++;
    } else end++;
  }
  return end;
}

/**
 * A line of a paragraph that starts with three backticks or tildes (an inline code span such as
 * ```` ```js{2} ````) is no fence to CommonMark, but readers that scan lines for fences (agents'
 * own parsers, afdocs `markdown-code-fence-validity`) open one there and read the rest of the page
 * as code. The twin joins such a line to the one before it: a soft line break and a space read the
 * same.
 */
export function joinFenceLikeLines(written: string, start: number, edits: Edit[]): void {
  if (!/\n[ \t>]*(?:```|~~~)/.test(written)) return;
  for (const joint of written.matchAll(/\n[ \t>]*(?=```|~~~)/g)) {
    edits.push({ start: start + joint.index, end: start + joint.index + joint[0].length, text: ' ' });
  }
}

/** A fenced code block holding `content`, its fence longer than any backtick run inside. */
export function fence(content: string, lang: string): string {
  const longest = Math.max(2, ...[...content.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${lang}\n${content}\n${marks}`;
}

/** The agent Markdown: the page with every edit applied, blank runs collapsed, ending in one newline. */
export function agentMarkdown(source: string, edits: Edit[]): string {
  return `${applyEdits(source, edits)
    .replace(/^[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
