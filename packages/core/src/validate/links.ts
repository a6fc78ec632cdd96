import { isProtocolRelative, LINK_SCHEMES } from '../manifest/links.js';
import {
  candidatePaths,
  linkBaseOf,
  parseSetUrl,
  rebaseLink,
  type UrlLayout,
  type UrlTarget,
} from '../urls/set-urls.js';

const VERSION_PLACEHOLDER = /\{\{\s*version\s*\}\}/g;
const HAS_VERSION_PLACEHOLDER = /\{\{\s*version\s*\}\}/;
const SCHEME = /^[A-Za-z][A-Za-z\d+.-]*:/;
/** An `<a href>` tag written as raw HTML, as the renderer finds them. */
const RAW_HREF = /<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;
/** Character references a browser decodes in an attribute before it reads the scheme. */
const CHARACTER_REFERENCE = /&(?:#[xX]([\da-fA-F]+)|#(\d+)|(colon|tab|newline|amp));?/gi;
const NAMED_REFERENCES: Record<string, string> = { colon: ':', tab: '\t', newline: '\n', amp: '&' };

/** Where a link written in a page points, as far as validation cares. */
export type LinkTarget =
  /** Another site (a URL with an allowed scheme), a mail address, an empty link: not checked. */
  | { kind: 'external' }
  /**
   * A scheme a page may not link to (`javascript:`, `data:`, ...), or `//` for a protocol-relative
   * link; the renderer drops the link.
   */
  | { kind: 'unsafe'; scheme: string }
  /**
   * A page of the set (or the same page when `path` is null), maybe with an anchor. `site` is the
   * site path (rebased, no query or fragment) when the link was written site-absolute.
   */
  | {
      kind: 'page';
      version: string;
      locale: string;
      paths: string[];
      anchor: string | null;
      shown: string;
      site?: string;
    }
  /**
   * A site path outside the set's prefix (rebased, without query or fragment): another set's page,
   * a route of the application, or nothing. `versioned` when it was written with `{{version}}`,
   * which only a docs link carries.
   */
  | { kind: 'site'; path: string; anchor: string | null; shown: string; versioned: boolean }
  /** A path under the set prefix that can never be a page (`/docs/a//b`, `..`). */
  | { kind: 'invalid'; shown: string };

/** The page a link is written in. */
export interface LinkOrigin {
  version: string;
  locale: string;
  /** Page path without `.md`. */
  path: string;
}

/**
 * Reads a link as written in a page the way the renderer resolves it: `{{version}}` becomes the
 * page's version, `#x` is an anchor on the same page, `/docs/{{version}}/x#y` is a page of the set
 * (its `.md` twin too), `x.md`, `./x` and `../x` are pages next to the current one. A site path
 * under the layout's `linkPrefix` is read under the set's prefix, as the renderer serves it. Other
 * site paths are `site` targets (another set, or the application); URLs with a scheme are external.
 *
 * @example
 * resolveLinkTarget('/docs/{{version}}/routing#groups', { version: '12.x', locale: 'en', path: 'index' }, layout);
 * // { kind: 'page', version: '12.x', locale: 'en', paths: ['routing', 'routing/index'], anchor: 'groups', ... }
 */
export function resolveLinkTarget(href: string, from: LinkOrigin, layout: UrlLayout): LinkTarget {
  const versioned = HAS_VERSION_PLACEHOLDER.test(href);
  const written = rebaseLink(href.trim().replace(VERSION_PLACEHOLDER, from.version), linkBaseOf(layout));
  // A raw `<a href="&#106;avascript:...">` is a script link to a browser, so decode before reading the scheme.
  const compact = decodeReferences(written).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (SCHEME.test(compact)) {
    const scheme = compact.slice(0, compact.indexOf(':')).toLowerCase();
    return LINK_SCHEMES.has(scheme) ? { kind: 'external' } : { kind: 'unsafe', scheme };
  }
  // The renderer drops a `//host` link as it drops a script link (one link policy, `isSafeLink`).
  if (isProtocolRelative(written)) return { kind: 'unsafe', scheme: '//' };
  if (written === '') return { kind: 'external' };

  const hashAt = written.indexOf('#');
  const anchorText = hashAt === -1 ? null : written.slice(hashAt + 1);
  const anchor = anchorText === null || anchorText === '' ? null : safeDecode(anchorText);
  const beforeHash = hashAt === -1 ? written : written.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const pathPart = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);

  if (pathPart === '') {
    return { kind: 'page', version: from.version, locale: from.locale, paths: [from.path], anchor, shown: written };
  }
  if (pathPart.startsWith('/')) {
    const trimmed = pathPart.length > 1 ? pathPart.replace(/\/+$/, '') : pathPart;
    const parsed = parseSetUrl(trimmed === '' ? '/' : trimmed, layout);
    if (parsed.kind === 'outside') return { kind: 'site', path: pathPart, anchor, shown: written, versioned };
    if (parsed.kind !== 'page') return { kind: 'invalid', shown: written };
    return {
      kind: 'page',
      version: parsed.version,
      locale: parsed.locale,
      paths: candidatePaths(parsed),
      anchor,
      shown: written,
      site: pathPart,
    };
  }
  const path = relativePagePath(from.path, safeDecode(pathPart));
  if (path === null) return { kind: 'invalid', shown: written };
  const isLanding = path === 'index';
  return {
    kind: 'page',
    version: from.version,
    locale: from.locale,
    paths: isLanding ? ['index', layout.landing] : candidatePaths({ path, root: false }),
    anchor,
    shown: written,
  };
}

