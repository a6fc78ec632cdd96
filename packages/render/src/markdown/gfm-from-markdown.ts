import type { InlineCode, ListItem, Paragraph, Table } from 'mdast';
import type { CompileContext, Extension, Token } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';

/**
 * What `gfmFromMarkdown()` of mdast-util-gfm gives (autolink literals, footnotes, strikethrough,
 * tables, task list items, in that order), without loading mdast-util-to-markdown: the table and
 * task list packages import it at the top for their Markdown writers, which Kit never uses, and it
 * is about fifty modules a server would otherwise load before its first page. The two small
 * from-markdown halves below are those of mdast-util-gfm-table 2.0.1 and
 * mdast-util-gfm-task-list-item 2.0.1 (MIT, Titus Wormer); the render fixtures pin the trees.
 */
export function gfmFromMarkdown(): Extension[] {
  return [
    gfmAutolinkLiteralFromMarkdown(),
    gfmFootnoteFromMarkdown(),
    gfmStrikethroughFromMarkdown(),
    gfmTableFromMarkdown(),
    gfmTaskListItemFromMarkdown(),
  ];
}

/** The compile context's own data, with the flag tables keep (declared by mdast-util-gfm-table). */
type TableContext = CompileContext & { data: { inTable?: boolean } };

function gfmTableFromMarkdown(): Extension {
  return {
    enter: { table: enterTable, tableData: enterCell, tableHeader: enterCell, tableRow: enterRow },
    exit: { codeText: exitCodeText, table: exitTable, tableData: exit, tableHeader: exit, tableRow: exit },
  };
}

function enterTable(this: TableContext, token: Token): void {
  const align = (token as Token & { _align?: Array<'left' | 'right' | 'center' | 'none'> })._align ?? [];
  // The trailing `position` keeps the object's shape stable when enter() fills it in.
  const table: Table = {
    type: 'table',
    align: align.map((value) => (value === 'none' ? null : value)),
    children: [],
    position: undefined,
  };
  this.enter(table, token);
  this.data.inTable = true;
}

function exitTable(this: TableContext, token: Token): void {
  this.exit(token);
  this.data.inTable = undefined;
}

function enterRow(this: CompileContext, token: Token): void {
  this.enter({ type: 'tableRow', children: [], position: undefined }, token);
}

function enterCell(this: CompileContext, token: Token): void {
  this.enter({ type: 'tableCell', children: [], position: undefined }, token);
}

function exit(this: CompileContext, token: Token): void {
  this.exit(token);
}

function exitCodeText(this: TableContext, token: Token): void {
  let value = this.resume();
  // In a table cell, `\|` is a pipe; other backslashes stay (and cannot escape pipes).
  if (this.data.inTable) value = value.replace(/\\([\\|])/g, (all, character) => (character === '|' ? character : all));
  const node = this.stack[this.stack.length - 1] as InlineCode;
  node.value = value;
  this.exit(token);
}

function gfmTaskListItemFromMarkdown(): Extension {
  return {
    exit: {
      taskListCheckValueChecked: exitCheck,
      taskListCheckValueUnchecked: exitCheck,
      paragraph: exitParagraphWithTaskListItem,
    },
  };
}

function exitCheck(this: CompileContext, token: Token): void {
  // Always in a paragraph, in a list item.
  const item = this.stack[this.stack.length - 2] as ListItem;
  item.checked = (token.type as string) === 'taskListCheckValueChecked';
}

function exitParagraphWithTaskListItem(this: CompileContext, token: Token): void {
  const parent = this.stack[this.stack.length - 2];
  if (parent && parent.type === 'listItem' && typeof parent.checked === 'boolean') {
    const node = this.stack[this.stack.length - 1] as Paragraph;
    const head = node.children[0];
    if (head && head.type === 'text') {
      const firstParagraph = parent.children.find((sibling) => sibling.type === 'paragraph');
      if (firstParagraph === node) {
        // The check is followed by a space or tab, which is not part of the text.
        head.value = head.value.slice(1);
        if (head.value.length === 0) node.children.shift();
        else if (node.position && head.position && typeof head.position.start.offset === 'number') {
          head.position.start.column++;
          head.position.start.offset++;
          node.position.start = { ...head.position.start };
        }
      }
    }
  }
  this.exit(token);
}
