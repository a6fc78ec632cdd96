// What may be added to a set as a file (an image, a PDF, a stylesheet): one rule for every door
// that adds one (the `write_asset` author tool, `kit assets add`, an import into a database set).
// The name must be one the file route serves (`isServableFileName`), of a type it serves inline;
// the bytes must be what the name says, within the size limit, free of script where a browser
// would run it (SVG, XML), and a text file must not add a credential.

import { addedSecret, describeFinding } from '../authoring/secrets.js';
import { KitError } from '../errors/kit-error.js';
import { fileExtension, inlineFileType, isSecretSegment, isServableFileName } from './file-names.js';

/** The largest file a set accepts through the author tools, the CLI or an import: 10 MiB. */
export const MAX_ASSET_BYTES = 10 * 1024 * 1024;

/** Which rule refused a file: its name, its type (bytes that are not what the name says), its size, active content, a secret. */
export type AssetRule = 'asset.name' | 'asset.type' | 'asset.size' | 'asset.content' | 'asset.secret';

/** Why a file may not be added, in words that name the fix. */
export interface AssetRefusal {
  rule: AssetRule;
  message: string;
}

/** A file about to be added to a set. */
export interface AssetCandidate {
  /** Name relative to the set folder (`13.x/images/flow.png`, `brand/logo.svg`). */
  name: string;
  bytes: Uint8Array;
  /** The media type the sender claimed (a data URL's, an upload's), checked against the name's. */
  declaredType?: string | null;
  /** The bytes the set holds under that name now: a secret already there is not this change's. */
  previous?: Uint8Array | null;
}

/** What a file that passes the rules is served as. */
export interface AssetVerdict {
  contentType: string;
  /** True for the text types (SVG, XML, JSON, CSS, CSV, plain text), which were scanned for secrets. */
  text: boolean;
}

type Bytes = Uint8Array;

const at = (bytes: Bytes, offset: number, ...values: number[]) =>
  values.every((value, index) => bytes[offset + index] === value);
const ascii = (bytes: Bytes, offset: number, text: string) =>
  at(bytes, offset, ...Array.from(text, (char) => char.charCodeAt(0)));

/** ISO base media (MP4, AVIF): an `ftyp` box whose major or compatible brands include one of `brands`. */
function hasBrand(bytes: Bytes, brands: readonly string[]): boolean {
  if (!ascii(bytes, 4, 'ftyp')) return false;
  const size = Math.min(
    ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0,
    bytes.length,
    256,
  );
  for (let offset = 8; offset + 4 <= size; offset += offset === 8 ? 8 : 4) {
    const brand = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    if (brands.includes(brand)) return true;
  }
  return false;
}

const font = (bytes: Bytes) =>
  at(bytes, 0, 0, 1, 0, 0) || ascii(bytes, 0, 'OTTO') || ascii(bytes, 0, 'true') || ascii(bytes, 0, 'ttcf');

