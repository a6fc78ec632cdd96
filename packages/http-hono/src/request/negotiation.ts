/**
 * The Vary header of every negotiated answer: pages are negotiated on Accept (HTML or the Markdown
 * twin) and compressed on Accept-Encoding. Naming both up front also keeps the compress middleware
 * from re-creating a finished response to add Vary.
 */
export const PAGE_VARY = 'Accept, Accept-Encoding';

/**
 * Visits the entries of an `Accept` or `Accept-Encoding` header in the order sent, each as a
 * lower-case name (`text/html`, `gzip`) and its q-value (1 when absent, 0 when not a number), until
 * `visit` returns true: the one parser of these headers in the package. A visitor rather than a list,
 * so the checks made on every page request stop at the entry that decides them.
 */
export function scanAccept(header: string | undefined, visit: (name: string, q: number) => boolean | undefined): void {
  if (!header) return;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (visit(name.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0) === true) return;
  }
}

/** True when the header names this media type, whatever its weight. */
export function namesType(accept: string | undefined, type: string): boolean {
  let named = false;
  scanAccept(accept, (name) => {
    named = name === type;
    return named;
  });
  return named;
}

/**
 * True when the Accept header asks for Markdown at least as much as HTML (agents send
 * `Accept: text/markdown`); browsers, which never name text/markdown, get HTML.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  let markdown: number | undefined;
  let fallback: number | undefined;
  let html = 0;
  // The last entry naming a type wins; `text/x-markdown` counts only when `text/markdown` is not named.
  scanAccept(accept, (name, q) => {
    if (name === 'text/markdown') markdown = q;
    else if (name === 'text/x-markdown') fallback = q;
    else if (name === 'text/html') html = q;
  });
  const weight = markdown ?? fallback;
  if (weight === undefined || weight === 0) return false;
  return weight >= html;
}

/** A browser's page request: Accept names text/html and does not prefer Markdown. */
export function wantsHtml(accept: string | undefined): boolean {
  return namesType(accept, 'text/html') && !prefersMarkdown(accept);
}

/** A JSON client: Accept names a JSON type (`application/json`, `application/x+json`) and does not lead with Markdown. */
export function wantsJson(accept: string | undefined): boolean {
  let first: string | undefined;
  let json = false;
  scanAccept(accept, (name) => {
    first ??= name;
    json = /^application\/(?:[\w.+-]*\+)?json/.test(name);
    return json;
  });
  return json && first !== 'text/markdown';
}

/** True when an Accept-Encoding header takes gzip: named with a weight above 0, or through `*`. */
export function acceptsGzip(header: string | undefined): boolean {
  let gzip: boolean | undefined;
  let wildcard = false;
  scanAccept(header, (name, q) => {
    if (name === 'gzip') gzip = q > 0;
    else if (name === '*') wildcard = q > 0;
    return gzip !== undefined;
  });
  return gzip ?? wildcard;
}

/** True when a URL's query names part of a Markdown twin (`section`, `subsections`, `max_chars`, `cursor`). */
export function asksForMarkdownPart(url: string): boolean {
  if (!url.includes('?')) return false;
  const query = new URL(url).searchParams;
  return query.has('section') || query.has('subsections') || query.has('max_chars') || query.has('cursor');
}
