import { porterStem } from './porter-stemmer.js';

/** lunr's English stop words: dropped from the index and from queries (unless a query has nothing else). */
const STOP_WORDS = new Set(
  (
    'a able about across after all almost also am among an and any are as at be because been but by can cannot ' +
    'could dear did do does either else ever every for from get got had has have he her hers him his how however i ' +
    'if in into is it its just least let like likely may me might most must my neither no nor not of off often on ' +
    'only or other our own rather said say says she should since so some than that the their them then there these ' +
    'they this tis to too twas us wants was we were what when where which while who whom why will with would yet you your'
  ).split(' '),
);

/** Longest word kept: longer runs are hashes, base64 or minified code, never searched for. */
const MAX_WORD_LENGTH = 40;

/** One word of a text: where it is, how it was written (normalized) and the term it indexes as. */
export interface Token {
  /** Lowercased, accents and marks removed. */
  surface: string;
  /** The indexed term: the Porter stem for Latin words, the surface otherwise. */
  term: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const LATIN_WORD = /^[a-z]+$/;
const ASCII = /^[\x00-\x7f]*$/;
const STEM_CACHE_LIMIT = 50_000;
const stemCache = new Map<string, string>();
const CAMEL_PART = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;

/** Lowercase, drop accents and combining marks (Arabic harakat too) so spelling variants meet. */
export function normalizeWord(word: string): string {
  // Plain ASCII needs no decomposition; most words of English docs take this path.
  if (ASCII.test(word)) return word.toLowerCase();
  return word
    .normalize('NFKD')
    .replace(/[\p{M}\s]/gu, '')
    .toLowerCase();
}

/**
 * The term a normalized word indexes as. Latin words are Porter-stemmed and lose a final `e`
 * (`queue`/`queued` both become `queu`, which plain Porter keeps apart); other scripts stay whole.
 *
 * @example
 * termOf('routing'); // 'rout'
 */
export function termOf(surface: string): string {
  const cached = stemCache.get(surface);
  if (cached !== undefined) return cached;
  let term = surface;
  if (LATIN_WORD.test(surface)) {
    const stem = porterStem(surface);
    term = stem.length > 3 && stem.endsWith('e') ? stem.slice(0, -1) : stem;
  }
  // Stemming is the costliest step of indexing and a corpus repeats its words: remember them.
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(surface, term);
  return term;
}

export function isStopWord(surface: string): boolean {
  return STOP_WORDS.has(surface);
}

function keep(surface: string): boolean {
  if (surface.length === 0 || surface.length > MAX_WORD_LENGTH) return false;
  if (surface.length === 1 && /[a-z0-9]/.test(surface)) return false;
  return !STOP_WORDS.has(surface);
}

/**
 * Splits text into indexable tokens with their offsets in `text`. A camelCase identifier yields
 * its parts and the whole word (`hasMany` → `has`, `many`, `hasmany`), so both prose and code
 * spellings match.
 */
export function tokenize(text: string, options: { keepStopWords?: boolean } = {}): Token[] {
  const tokens: Token[] = [];
  const accept = options.keepStopWords
    ? (surface: string) => surface.length > 0 && surface.length <= MAX_WORD_LENGTH
    : keep;
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    const start = match.index;
    const surface = normalizeWord(raw);
    if (accept(surface)) tokens.push({ surface, term: termOf(surface), start, end: start + raw.length });
    if (/[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]/.test(raw)) {
      for (const part of raw.matchAll(CAMEL_PART)) {
        const partSurface = normalizeWord(part[0]);
        if (partSurface !== surface && accept(partSurface)) {
          const partStart = start + part.index;
          tokens.push({
            surface: partSurface,
            term: termOf(partSurface),
            start: partStart,
            end: partStart + part[0].length,
          });
        }
      }
    }
  }
  return tokens;
}

/** Longest query read, in characters: enough for any question, bounded for a 10 KB paste. */
export const MAX_QUERY_CHARS = 1000;
/** Most distinct words a query searches for. */
export const MAX_QUERY_TERMS = 24;
/** Most camelCase parts kept per query word, so a pasted identifier cannot multiply the terms searched. */
const MAX_WORD_PARTS = 8;

/** One distinct word of a query. */
export interface QueryWord {
  surface: string;
  term: string;
  /** The last word of a query typed without a trailing space: matched as a prefix too. */
  partial: boolean;
  /**
   * Terms of the parts of a camelCase word (`GitHub` → `git`, `hub`): alternatives of the word,
   * not words of their own, so one identifier weighs as one word.
   */
  parts: string[];
}

/**
 * The distinct words a query searches for. Syntax characters of other engines (`title:foo^2 +-~*`)
 * are plain punctuation here; a query of stop words only keeps them rather than finding nothing.
 */
export function analyzeQuery(query: string): QueryWord[] {
  const text = query.slice(0, MAX_QUERY_CHARS);
  let tokens = tokenize(text);
  if (tokens.length === 0) tokens = tokenize(text, { keepStopWords: true });
  const words: QueryWord[] = [];
  const seen = new Set<string>();
  const endsOpen = /[\p{L}\p{N}]$/u.test(text);
  const lastEnd = tokens.reduce((max, token) => Math.max(max, token.end), 0);
  let whole: { token: Token; word: QueryWord | undefined } | undefined;
  for (const token of tokens) {
    // `tokenize` yields a camelCase word whole, then its parts within the same span.
    const isPart = whole !== undefined && token.start >= whole.token.start && token.end <= whole.token.end;
    if (isPart) {
      const parts = whole?.word?.parts;
      if (parts && parts.length < MAX_WORD_PARTS && !seen.has(token.term) && !parts.includes(token.term))
        parts.push(token.term);
      continue;
    }
    whole = { token, word: undefined };
    if (seen.has(token.term)) continue;
    if (words.length >= MAX_QUERY_TERMS) break;
    seen.add(token.term);
    whole.word = { surface: token.surface, term: token.term, partial: endsOpen && token.end === lastEnd, parts: [] };
    words.push(whole.word);
  }
  return words;
}
