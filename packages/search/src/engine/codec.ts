import { termOf } from '../text/analyze.js';
import type { EngineIndex, EnginePage, EngineSection, FieldPostings } from './types.js';

/**
 * Compact text encoding of unsigned integers: base-32 digits, most significant first, where the
 * last digit of each number comes from a second alphabet. Numbers need no separator, small ones
 * take one character, and the text stays JSON-safe and gzips well.
 */
const MORE = 'abcdefghijklmnopqrstuvwxyz6789-_';
const LAST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const DIGIT = new Int8Array(128).fill(-1);
const IS_LAST = new Uint8Array(128);
for (let i = 0; i < 32; i++) {
  DIGIT[MORE.charCodeAt(i)] = i;
  DIGIT[LAST.charCodeAt(i)] = i;
  IS_LAST[LAST.charCodeAt(i)] = 1;
}

export function encodeNumbers(values: Iterable<number>): string {
  let out = '';
  for (let value of values) {
    let digits = LAST[value % 32]!;
    value = Math.floor(value / 32);
    while (value > 0) {
      digits = MORE[value % 32]! + digits;
      value = Math.floor(value / 32);
    }
    out += digits;
  }
  return out;
}

export function decodeNumbers(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? DIGIT[code]! : -1;
    if (digit < 0) throw new Error(`Not a client search index: unexpected character at ${i}.`);
    value = value * 32 + digit;
    if (IS_LAST[code]) {
      values.push(value);
      value = 0;
    }
  }
  return values;
}

/** Identifies the format; bump when the layout changes so an old cached index is refused. */
export const CLIENT_INDEX_FORMAT = 'kit-search/1';

/** The JSON a client index is. */
export interface SerializedIndex {
  format: typeof CLIENT_INDEX_FORMAT;
  /** `[path, title, description, markdownUrl]` per page. */
  pages: Array<[string, string, string | null, string]>;
  /** Per page: its section count. */
  pageSections: string;
  /** Per section: `[heading, url suffix after the page URL (0 when it is the heading's slug), lead text]`. */
  sections: Array<[string, string | 0, string]>;
  /** Page URL (sections' URL without `#anchor`) per page. */
  pageUrls: string[];
  bodyLen: string;
  headLen: string;
  titleLen: string;
  descLen: string;
  /** Sorted word forms, front-coded: `shared-prefix-length` digits then the rest, joined by spaces. */
  surfaces: string;
  /** Per field, one posting list per term (terms sorted), joined by spaces. */
  body: string;
  head: string;
  title: string;
  desc: string;
}

function encodePostings(postings: FieldPostings, termCount: number): string {
  const lists: string[] = [];
  for (let term = 0; term < termCount; term++) {
    const ids = postings.ids[term];
    const tfs = postings.tfs[term];
    if (!ids || !tfs || ids.length === 0) {
      lists.push('');
      continue;
    }
    const numbers: number[] = [];
    let previous = 0;
    for (let i = 0; i < ids.length; i++) {
      const gap = ids[i]! - previous;
      previous = ids[i]!;
      // The low bit says whether a count other than 1 follows: most counts are 1.
      const tf = tfs[i]!;
      numbers.push(gap * 2 + (tf === 1 ? 0 : 1));
      if (tf !== 1) numbers.push(tf - 2);
    }
    lists.push(encodeNumbers(numbers));
  }
  return lists.join(' ');
}

function decodePostings(text: string, termCount: number): FieldPostings {
  // An index without terms joins no lists at all, which `split` would read as one empty list.
  const lists = termCount === 0 && text === '' ? [] : text.split(' ');
  if (lists.length !== termCount) throw new Error('Not a client search index: posting lists do not match terms.');
  const ids: Uint32Array[] = new Array(termCount);
  const tfs: Uint16Array[] = new Array(termCount);
  for (let term = 0; term < termCount; term++) {
    const numbers = decodeNumbers(lists[term]!);
    const termIds: number[] = [];
    const termTfs: number[] = [];
    let previous = 0;
    for (let i = 0; i < numbers.length; i++) {
      const value = numbers[i]!;
      previous += Math.floor(value / 2);
      termIds.push(previous);
      termTfs.push(value % 2 === 1 ? numbers[++i]! + 2 : 1);
    }
    ids[term] = Uint32Array.from(termIds);
    tfs[term] = Uint16Array.from(termTfs);
  }
  return { ids, tfs };
}

function frontCode(sorted: string[]): string {
  let previous = '';
  const parts: string[] = [];
  for (const word of sorted) {
    let shared = 0;
    while (shared < previous.length && shared < word.length && previous[shared] === word[shared] && shared < 31)
      shared++;
    parts.push(LAST[shared]! + word.slice(shared));
    previous = word;
  }
  return parts.join(' ');
}

