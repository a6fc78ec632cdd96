// Which files of a set may be read by name from outside (snippet includes, served static files),
// and how a served file is typed. One rule for every surface: the snippet includes of
// `@kit/render` and the static files of every source use it.

const SECRET_FOLDERS = new Set(['config', 'storage', 'vendor', 'node_modules']);
/**
 * Names refused in any path segment, matched case-insensitively. Patterns are loose on purpose
 * (`server.key.bak`, `id_rsa.old`, `env.production`): a backup or renamed copy of a secret is
 * still a secret, and refusing a harmless file costs an author one rename.
 */
const SECRET_NAMES: readonly RegExp[] = [
  // The project's own configuration (the framework's config/ folder maps to kit.config.* at the root).
  /^kit\.config(?:\.|$)/,
  // Environment files: `.env.production`, `app.env`, `env.production`, `env`.
  /\.env/,
  /^env(?![a-z])/,
  // Keys, certificates, keystores and encrypted vaults, with any suffix after the extension.
  /\.(?:pem|key|crt|cer|cert|der|p7b|p7c|p8|p12|pfx|jks|keystore|truststore|gpg|pgp|asc|kdbx|ppk|csr|ovpn|tfvars|tfstate|kubeconfig)(?![a-z])/,
  /^id_(?:rsa|dsa|ecdsa|ed25519)/,
  /private[-_.]?key/,
  /^(?:authorized_keys|known_hosts|kubeconfig|auth\.json|wp-config\.php|database\.ya?ml)/,
  /credential/,
  /secret/,
  /service[-_]?account.*\.json/,
  // Password and token stores of common tools, dotted or not (`.netrc`, `netrc`, `_netrc`).
  /htpasswd|htdigest/,
  /^_?(?:netrc|npmrc|pypirc|pgpass)(?![a-z])/,
  /^(?:passwd|shadow|passwords?)(?:\.|$)/,
  // Local databases hold user data.
  /\.(?:sqlite3?|db)$/,
];

/**
 * True when one path segment may hold secrets and is never read by name from outside: dotfiles and
 * dot folders, the folders `config/`, `storage/`, `vendor/`, `node_modules/`, a drive letter, and any
 * name that looks like it holds secrets: `kit.config.*`, environment files, keys and certificates
 * (with any suffix), credentials, secrets, service-account JSON, password stores, Terraform state,
 * local databases.
 *
 * @example
 * isSecretSegment('.env'); // true
 * isSecretSegment('server.key.bak'); // true
 * isSecretSegment('diagram.png'); // false
 */
export function isSecretSegment(segment: string): boolean {
  const lower = segment.toLowerCase();
  return (
    segment.startsWith('.') ||
    SECRET_FOLDERS.has(lower) ||
    /^[a-z]:$/i.test(segment) ||
    SECRET_NAMES.some((pattern) => pattern.test(lower))
  );
}

/** Files of a set folder that are its structure, never served as static files. */
const STRUCTURE_FILES = new Set(['kit.json', 'navigation.json']);

/**
 * True when a set may serve the file `name` (relative to the set folder, `/`-separated) as a static
 * file: a plain relative path without `..`, `.`, empty segments, backslashes or control
 * characters; no Markdown source (`.md`: pages are served rendered, and a draft or private page's
 * source must not leak as a file); not the manifest or a navigation file; no segment that
 * {@link isSecretSegment} refuses (dotfiles, keys, environment files, ...).
 *
 * @example
 * isServableFileName('13.x/images/flow.png'); // true
 * isServableFileName('guides/setup.md'); // false
 * isServableFileName('../secrets.txt'); // false
 */
export function isServableFileName(name: string): boolean {
  if (typeof name !== 'string' || name === '' || name.length > 1024) return false;
  if (/[\u0000-\u001f\u007f\\]/.test(name) || name.startsWith('/')) return false;
  const segments = name.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return false;
  const last = segments[segments.length - 1]!;
  if (/\.md$/i.test(last) || STRUCTURE_FILES.has(last.toLowerCase())) return false;
  return !segments.some(isSecretSegment);
}

/**
 * True when a link's path names a file rather than a page: its last segment has an extension
 * (`diagram.png`, `guide.pdf`) other than `.md`. A page path may still look like one (`v1.2`), so a
 * caller that can look for a page first does.
 *
 * @example
 * looksLikeFile('images/flow.png'); // true
 * looksLikeFile('guides/setup.md'); // false
 */
export function looksLikeFile(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]{1,12}$/.test(last) && !/\.md$/i.test(last);
}

/** Content types by extension; a browser may show these inline. Anything else is a download. */
const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  css: 'text/css; charset=utf-8',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
};

/** Extensions whose type a browser runs as a document or script: served as downloads, never inline. */
const DOWNLOAD_ONLY = new Set(['html', 'htm', 'xhtml', 'js', 'mjs', 'cjs', 'wasm']);

/**
 * How a static file is served: its content type, and whether it goes out as a download
 * (`Content-Disposition: attachment`, type `application/octet-stream`) because its type is unknown
 * or would run in the site's origin (HTML, scripts). SVG is served inline; the server adds a
 * restrictive Content-Security-Policy, since SVG can carry script.
 *
 * @example
 * fileContentType('images/flow.svg'); // { type: 'image/svg+xml', download: false }
 * fileContentType('setup.exe'); // { type: 'application/octet-stream', download: true }
 */
export function fileContentType(name: string): { type: string; download: boolean } {
  const type = inlineFileType(name);
  return type ? { type, download: false } : { type: 'application/octet-stream', download: true };
}

/**
 * The content type a file is served inline with, by its extension, or null when it goes out as a
 * download (an unknown type, or one a browser would run: HTML, scripts, WebAssembly).
 *
 * @example
 * inlineFileType('images/flow.PNG'); // 'image/png'
 * inlineFileType('setup.exe'); // null
 */
export function inlineFileType(name: string): string | null {
  const extension = fileExtension(name);
  return (!DOWNLOAD_ONLY.has(extension) && CONTENT_TYPES[extension]) || null;
}

/** The lower-case extension of a file name's last segment, without the dot; '' when it has none. */
export function fileExtension(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot === -1 ? '' : last.slice(dot + 1).toLowerCase();
}
