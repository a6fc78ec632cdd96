// The page-path rule every source and writer applies: what a page path may hold at all, whatever
// set it belongs to. (What a set's URLs can serve, given its versions and locales, is
// servable.ts; the syntax a URL or an author's input is cleaned to is cleanPagePath.)

/** Longest page path, in UTF-8 bytes: far below what a database index entry or a file path allows. */
export const MAX_PAGE_PATH_BYTES = 1000;
/**
 * Longest segment, in UTF-8 bytes: a file name holds 255 bytes on common file systems, and the
 * repository writer adds `.md` and a temporary suffix while it writes.
 */
export const MAX_PAGE_SEGMENT_BYTES = 200;

const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/u;
const CONTROL = /\p{Cc}/u;
const INVISIBLE = /\p{Cf}|\p{Variation_Selector}|\u034F|\u115F|\u1160|\u3164|\uFFA0|[\uFFFE\uFFFF]/u;
const ODD_SPACE = /(?! )\p{Zs}/u;
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Segments of ASCII letters, digits, `_` and `-` (with inner dots), each at most
 * {@link MAX_PAGE_SEGMENT_BYTES} long: a path the full rule below would accept, whatever else holds,
 * unless a segment is `node_modules`.
 */
const PLAIN_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199})(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199})*$/;
const DEPENDENCY_SEGMENT = /(?:^|\/)node_modules(?:\/|$)/i;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * A page path as it can be shown in a message: characters the path rule refuses (line breaks,
 * bidi controls, invisible characters) written as `\u{...}` so the message shows what is there.
 *
 * @example
 * showPagePath('a\u202Eb'); // '"a\\u{202E}b"'
 */
export function showPagePath(path: unknown): string {
  if (typeof path !== 'string') return String(path);
  const shown = path.replace(
    /[\p{Cc}\p{Cf}\p{Cs}\p{Variation_Selector}\u2028\u2029]|(?! )\p{Zs}|\u034F|\u115F|\u1160|\u3164|\uFFA0/gu,
    (char) => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );
  return `"${shown.length > 120 ? `${shown.slice(0, 100)}…` : shown}"`;
}

/**
 * Why `path` can never be a page path, in any set and through any source, or null. A page path is
 * one or more segments joined by "/" (no leading or trailing "/", no `.md`). Refused:
 * - an empty path or segment, and the segments "." and "..";
 * - a segment starting with "." (hidden files and folders: `.git`, `.env`, `.well-known`), and
 *   `node_modules` in any letter case: a repository set never reads them;
 * - backslashes, control characters (line breaks, tabs, NUL), bidi controls (U+202E and kin),
 *   invisible and format characters (zero-width spaces and joiners, word joiner, BOM, soft hyphen,
 *   variation selectors, Hangul fillers), spaces other than the ordinary one, broken UTF-16;
 * - a segment that begins or ends with a space;
 * - text not in Unicode NFC (two spellings of "é" would name two look-alike pages);
 * - a path over {@link MAX_PAGE_PATH_BYTES} or a segment over {@link MAX_PAGE_SEGMENT_BYTES} bytes
 *   of UTF-8.
 * The answer reads after "The page path ... is refused: ".
 *
 * @example
 * pagePathProblem('guides/.git/config'); // 'its segment ".git" starts with ".": ...'
 * pagePathProblem('guides/setup'); // null
 */
export function pagePathProblem(path: string): string | null {
  if (typeof path !== 'string' || path === '') return 'it is empty';
  // Nearly every path asked for (each page request checks one) is plain ASCII words: one scan.
  if (path.length <= MAX_PAGE_PATH_BYTES && PLAIN_PATH.test(path) && !DEPENDENCY_SEGMENT.test(path)) return null;
  if (LONE_SURROGATE.test(path)) return 'it holds a broken UTF-16 character (a lone surrogate)';
  const lineBreak = LINE_BREAK.exec(path);
  if (lineBreak) return `it holds a line break (${codePoint(lineBreak[0])})`;
  const control = CONTROL.exec(path);
  if (control) return `it holds a control character (${codePoint(control[0])})`;
  const bidi = BIDI_CONTROL.exec(path);
  if (bidi) {
    return `it holds a bidirectional control character (${codePoint(bidi[0])}), which shows the path in another order than it is read`;
  }
  const invisible = INVISIBLE.exec(path);
  if (invisible) return `it holds an invisible character (${codePoint(invisible[0])})`;
  const space = ODD_SPACE.exec(path);
  if (space) return `it holds a space other than the ordinary one (${codePoint(space[0])})`;
  if (path.includes('\\')) return 'it holds a backslash; segments are joined with "/"';
  if (path.normalize('NFC') !== path) {
    return 'it is not in Unicode NFC: write accented letters as one character each (e.g. "é", not "e" and a combining accent)';
  }
  if (bytes(path) > MAX_PAGE_PATH_BYTES) {
    return `it is ${bytes(path)} bytes long in UTF-8; a page path holds at most ${MAX_PAGE_PATH_BYTES}`;
  }
  if (path.startsWith('/') || path.endsWith('/')) return 'it starts or ends with "/"';
  for (const segment of path.split('/')) {
    if (segment === '') return 'it has an empty segment ("//")';
    if (segment === '.' || segment === '..') return `its segment "${segment}" names a folder by position, not a page`;
    if (segment.startsWith('.')) {
      return `its segment "${segment.slice(0, 40)}" starts with ".": hidden files and folders (.git, .env, ...) are never pages`;
    }
    if (segment.toLowerCase() === 'node_modules') return `its segment "${segment}" is a dependency folder, never pages`;
    if (segment !== segment.trim()) return `its segment "${segment.slice(0, 40)}" begins or ends with a space`;
    if (bytes(segment) > MAX_PAGE_SEGMENT_BYTES) {
      return `its segment "${segment.slice(0, 40)}…" is ${bytes(segment)} bytes long in UTF-8; a segment holds at most ${MAX_PAGE_SEGMENT_BYTES}`;
    }
  }
  return null;
}