/** A page path from a link relative to the page's folder; null when it climbs out of the set. */
function relativePagePath(fromPage: string, target: string): string | null {
  const segments = fromPage.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(part);
  }
  const joined = segments.join('/').replace(/\.md$/i, '');
  if (joined === '' || joined === 'index') return 'index';
  return joined.replace(/\/index$/, '');
}

function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(CHARACTER_REFERENCE, (whole, hex?: string, decimal?: string, named?: string) => {
    if (named !== undefined) return NAMED_REFERENCES[named.toLowerCase()] ?? whole;
    const code = Number.parseInt(hex ?? decimal ?? '', hex !== undefined ? 16 : 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * Whether the link `href` of a page was written as a raw HTML `<a href>` tag rather than as a
 * Markdown link: the renderer serves such a tag as written where raw HTML is allowed, while it
 * leaves an unsafe Markdown link out. `line` is the 0-based body line the link was reported on; a
 * tag there, or further down the same block (an HTML block reports its first line), counts.
 *
 * @example
 * isRawHtmlLink('Text <a href="javascript:x()">run</a>', 'javascript:x()', 0); // true
 */
export function isRawHtmlLink(body: string, href: string, line?: number): boolean {
  const tags = rawHtmlTagsOf(body);
  const lines = tags.byHref.get(href);
  if (!lines) return false;
  if (line === undefined) return true;
  const from = Math.max(0, line);
  for (const tagLine of lines) {
    if (tagLine < from) continue;
    // No blank line from the reported line down to the tag: they are one block.
    if (tags.blankBefore[tagLine + 1]! - tags.blankBefore[from]! === 0) return true;
  }
  return false;
}

/** The `<a href>` tags of a page body: the 0-based lines of each href, and blank lines counted up to each line. */
interface RawHtmlTags {
  body: string;
  byHref: Map<string, number[]>;
  /** `blankBefore[i]`: how many of lines `0 .. i - 1` are blank. */
  blankBefore: Uint32Array;
}

// Validation asks about every link of a page in turn, so the last page's tags are kept: one scan
// of the body per page instead of one per link (a long page has hundreds).
let lastTags: RawHtmlTags | null = null;

function rawHtmlTagsOf(body: string): RawHtmlTags {
  if (lastTags?.body === body) return lastTags;
  const lines = body.split('\n');
  const blankBefore = new Uint32Array(lines.length + 1);
  for (let index = 0; index < lines.length; index++) {
    blankBefore[index + 1] = blankBefore[index]! + (lines[index]!.trim() === '' ? 1 : 0);
  }
  const byHref = new Map<string, number[]>();
  let tagLine = 0;
  let scanned = 0;
  for (const match of body.matchAll(RAW_HREF)) {
    for (let at = body.indexOf('\n', scanned); at !== -1 && at < match.index; at = body.indexOf('\n', at + 1)) {
      tagLine += 1;
    }
    scanned = match.index;
    const href = (match[1] ?? match[2] ?? match[3])!;
    const found = byHref.get(href);
    if (found) found.push(tagLine);
    else byHref.set(href, [tagLine]);
  }
  lastTags = { body, byHref, blankBefore };
  return lastTags;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Whether `anchor` names one of `anchors`. Ids match exactly; a link written with other letter
 * case or spaces still reaches the anchor the way a browser's fallback finds it, so it matches too.
 */
export function hasAnchor(anchors: ReadonlySet<string>, anchor: string): boolean {
  if (anchors.has(anchor)) return true;
  const loose = anchor.trim().toLowerCase().replace(/\s+/g, '-');
  for (const candidate of anchors) if (candidate.toLowerCase() === loose) return true;
  return false;
}

export type { UrlTarget };
