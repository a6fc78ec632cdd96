import type { Command } from 'commander';

const notes = new WeakMap<Command, string>();

/**
 * Adds text shown after a command's `--help` and kept for the generated reference page, so both
 * come from the command's own definition. The page gets the Markdown as written; the terminal
 * gets {@link terminalText} of it, since a raw Markdown table is hard to read there.
 */
export function addNotes(command: Command, text: string): Command {
  notes.set(command, text.trim());
  return command.addHelpText('after', `\n${terminalText(text.trim())}`);
}

/** The notes of a command, or an empty string. */
export function notesOf(command: Command): string {
  return notes.get(command) ?? '';
}

const helpWidth = 100;

/**
 * Markdown notes as plain text for a terminal: each table row becomes an entry (its first cell,
 * then the second in parentheses when the table has three columns, then the rest on indented,
 * wrapped lines), header and separator rows are dropped, and code backticks are removed.
 *
 * @example
 * terminalText('| Rule | Severity | What |\n| --- | --- | --- |\n| links.broken | error | a link to nowhere |');
 * // '  links.broken (error)\n      a link to nowhere'
 */
export function terminalText(markdown: string): string {
  const out: string[] = [];
  let inTable = false;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      out.push(line.replaceAll('`', ''));
      continue;
    }
    const cells = tableCells(line);
    // The first row of a table is its header; the separator row follows it.
    if (!inTable || cells.every((cell) => /^:?-+:?$/.test(cell))) {
      inTable = true;
      continue;
    }
    const [first = '', ...rest] = cells.map((cell) => cell.replaceAll('`', ''));
    const described = rest.length === 2 ? [`  ${first} (${rest[0]})`, rest[1]!] : [`  ${first}`, rest.join('; ')];
    out.push(described[0]!, ...wrap(described[1]!, helpWidth - 6).map((part) => `      ${part}`));
  }
  return out.join('\n');
}

function tableCells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  // `\|` inside a cell is an escaped pipe, not a column break.
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll('\\|', '|'));
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  return lines;
}
