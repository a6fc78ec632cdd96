/**
 * The Vary header of every negotiated answer: pages are negotiated on Accept (HTML or the Markdown
 * twin) and compressed on Accept-Encoding. Naming both up front also keeps the compress middleware
 * from re-creating a finished response to add Vary.
 */
export const PAGE_VARY = 'Accept, Accept-Encoding';

/** One entry of an `Accept`-style header: a lower-case name (`text/html`, `gzip`) and its weight. */
export interface AcceptEntry {
  name: string;
  /** The `q` parameter: 1 when absent, 0 when it is not a number. */
  q: number;
}

/**
 * The entries of an `Accept` or `Accept-Encoding` header in the order sent, each with its q-value:
 * the one parser of these headers in the package.
 *
 * @example
 * parseAccept('text/markdown, text/html;q=0.9'); // [{ name: 'text/markdown', q: 1 }, { name: 'text/html', q: 0.9 }]
 */
export function parseAccept(header: string | undefined): AcceptEntry[] {
  if (!header) return [];
  const entries: AcceptEntry[] = [];
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    entries.push({ name: name.trim(), q: q === undefined ? 1 : Number(q.slice(2)) || 0 });
  }
  return entries;
}

/** The weight a header gives a name (the last entry naming it wins), or undefined when it names none. */
function weightOf(entries: AcceptEntry[], name: string): number | undefined {
  let weight: number | undefined;
  for (const entry of entries) if (entry.name === name) weight = entry.q;
  return weight;
}

/** True when the header names this media type, whatever its weight. */
export function namesType(accept: string | undefined, type: string): boolean {
  return parseAccept(accept).some((entry) => entry.name === type);
}

/**
 * True when the Accept header asks for Markdown at least as much as HTML (agents send
 * `Accept: text/markdown`); browsers, which never name text/markdown, get HTML.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const entries = parseAccept(accept);
  const markdown = weightOf(entries, 'text/markdown') ?? weightOf(entries, 'text/x-markdown');
  if (markdown === undefined || markdown === 0) return false;
  return markdown >= (weightOf(entries, 'text/html') ?? 0);
}

/** A browser's page request: Accept names text/html and does not prefer Markdown. */
export function wantsHtml(accept: string | undefined): boolean {
  return namesType(accept, 'text/html') && !prefersMarkdown(accept);
}

/** A JSON client: Accept names a JSON type (`application/json`, `application/x+json`) and does not lead with Markdown. */
export function wantsJson(accept: string | undefined): boolean {
  const entries = parseAccept(accept);
  return (
    entries.some((entry) => /^application\/(?:[\w.+-]*\+)?json/.test(entry.name)) &&
    entries[0]?.name !== 'text/markdown'
  );
}

/** True when an Accept-Encoding header takes gzip: named with a weight above 0, or through `*`. */
export function acceptsGzip(header: string | undefined): boolean {
  let wildcard = false;
  for (const entry of parseAccept(header)) {
    if (entry.name === 'gzip') return entry.q > 0;
    if (entry.name === '*') wildcard = entry.q > 0;
  }
  return wildcard;
}

/** True when a URL's query names part of a Markdown twin (`section`, `subsections`, `max_chars`, `cursor`). */
export function asksForMarkdownPart(url: string): boolean {
  if (!url.includes('?')) return false;
  const query = new URL(url).searchParams;
  return query.has('section') || query.has('subsections') || query.has('max_chars') || query.has('cursor');
}