function frontDecode(text: string): string[] {
  if (text === '') return [];
  let previous = '';
  return text.split(' ').map((part) => {
    const shared = DIGIT[part.charCodeAt(0)]!;
    previous = previous.slice(0, shared) + part.slice(1);
    return previous;
  });
}

/** The anchor a heading gets by default (GitHub's slug rule); stored anchors that equal it are left out. */
function derivedSuffix(heading: string): string {
  if (heading === '') return '';
  return (
    '#' +
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-')
  );
}

function pageUrlOf(sectionUrl: string): string {
  const hash = sectionUrl.indexOf('#');
  return hash === -1 ? sectionUrl : sectionUrl.slice(0, hash);
}

/**
 * Serializes an engine index for the browser. Section texts are cut to `leadChars` characters:
 * ranking never reads them (it reads the postings), only snippets do.
 */
export function serializeIndex(index: EngineIndex, leadChars: number): SerializedIndex {
  const pageUrls = index.pages.map((_, page) => pageUrlOf(index.sections[index.pageStart[page]!]?.url ?? ''));
  const sections = index.sections.map((section): [string, string | 0, string] => {
    const base = pageUrls[section.page]!;
    const written = section.url.startsWith(base) ? section.url.slice(base.length) : section.url;
    const suffix = written === derivedSuffix(section.heading) ? 0 : written;
    const text = section.text.replace(/\s+/g, ' ').trim();
    let lead = text.slice(0, leadChars);
    if (lead.length < text.length) {
      const space = lead.lastIndexOf(' ');
      if (space > leadChars / 2) lead = lead.slice(0, space);
    }
    return [section.heading, suffix, lead];
  });
  const pageSections: number[] = [];
  for (let page = 0; page < index.pages.length; page++)
    pageSections.push(index.pageStart[page + 1]! - index.pageStart[page]!);
  const termCount = index.terms.length;
  return {
    format: CLIENT_INDEX_FORMAT,
    pages: index.pages.map((page) => [page.path, page.title, page.description, page.markdownUrl]),
    pageSections: encodeNumbers(pageSections),
    sections,
    pageUrls,
    bodyLen: encodeNumbers(index.bodyLen),
    headLen: encodeNumbers(index.headLen),
    titleLen: encodeNumbers(index.titleLen),
    descLen: encodeNumbers(index.descLen),
    surfaces: frontCode(index.surfaces),
    body: encodePostings(index.body, termCount),
    head: encodePostings(index.head, termCount),
    title: encodePostings(index.title, termCount),
    desc: encodePostings(index.desc, termCount),
  };
}

/** Rebuilds an engine index from its serialized form. Terms are re-derived from the word forms. */
export function deserializeIndex(data: SerializedIndex): EngineIndex {
  if (!data || data.format !== CLIENT_INDEX_FORMAT) {
    throw new Error(
      `Not a client search index of format ${CLIENT_INDEX_FORMAT}; rebuild it with the same @kit/search.`,
    );
  }
  const surfaces = frontDecode(data.surfaces);
  const terms = [...new Set(surfaces.map(termOf))].sort();
  const termId = new Map<string, number>();
  for (const [id, term] of terms.entries()) termId.set(term, id);
  const surfaceTerm = Uint32Array.from(surfaces, (surface) => termId.get(termOf(surface))!);
  const pages: EnginePage[] = data.pages.map(([path, title, description, markdownUrl]) => ({
    path,
    title,
    description,
    markdownUrl,
  }));
  const counts = decodeNumbers(data.pageSections);
  const pageStart = new Uint32Array(pages.length + 1);
  const sectionPage = new Uint32Array(data.sections.length);
  let at = 0;
  counts.forEach((count, page) => {
    pageStart[page] = at;
    sectionPage.fill(page, at, at + count);
    at += count;
  });
  pageStart[pages.length] = at;
  const sections: EngineSection[] = data.sections.map(([heading, suffix, text], id) => {
    const page = sectionPage[id]!;
    return { page, heading, url: data.pageUrls[page] + (suffix === 0 ? derivedSuffix(heading) : suffix), text };
  });
  return {
    pages,
    sections,
    pageStart,
    sectionPage,
    bodyLen: Uint32Array.from(decodeNumbers(data.bodyLen)),
    headLen: Uint32Array.from(decodeNumbers(data.headLen)),
    titleLen: Uint32Array.from(decodeNumbers(data.titleLen)),
    descLen: Uint32Array.from(decodeNumbers(data.descLen)),
    terms,
    termId,
    surfaces,
    surfaceTerm,
    body: decodePostings(data.body, terms.length),
    head: decodePostings(data.head, terms.length),
    title: decodePostings(data.title, terms.length),
    desc: decodePostings(data.desc, terms.length),
  };
}
