import type { StaleSources } from '../ports/source-history.js';

/**
 * The note on top of a page whose `sources:` changed after it, for clients that show only text.
 *
 * @example
 * staleNote({ sources: ['src/queue.ts'], total: 1, commit: 'a1b2c3…', date: '2026-01-02T10:00:00Z' });
 * // '> **Possibly out of date:** code this page documents changed after the page did: `src/queue.ts` (newest: commit a1b2c3d4e5f6, 2026-01-02). Check the code before relying on it.\n\n'
 */
export function staleNote(stale: StaleSources): string {
  const shown = stale.sources.slice(0, 5).map((file) => `\`${file}\``);
  const more = stale.total - shown.length;
  const files = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  return `> **Possibly out of date:** code this page documents changed after the page did: ${files} (newest: commit ${stale.commit.slice(0, 12)}, ${stale.date.slice(0, 10)}). Check the code before relying on it.\n\n`;
}

/**
 * Agent Markdown as `read_page` and `.md` twins serve it: the Markdown, a blank line, and the line
 * `content_hash: sha256:...` for clients that show only text.
 *
 * @example
 * withContentHashLine('# Routing\n', 'sha256:ab…'); // '# Routing\n\ncontent_hash: sha256:ab…\n'
 */
export function withContentHashLine(markdown: string, hash: string): string {
  // trimEnd strips what /\s+$/ would, scanning from the end instead of trying every offset (twins are served per request).
  return `${markdown.trimEnd()}\n\ncontent_hash: ${hash}\n`;
}

/**
 * Agent Markdown without the `content_hash` line {@link withContentHashLine} added: what Ask AI
 * reads (the specification gives it pages without that line). Text without the line passes unchanged.
 *
 * @example
 * withoutContentHashLine('# Routing\n\ncontent_hash: sha256:ab…\n', 'sha256:ab…'); // '# Routing\n'
 */
export function withoutContentHashLine(text: string, hash: string): string {
  const line = `\n\ncontent_hash: ${hash}\n`;
  return text.endsWith(line) ? `${text.slice(0, -line.length)}\n` : text;
}
