import { KitError } from '../errors/kit-error.js';
import { MAX_ASSET_BYTES } from './asset-rules.js';

/** A file's bytes as an author tool received them, with the media type the sender declared. */
export interface DecodedAsset {
  bytes: Uint8Array;
  /** The media type of a data URL (`image/png`); null for bare base64 or a data URL without one. */
  declaredType: string | null;
}

// Base64 of MAX_ASSET_BYTES, plus room for a data URL's header and line breaks: anything longer is
// refused before it is decoded, so a huge argument costs no memory beyond itself.
const MAX_ENCODED = Math.ceil(MAX_ASSET_BYTES / 3) * 4 + 4096;

/**
 * Decodes the `content` of `write_asset`: a data URL (`data:image/png;base64,iVBOR...`, or
 * percent-encoded text such as `data:image/svg+xml,%3Csvg...`) or bare standard base64 (line
 * breaks and spaces ignored). Refuses anything else with `argument.invalid` naming the fix.
 *
 * @example
 * decodeAssetContent('data:image/png;base64,iVBORw0KGgo=').declaredType; // 'image/png'
 */
export function decodeAssetContent(content: unknown): DecodedAsset {
  if (typeof content !== 'string' || content.trim() === '') {
    throw new KitError(
      'argument.invalid',
      '`content` is required: the file as base64 ("iVBORw0KGgo...") or a data URL ("data:image/png;base64,iVBORw0KGgo...").',
    );
  }
  if (content.length > MAX_ENCODED) {
    throw new KitError(
      'argument.invalid',
      `\`content\` is longer than a file of ${MAX_ASSET_BYTES} bytes (10 MiB) can be in base64. Compress or resize the file.`,
      { details: { rule: 'asset.size' } },
    );
  }
  const trimmed = content.trim();
  if (/^data:/i.test(trimmed)) return decodeDataUrl(trimmed);
  return { bytes: decodeBase64(trimmed, '`content`'), declaredType: null };
}

function decodeDataUrl(url: string): DecodedAsset {
  const comma = url.indexOf(',');
  if (comma === -1) {
    throw new KitError(
      'argument.invalid',
      'The data URL in `content` has no comma before its data. Send it as "data:<type>;base64,<base64>".',
    );
  }
  const header = url.slice('data:'.length, comma).trim();
  const parts = header.split(';').map((part) => part.trim());
  const base64 = parts.length > 1 && parts[parts.length - 1]!.toLowerCase() === 'base64';
  const type = parts[0]?.includes('/') ? parts[0].toLowerCase() : null;
  const data = url.slice(comma + 1);
  if (base64) return { bytes: decodeBase64(data, 'The data URL in `content`'), declaredType: type };
  let text: string;
  try {
    text = decodeURIComponent(data);
  } catch {
    throw new KitError(
      'argument.invalid',
      'The data URL in `content` is not valid percent-encoding. Send it as base64 ("data:<type>;base64,<base64>").',
    );
  }
  return { bytes: new TextEncoder().encode(text), declaredType: type };
}

function decodeBase64(text: string, what: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new KitError(
      'argument.invalid',
      `${what} is not base64: use the standard alphabet (A-Z, a-z, 0-9, "+", "/", "=" padding), or a data URL ("data:image/png;base64,...").`,
    );
  }
  const padded = compact.padEnd(compact.length + ((4 - (compact.length % 4)) % 4), '=');
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * The bytes as a data URL of `type`: how a drafted file travels in its revision until a person
 * publishes it, and how `write_asset` content may be sent.
 *
 * @example
 * assetDataUrl(bytes, 'image/png'); // 'data:image/png;base64,iVBORw0KGgo...'
 */
export function assetDataUrl(bytes: Uint8Array, type: string): string {
  let binary = '';
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  }
  return `data:${type};base64,${btoa(binary)}`;
}

/**
 * Reads back a data URL written by {@link assetDataUrl}: its type and bytes, or null when `text`
 * is not one.
 */
export function readAssetDataUrl(text: string | null | undefined): { type: string; bytes: Uint8Array } | null {
  if (typeof text !== 'string') return null;
  const match = /^data:([^;,]+);base64,/.exec(text);
  if (!match) return null;
  try {
    return { type: match[1]!, bytes: decodeBase64(text.slice(match[0].length), 'The stored file') };
  } catch {
    return null;
  }
}

/** The size in bytes of the file a base64 data URL holds, without decoding it; null when `text` is not one. */
export function dataUrlSize(text: string | null | undefined): number | null {
  if (typeof text !== 'string') return null;
  const match = /^data:([^;,]+);base64,/.exec(text);
  if (!match) return null;
  const data = text.length - match[0].length;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((data * 3) / 4) - padding;
}
