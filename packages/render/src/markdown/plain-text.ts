import type { Nodes } from 'mdast';

const BLOCK_TYPES = new Set([
  'paragraph',
  'heading',
  'blockquote',
  'list',
  'listItem',
  'code',
  'table',
  'tableRow',
  'thematicBreak',
  'footnoteDefinition',
]);

/**
 * Plain text of a node: what a reader sees, without Markdown syntax or raw HTML tags. Blocks are
 * separated by newlines and table cells by spaces so words never run together in a search index.
 */
export function plainText(node: Nodes): string {
  const parts: string[] = [];
  collect(node, parts);
  return parts.join('');
}

function collect(node: Nodes, parts: string[]): void {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      parts.push(node.value);
      return;
    case 'code':
      parts.push(node.value, '\n');
      return;
    case 'image':
      if (node.alt) parts.push(node.alt);
      return;
    case 'html':
    case 'yaml':
    case 'definition':
      return;
    case 'break':
      parts.push('\n');
      return;
    case 'tableCell':
      for (const child of node.children) collect(child, parts);
      parts.push(' ');
      return;
    default:
      break;
  }
  if ('children' in node) {
    for (const child of node.children) collect(child as Nodes, parts);
  }
  if (BLOCK_TYPES.has(node.type)) parts.push('\n');
}