/** Binary types by extension: what the bytes must start with. */
const BINARY: Record<string, { label: string; matches: (bytes: Bytes) => boolean }> = {
  png: { label: 'a PNG image', matches: (b) => at(b, 0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) },
  jpg: { label: 'a JPEG image', matches: (b) => at(b, 0, 0xff, 0xd8, 0xff) },
  jpeg: { label: 'a JPEG image', matches: (b) => at(b, 0, 0xff, 0xd8, 0xff) },
  gif: { label: 'a GIF image', matches: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
  webp: { label: 'a WebP image', matches: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  avif: { label: 'an AVIF image', matches: (b) => hasBrand(b, ['avif', 'avis']) },
  ico: { label: 'an icon', matches: (b) => at(b, 0, 0, 0, 1, 0) },
  bmp: { label: 'a BMP image', matches: (b) => ascii(b, 0, 'BM') },
  pdf: {
    label: 'a PDF document',
    matches: (b) => String.fromCharCode(...b.subarray(0, 1024)).includes('%PDF-'),
  },
  mp4: { label: 'an MP4 video', matches: (b) => ascii(b, 4, 'ftyp') },
  webm: { label: 'a WebM video', matches: (b) => at(b, 0, 0x1a, 0x45, 0xdf, 0xa3) },
  mp3: {
    label: 'an MP3 file',
    matches: (b) => ascii(b, 0, 'ID3') || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0),
  },
  ogg: { label: 'an Ogg file', matches: (b) => ascii(b, 0, 'OggS') },
  wav: { label: 'a WAV file', matches: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE') },
  woff: { label: 'a WOFF font', matches: (b) => ascii(b, 0, 'wOFF') },
  woff2: { label: 'a WOFF2 font', matches: (b) => ascii(b, 0, 'wOF2') },
  ttf: { label: 'a TrueType font', matches: font },
  otf: { label: 'an OpenType font', matches: font },
  zip: {
    label: 'a ZIP archive',
    matches: (b) => ascii(b, 0, 'PK') && (at(b, 2, 3, 4) || at(b, 2, 5, 6) || at(b, 2, 7, 8)),
  },
  gz: { label: 'a gzip archive', matches: (b) => at(b, 0, 0x1f, 0x8b) },
  tgz: { label: 'a gzip archive', matches: (b) => at(b, 0, 0x1f, 0x8b) },
};

/** Text types by extension: UTF-8 without NUL, scanned for secrets; markup is scanned for script. */
const TEXT: Record<string, { label: string; markup?: boolean; json?: boolean }> = {
  svg: { label: 'an SVG drawing', markup: true },
  xml: { label: 'an XML file', markup: true },
  json: { label: 'a JSON file', json: true },
  css: { label: 'a stylesheet' },
  csv: { label: 'a CSV file' },
  txt: { label: 'a text file' },
};

/** True for a name of a text type (SVG, XML, JSON, CSS, CSV, plain text): scanned for secrets, its previous copy read to compare. */
export function isTextAssetName(name: string): boolean {
  return fileExtension(name) in TEXT;
}

/** The extensions a set accepts as files, for messages and docs. */
export const ASSET_EXTENSIONS: readonly string[] = [...Object.keys(BINARY), ...Object.keys(TEXT)].sort();

/** Other spellings of a media type a sender may declare for the same files. */
const TYPE_ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/vnd.microsoft.icon': 'image/x-icon',
  'image/x-ms-bmp': 'image/bmp',
  'text/xml': 'application/xml',
  'application/x-gzip': 'application/gzip',
  'application/x-zip-compressed': 'application/zip',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'application/font-woff': 'font/woff',
  'application/x-font-ttf': 'font/ttf',
  'application/x-font-otf': 'font/otf',
};

function baseType(type: string): string {
  const base = type.split(';')[0]!.trim().toLowerCase();
  return TYPE_ALIASES[base] ?? base;
}

/**
 * Why a file may not be added to a set, or null when it may. Checked in this order: the name (a
 * path the file route serves: relative, no `..`, no dotfile or secret-looking segment, not Markdown
 * or the manifest or a navigation file; an extension of {@link ASSET_EXTENSIONS}), the size (at most
 * {@link MAX_ASSET_BYTES}, not empty), the type (a declared media type must be the name's; the bytes
 * must be what the extension says: a `.png` must start as a PNG does, a text type must be UTF-8),
 * active content (SVG and XML holding script, event handlers, `javascript:` URLs, embedded HTML or
 * entity declarations are refused, not cleaned), and secrets (a text file may not add a credential
 * the set's copy did not hold).
 *
 * @example
 * assetRefusal({ name: 'images/x.svg', bytes: encode('<svg onload="alert(1)"/>') })?.rule; // 'asset.content'
 */
export function assetRefusal(candidate: AssetCandidate): AssetRefusal | null {
  const { name, bytes } = candidate;
  const named = assetNameRefusal(name);
  if (named) return named;
  const extension = fileExtension(name);
  const type = inlineFileType(name)!;
  if (bytes.byteLength > MAX_ASSET_BYTES) {
    return refusal(
      'asset.size',
      `The file "${name}" is ${bytes.byteLength} bytes; files are at most ${MAX_ASSET_BYTES} bytes (10 MiB). Compress or resize it, or link a larger file from elsewhere.`,
    );
  }
  if (bytes.byteLength === 0) return refusal('asset.size', `The file "${name}" is empty. Send its bytes.`);
  if (candidate.declaredType && baseType(candidate.declaredType) !== 'application/octet-stream') {
    if (baseType(candidate.declaredType) !== baseType(type)) {
      return refusal(
        'asset.type',
        `The content is declared as ${baseType(candidate.declaredType)}, but the name "${name}" says ${baseType(type)} (.${extension}). Give the file the extension of what it is, or send the right file.`,
      );
    }
  }
  const binary = BINARY[extension];
  if (binary) {
    if (binary.matches(bytes)) return null;
    return refusal(
      'asset.type',
      `The bytes of "${name}" are not ${binary.label}${looksLikeText(bytes) ? ' (they look like text or markup)' : ''}. Send the file the name says, or name it after what it is.`,
    );
  }
  return textRefusal(candidate, TEXT[extension]!);
}

/**
 * {@link assetRefusal} as a check: the content type the file is served as, or a `KitError`
 * (`argument.invalid`, `details.rule` the rule) naming what is wrong and the fix.
 */
export function checkAsset(candidate: AssetCandidate): AssetVerdict {
  const refused = assetRefusal(candidate);
  if (refused) throw new KitError('argument.invalid', refused.message, { details: { rule: refused.rule } });
  return { contentType: inlineFileType(candidate.name)!, text: isTextAssetName(candidate.name) };
}

function refusal(rule: AssetRule, message: string): AssetRefusal {
  return { rule, message };
}

/**
 * Why `name` may not name a file of a set, or null: the name part of {@link assetRefusal} (a path
 * the file route serves, of a type it serves inline), for a door that removes a file.
 */
export function assetNameRefusal(name: string): AssetRefusal | null {
  if (typeof name !== 'string' || name.trim() === '') {
    return refusal('asset.name', 'Name the file: a path such as "images/flow.png".');
  }
  if (!isServableFileName(name)) {
    const segments = name.split('/');
    const why = /[\\\u0000-\u001f\u007f]/.test(name)
      ? 'it holds a backslash or a control character'
      : name.startsWith('/') || segments.some((segment) => segment === '' || segment === '.' || segment === '..')
        ? 'it is not a plain relative path (no "..", ".", empty segments or leading "/")'
        : /\.md$/i.test(name)
          ? 'Markdown files are pages: write them with write_page'
          : /(^|\/)(kit|navigation)\.json$/i.test(name)
            ? 'the manifest and navigation files are changed with update_manifest and update_navigation'
            : segments.some(isSecretSegment)
              ? 'a segment looks like it holds secrets (dotfiles, keys, certificates, environment files, credentials, config/, vendor/ and the like are never served)'
              : 'it is not a name the site serves';
    return refusal('asset.name', `The file name "${name}" is refused: ${why}. Use a name such as "images/flow.png".`);
  }
  if (!ASSET_EXTENSIONS.includes(fileExtension(name))) {
    const extension = fileExtension(name);
    return refusal(
      'asset.type',
      `The file "${name}" ${extension ? `is a .${extension} file, which` : 'has no extension, so it'} cannot be added: the site serves ${ASSET_EXTENSIONS.map((ext) => `.${ext}`).join(', ')}. HTML and scripts are never added as files; convert the file or link it from elsewhere.`,
    );
  }
  return null;
}

function decodeText(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

function looksLikeText(bytes: Uint8Array): boolean {
  return decodeText(bytes.subarray(0, 512)) !== null;
}

function textRefusal(candidate: AssetCandidate, kind: { label: string; markup?: boolean; json?: boolean }) {
  const { name, bytes } = candidate;
  const text = decodeText(bytes);
  if (text === null) {
    return refusal(
      'asset.type',
      `The bytes of "${name}" are not ${kind.label}: it must be UTF-8 text without NUL characters. Save it as UTF-8, or name it after what it is.`,
    );
  }
  if (kind.json) {
    try {
      JSON.parse(text);
    } catch (error) {
      return refusal(
        'asset.type',
        `"${name}" is not valid JSON (${(error as Error).message}). Fix the JSON, or name it .txt.`,
      );
    }
  }
  if (kind.markup) {
    if (fileExtension(name) === 'svg' && !/<svg[\s>/]/i.test(text)) {
      return refusal('asset.type', `"${name}" holds no <svg> element, so it is not an SVG drawing. Send the drawing.`);
    }
    const active = activeMarkup(text);
    if (active) {
      return refusal(
        'asset.content',
        `"${name}" holds ${active}, which a browser would run when the file is opened. Kit refuses such files rather than cleaning them: export the drawing without scripts, event handlers, links to javascript: URLs, embedded HTML or entity declarations (or as PNG), then send it again.`,
      );
    }
  }
  const previous = candidate.previous ? decodeText(candidate.previous) : null;
  const secret = addedSecret(text, previous);
  if (secret) {
    return refusal(
      'asset.secret',
      `Nothing was written: "${name}" holds ${describeFinding(secret)}. Secrets never belong in docs: remove it or use a placeholder such as <API_KEY>, and rotate the credential if it was real.`,
    );
  }
  return null;
}

const NAMED_REFERENCES: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  lpar: '(',
  rpar: ')',
  sol: '/',
  bsol: '\\',
  period: '.',
};

/** Character references written out (`&#106;`, `&#x6A;`, `&colon;`), so a spelled-out `javascript:` is found. */
function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED_REFERENCES[body.toLowerCase()] ?? whole;
  });
}

