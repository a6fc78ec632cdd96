import { KitError } from '../errors/kit-error.js';
import type { RenderedPage } from '../ports/renderer.js';
import { markdownHeadings, type SectionLines, sectionNames, sectionRange } from './sections.js';

/**
 * Reading a page in parts: the text a read selects (the whole agent Markdown, or some of its
 * sections), the part of it that fits a character budget, and the cursor that leads to the rest.
 * `read_page` and the `.md` twin's `?section=`, `?max_chars=` and `?cursor=` both come here, so
 * they cut a page at the same places and their cursors are interchangeable.
 */

/** Smallest `max_chars` a read accepts: below it the notes around a part would crowd out the text. */
export const MIN_READ_CHARS = 2000;

/** Characters kept free in every part for the lines around it (continuation, staleness, content_hash). */
const NOTE_ROOM = 1000;

/** Which part of a page a read selects. */
export interface ReadSelection {
  /** Sections by heading text or anchor id, or null for the whole page. */
  sections: string[] | null;
  /** Whether a section includes its subsections. */
  subsections: boolean;
}

/**
 * The text a read selects, ending with exactly one line break: the whole agent Markdown, or the
 * sections asked for in page order (a section inside another one asked for is not repeated), each
 * trimmed and separated by a blank line. Throws `section.not_found` naming every section the page
 * has when one of them is missing.
 *
 * @example
 * selectedText(rendered, { sections: ['Retrying Jobs', 'priorities'], subsections: false }, 'queues');
 */
export function selectedText(rendered: RenderedPage, selection: ReadSelection, pagePath: string): string {
  if (selection.sections === null) return `${rendered.markdown.trimEnd()}\n`;
  const lines = rendered.markdown.split('\n');
  const headings = markdownHeadings(lines);
  const ranges: SectionLines[] = [];
  const missing: string[] = [];
  for (const wanted of selection.sections) {
    const range = sectionRange(rendered, lines, headings, wanted, selection.subsections);
    if (range) ranges.push(range);
    else missing.push(wanted);
  }
  if (missing.length > 0) throw sectionNotFound(rendered, pagePath, missing);
  ranges.sort((a, b) => a.start - b.start);
  const merged: SectionLines[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range.start < last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const parts = merged.map((range) => lines.slice(range.start, range.end).join('\n').trim());
  return `${parts.join('\n\n')}\n`;
}

/** The error for sections a page does not have, listing every section it does have. */
export function sectionNotFound(rendered: RenderedPage, pagePath: string, missing: string[]): KitError {
  const names = sectionNames(rendered);
  const asked = missing.map((name) => `"${name}"`).join(', ');
  return new KitError(
    'section.not_found',
    `Page "${pagePath}" has no section ${asked}.${
      names.length > 0
        ? ` Its ${names.length} ${names.length === 1 ? 'section' : 'sections'}: ${names.join('; ')}.`
        : ' It has no headings.'
    } Pass a heading text or anchor id, or omit section to read the whole page.`,
    { details: { path: pagePath, section: missing.length === 1 ? missing[0] : missing, sections: names } },
  );
}

/** One part of a selected text: characters `[start, end)`, and the heading the next part opens with. */
export interface ReadPart {
  start: number;
  end: number;
  /** Heading text the rest starts at, when it starts at a heading. */
  nextSection: string | null;
}

/** A place a text may be cut: the start of a line outside code, ranked by how natural a cut it is. */
interface Cut {
  offset: number;
  /** 3: a heading starts here; 2: a block starts here (after a blank line); 1: any other line. */
  rank: 1 | 2 | 3;
  heading?: string;
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})/;
const RAW_OPEN = /^\s*<(pre|script|style|textarea)(?:[\s>]|$)/i;

/**
 * The places `text` may be cut: line starts outside fenced code (at any indent, so a fence inside
 * a list item counts) and outside raw `<pre>`, `<script>`, `<style>` and `<textarea>` blocks.
 */
