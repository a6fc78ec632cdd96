import type { SchemaName } from './schema-name.js';

/** ajv's options for Kit's schemas, shared by the run-time compiler and the ahead-of-time one. */
export const AJV_OPTIONS = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
  allowUnionTypes: true,
} as const;

/** The file in core's `schemas/` folder of each served schema name. */
export const SCHEMA_FILES: Readonly<Record<SchemaName, string>> = {
  larecipe: 'kit.json',
  navigation: 'navigation.json',
  frontmatter: 'frontmatter.json',
  validate: 'validate.json',
};

/**
 * A short fingerprint of a schema and the compile options (53-bit hash of their JSON), so a
 * validator compiled ahead of time is used only for the very schema it was made from.
 */
export function schemaFingerprint(schema: unknown): string {
  const text = JSON.stringify([AJV_OPTIONS, schema]);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36) + `-${text.length.toString(36)}`;
}
