import type { SourceProblem } from '../model/types.js';
import { parseJsonText } from '../schemas/json-text.js';

/** A manifest file as read for editing: the raw object exactly as written, and its key order. */
export interface ManifestDocument {
  /** The parsed manifest, every key kept (unknown ones too); null when the text is not a JSON object. */
  raw: Record<string, unknown> | null;
  /** Top-level keys in file order (JavaScript objects put integer-like keys first; this does not). */
  keyOrder: string[];
  problems: SourceProblem[];
}

/**
 * Reads `kit.json` text for a read → patch → write cycle. Unlike `parseManifestText` nothing is
 * normalized: unknown keys, key order and values stay exactly as written so `serializeManifest`
 * writes them back unchanged.
 *
 * @example
 * const doc = readManifestDocument(text);
 * const { manifest } = applyManifestPatch(doc.raw, { name: 'Acme' });
 * writeFile('kit.json', serializeManifest(manifest, doc.keyOrder));
 */
export function readManifestDocument(text: string, file = 'kit.json'): ManifestDocument {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      raw: null,
      keyOrder: [],
      problems: [
        {
          rule: 'manifest.schema',
          severity: 'error',
          message: `${file} is not valid JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column}).`,
          file,
          line: parsed.line,
          column: parsed.column,
          fix: 'Fix the JSON syntax at that position before changing the manifest.',
        },
      ],
    };
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      raw: null,
      keyOrder: [],
      problems: [
        {
          rule: 'manifest.schema',
          severity: 'error',
          message: `${file} must hold a JSON object, not ${Array.isArray(value) ? 'a list' : typeof value}.`,
          file,
          line: 1,
          column: 1,
          fix: 'Wrap the settings in { ... }.',
        },
      ],
    };
  }
  const keyOrder = [...parsed.positions.keys()]
    .filter((pointer) => pointer.lastIndexOf('/') === 0)
    .map((pointer) => pointer.slice(1).replaceAll('~1', '/').replaceAll('~0', '~'));
  return { raw: value as Record<string, unknown>, keyOrder: [...new Set(keyOrder)], problems: [] };
}

/**
 * Writes a manifest as Kit always writes JSON: two-space indentation and a trailing newline.
 * Top-level keys keep `keyOrder` (from `readManifestDocument`); keys not in it follow in the
 * object's own order, so keys a patch added come last.
 *
 * @example
 * serializeManifest({ name: 'Acme', 'x-team': 'docs' }) // '{\n  "name": "Acme",\n  "x-team": "docs"\n}\n'
 */
export function serializeManifest(raw: Record<string, unknown>, keyOrder: readonly string[] = []): string {
  const keys = [...keyOrder.filter((key) => Object.hasOwn(raw, key)), ...Object.keys(raw)];
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const key of keys) {
    if (seen.has(key) || raw[key] === undefined) continue;
    seen.add(key);
    lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(raw[key], null, 2).replaceAll('\n', '\n  ')}`);
  }
  return lines.length === 0 ? '{}\n' : `{\n${lines.join(',\n')}\n}\n`;
}