function cutPoints(text: string): Cut[] {
  const lines = text.split('\n');
  const headings = new Map(markdownHeadings(lines).map((heading) => [heading.line, heading.text]));
  const cuts: Cut[] = [];
  let offset = 0;
  let fence: string | null = null;
  let raw: RegExp | null = null;
  let afterBlank = true;
  lines.forEach((line, index) => {
    if (index > 0 && offset < text.length && fence === null && raw === null) {
      const heading = headings.get(index);
      cuts.push(heading !== undefined ? { offset, rank: 3, heading } : { offset, rank: afterBlank ? 2 : 1 });
    }
    if (fence !== null) {
      const marker = FENCE_OPEN.exec(line)?.[1];
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    } else if (raw !== null) {
      if (raw.test(line)) raw = null;
    } else {
      const opening = FENCE_OPEN.exec(line)?.[1];
      const tag = RAW_OPEN.exec(line)?.[1];
      if (opening) fence = opening;
      else if (tag) {
        const closing = new RegExp(`</${tag}\\s*>`, 'i');
        if (!closing.test(line)) raw = closing;
      }
    }
    afterBlank = line.trim() === '';
    offset += line.length + 1;
  });
  return cuts;
}

/**
 * The part of `text` from `start` that fits `limit` characters, cut where reading is least
 * disturbed: at the furthest heading when that fills at least half the budget, else at the
 * furthest block boundary (a blank line outside code), else at the furthest line outside code.
 * Code fences are never cut: a block longer than the budget comes whole, so every character of the
 * text is in exactly one part.
 *
 * @example
 * const first = nextPart(markdown, 0, 40_000);
 * const second = nextPart(markdown, first.end, 40_000);
 */
export function nextPart(text: string, start: number, limit: number): ReadPart {
  if (text.length - start <= limit) return { start, end: text.length, nextSection: null };
  const max = start + limit;
  const cuts = cutPoints(text).filter((cut) => cut.offset > start);
  const within = cuts.filter((cut) => cut.offset <= max);
  const furthest = (rank: number) => within.filter((cut) => cut.rank >= rank).at(-1);
  const heading = furthest(3);
  const chosen =
    (heading && heading.offset - start >= limit / 2 ? heading : undefined) ?? furthest(2) ?? furthest(1) ?? cuts[0];
  if (!chosen) return { start, end: text.length, nextSection: null };
  return { start, end: chosen.offset, nextSection: chosen.heading ?? null };
}

/** The characters of a text a part may fill under `maxChars`, leaving room for the notes around it. */
export function partLimit(maxChars: number, noteLength: number): number {
  return Math.max(MIN_READ_CHARS - NOTE_ROOM, maxChars - NOTE_ROOM - noteLength);
}

/** What a cursor carries: where the next part starts, in which text, of which selection, at which size. */
export interface ReadCursor extends ReadSelection {
  offset: number;
  /** The `max_chars` the read was asked with, kept for the next parts; null for the default. */
  maxChars: number | null;
  /** The first characters of the page's content hash, so a cursor into older text is refused. */
  hash: string;
}

/** The part of a content hash a cursor keeps. */
export function cursorHash(contentHash: string): string {
  return contentHash.replace(/^sha256:/, '').slice(0, 16);
}

/** A cursor as `read_page` and the `.md` twin hand it out: URL-safe base64 of its state. */
export function encodeReadCursor(cursor: ReadCursor): string {
  const state = [1, cursor.offset, cursor.hash, cursor.sections, cursor.subsections ? 1 : 0, cursor.maxChars];
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Reads a cursor back; anything this server did not hand out is `argument.invalid`. */
export function decodeReadCursor(text: string): ReadCursor {
  const invalid = () =>
    new KitError(
      'argument.invalid',
      '`cursor` is not one this server handed out. Pass the cursor from the last part exactly as given, or omit it to read from the start.',
    );
  if (!/^[A-Za-z0-9_-]{1,4000}$/.test(text)) throw invalid();
  let state: unknown;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    state = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(state) || state[0] !== 1) throw invalid();
  const [, offset, hash, sections, subsections, maxChars] = state as unknown[];
  const sectionList =
    sections === null
      ? null
      : Array.isArray(sections) && sections.length > 0 && sections.every((name) => typeof name === 'string')
        ? (sections as string[])
        : undefined;
  if (
    typeof offset !== 'number' ||
    !Number.isInteger(offset) ||
    offset < 0 ||
    typeof hash !== 'string' ||
    sectionList === undefined ||
    (subsections !== 0 && subsections !== 1) ||
    !(maxChars === null || (typeof maxChars === 'number' && Number.isInteger(maxChars) && maxChars >= MIN_READ_CHARS))
  ) {
    throw invalid();
  }
  return { offset, hash, sections: sectionList, subsections: subsections === 1, maxChars };
}
