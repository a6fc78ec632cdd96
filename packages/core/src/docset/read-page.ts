import type { ResolvedSetConfig } from '../config/types.js';
import { KitError } from '../errors/kit-error.js';
import type { SourcePage } from '../model/types.js';
import type { ReadPageInput, ReadPageResult, Viewer } from '../ports/docset.js';
import type { RenderedPage } from '../ports/renderer.js';
import type { SourceHistory, StaleSources } from '../ports/source-history.js';
import { staleNote, withContentHashLine } from './markdown-lines.js';
import type { PageInput, Pages } from './pages.js';
import {
  cursorHash,
  decodeReadCursor,
  encodeReadCursor,
  MIN_READ_CHARS,
  nextPart,
  partLimit,
  type ReadCursor,
  type ReadSelection,
  selectedText,
} from './read-parts.js';
import type { Scopes } from './scope.js';

/** What one read answers with before it is cut into parts. */
interface ReadWhole {
  /** The selected text, without note or `content_hash` line. */
  text: string;
  hash: string;
  note: string;
  meta: ReadPageResult['meta'];
  selection: ReadSelection;
  /** Where in `text` this part starts (a cursor's offset). */
  start: number;
  cursor: ReadCursor | null;
}

/**
 * `read_page` for a set: finds the page the input names, selects its sections and answers whole
 * or in parts with a cursor to the rest.
 */
export function createReadPage(options: {
  config: ResolvedSetConfig;
  origin: string;
  pages: Pages;
  scopes: Scopes;
  sourceHistory?: SourceHistory | undefined;
}): (input: ReadPageInput, viewer: Viewer) => Promise<ReadPageResult> {
  const { config, origin, pages, scopes, sourceHistory } = options;

  /** The page's stale sources, or null; a history that fails costs the note, never the read. */
  async function staleSourcesOf(page: SourcePage): Promise<StaleSources | null> {
    if (!sourceHistory) return null;
    return sourceHistory.staleSources(page).catch(() => null);
  }

  return async function readPage(input, viewer) {
    if (typeof input.path !== 'string' || input.path.trim() === '') {
      throw new KitError(
        'argument.invalid',
        'read_page needs a path: a page path such as "routing", its URL or its .md URL.',
      );
    }
    const asked = readSections(input.section);
    const cursor = input.cursor === undefined ? null : decodeReadCursor(String(input.cursor).trim());
    checkMaxChars(input.maxChars);
    const wanted = await pages.pageInput(input.path, input, viewer);
    const scope = await scopes.scopeFor(wanted, viewer, 'current');
    const located = await pages.locate(viewer, scope.version, scope.locale.code, wanted.paths);
    if (!located) throw await pages.pageNotFound(wanted.shown, scope.version, scope.locale.code, viewer);
    const page = await pages.view(located, 'agent');
    const hash = located.page.contentHash;
    const { selection, start } = selectionFor(input, asked, cursor, wanted, located.page, page.rendered);
    const text = selectedText(page.rendered, selection, located.page.path);
    const stale = input.staleness === true ? await staleSourcesOf(located.page) : null;
    const meta = {
      title: located.page.title,
      path: located.page.path,
      version: located.version,
      locale: located.locale,
      url: origin + page.url,
      markdown_url: origin + page.markdownUrl,
      content_hash: hash,
      ...(stale ? { stale } : {}),
    };
    const note = stale ? staleNote(stale) : '';
    return answer(config, input, { text, hash, note, meta, selection, start, cursor });
  };
}

/** The sections a read selects and where it starts: from its cursor, its `section`, or a URL's `#fragment`. */
function selectionFor(
  input: ReadPageInput,
  asked: string[],
  cursor: ReadCursor | null,
  wanted: PageInput,
  page: SourcePage,
  rendered: RenderedPage,
): { selection: ReadSelection; start: number } {
  const subsections = input.subsections !== false;
  if (cursor) {
    if (asked.length > 0 && !sameSelection(asked, subsections, cursor)) {
      throw new KitError(
        'argument.invalid',
        'This `cursor` continues another section selection than `section` names. Pass the cursor alone (it carries its sections), or omit it to start a new read.',
      );
    }
    if (cursor.hash !== cursorHash(page.contentHash)) {
      throw new KitError(
        'content.conflict',
        `Page "${page.path}" changed since this cursor was handed out (content_hash is now ${page.contentHash}). Read it again without cursor.`,
        { details: { path: page.path, content_hash: page.contentHash } },
      );
    }
    return { selection: { sections: cursor.sections, subsections: cursor.subsections }, start: cursor.offset };
  }
  if (asked.length > 0) return { selection: { sections: asked, subsections }, start: 0 };
  const fragment = page.path === wanted.whole ? undefined : wanted.fragment;
  // A URL's #fragment that names no section still reads the page, as a browser would show it.
  const named = fragment !== undefined && selectionFinds(rendered, fragment);
  return { selection: { sections: named ? [fragment] : null, subsections }, start: 0 };
}