/** What in SVG or XML text a browser would run or load as a document, or null. */
function activeMarkup(text: string): string | null {
  const decoded = decodeReferences(decodeReferences(text));
  // Whitespace and control characters are dropped before matching: `java\tscript:` runs too.
  const squashed = decoded.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
  const found: Array<[string, string]> = [
    ['<script', 'a <script> element'],
    ['javascript:', 'a javascript: URL'],
    ['vbscript:', 'a vbscript: URL'],
    ['data:text/html', 'a data:text/html URL'],
    ['data:application/xhtml', 'a data: URL of XHTML'],
    ['<foreignobject', 'a <foreignObject> element (it embeds HTML)'],
    ['<iframe', 'an <iframe> element'],
    ['<embed', 'an <embed> element'],
    ['<object', 'an <object> element'],
    ['<handler', 'a <handler> element'],
    ['<listener', 'a <listener> element'],
    ['<!entity', 'an entity declaration'],
    ['<?xml-stylesheet', 'a stylesheet processing instruction'],
    ['http://www.w3.org/1999/xhtml', 'XHTML content'],
  ];
  for (const [needle, what] of found) if (squashed.includes(needle)) return what;
  // Anywhere, not only inside a tag as a parser would see it: a `>` inside a quoted value must not hide one.
  if (/[\s/"'`]on[a-z]+\s*=/i.test(decoded)) return 'an event-handler attribute (onload=, onclick=, ...)';
  if (/attributename=["']?on/.test(squashed)) return 'an animation that sets an event handler';
  return null;
}