/** The read's answer: the whole selection when it fits `max_chars`, else the part from `start` and a cursor. */
function answer(config: ResolvedSetConfig, input: ReadPageInput, read: ReadWhole): ReadPageResult {
  const { text, hash, note, meta, selection, start, cursor } = read;
  const whole = `${note}${withContentHashLine(text, hash)}`;
  // A cursor keeps the max_chars its read began with, unless this call names another.
  const askedMax = typeof input.maxChars === 'number' ? input.maxChars : (cursor?.maxChars ?? input.maxChars);
  const maxChars = askedMax === 'budget' ? config.agents.markdown_budget : askedMax;
  // The budget is measured as `markdown.size` measures it, so a page that passes validation comes whole.
  if (!cursor && (maxChars === undefined || whole.length - note.length <= maxChars)) return { text: whole, meta };
  if (start >= text.length) {
    throw new KitError(
      'argument.invalid',
      '`cursor` points past the end of the page. Pass the cursor from the last part exactly as given.',
    );
  }
  const part = nextPart(text, start, partLimit(maxChars ?? config.agents.markdown_budget, note.length));
  const body = text.slice(part.start, part.end);
  const range = { start: part.start, end: part.end, total: text.length };
  if (part.end >= text.length) return { text: `${note}${withContentHashLine(body, hash)}`, meta: { ...meta, range } };
  const next = encodeReadCursor({
    ...selection,
    offset: part.end,
    hash: cursorHash(hash),
    maxChars: typeof askedMax === 'number' ? askedMax : null,
  });
  const what = selection.sections === null ? 'the page' : 'the sections asked for';
  const continuation =
    `> **Continued:** this part holds characters ${part.start}–${part.end} of the ${text.length} of ${what}. ` +
    `Read the rest with read_page, the same path and cursor "${next}", or GET ${meta.markdown_url}?cursor=${next}` +
    `${part.nextSection ? `. It goes on at the section "${part.nextSection}".` : '.'}`;
  return {
    text: `${note}${body}${body.endsWith('\n') ? '' : '\n'}\n${continuation}\n\ncontent_hash: ${hash}\n`,
    meta: { ...meta, range, next_cursor: next, ...(part.nextSection ? { next_section: part.nextSection } : {}) },
  };
}

/** `section` as a list of names: one string or several, trimmed, empty ones left out. */
function readSections(section: unknown): string[] {
  if (section === undefined || section === null) return [];
  const list = Array.isArray(section) ? section : [section];
  if (!list.every((name) => typeof name === 'string')) {
    throw new KitError(
      'argument.invalid',
      '`section` must be a heading text or anchor id, or a list of them, e.g. ["Retrying Jobs", "priorities"].',
    );
  }
  return [...new Set((list as string[]).map((name) => name.trim()).filter((name) => name !== ''))];
}

function checkMaxChars(maxChars: unknown): void {
  if (maxChars === undefined || maxChars === 'budget') return;
  if (typeof maxChars !== 'number' || !Number.isInteger(maxChars) || maxChars < MIN_READ_CHARS) {
    throw new KitError(
      'argument.invalid',
      `\`max_chars\` must be a whole number of at least ${MIN_READ_CHARS} (got ${JSON.stringify(maxChars)}); omit it for the set's budget (agents.markdown_budget).`,
    );
  }
}

function sameSelection(asked: string[], subsections: boolean, cursor: ReadCursor): boolean {
  return (
    cursor.sections !== null &&
    cursor.subsections === subsections &&
    cursor.sections.length === asked.length &&
    cursor.sections.every((name, index) => name === asked[index])
  );
}

/** Whether a page has the section a URL fragment names. */
function selectionFinds(rendered: RenderedPage, fragment: string): boolean {
  try {
    selectedText(rendered, { sections: [fragment], subsections: true }, '');
    return true;
  } catch {
    return false;
  }
}
