import { composePageFile, KitError, normalizeForHash, parseNavigation } from '@kit/core';
import type { ManifestWrite, NavigationWrite, PageWrite } from './change-types.js';
import { checkText } from './records.js';

// The texts a database set stores, serves and hashes for its pages, navigation files and manifest.

/** The page file of a {@link PageWrite}, or `argument.invalid` naming what is missing. */
export function pageText(page: PageWrite): string {
  if (typeof page.text === 'string') return page.text;
  if (typeof page.body !== 'string') {
    throw new KitError(
      'argument.invalid',
      `Page "${page.path}" has no body. Pass \`body\` (Markdown) or \`text\` (the whole page file).`,
    );
  }
  return composePageFile(page.frontmatter, page.body);
}

/** The JSON text a navigation tree is served and hashed as. */
export function navigationText(tree: unknown): string {
  return `${JSON.stringify(tree, null, 2)}\n`;
}

/**
 * The text a {@link NavigationWrite} is stored, served and hashed as: `text` as written (line
 * endings normalized), or a `tree` as indented JSON. Refused with `navigation.invalid` when unusable.
 */
export function navigationDocument(input: NavigationWrite): string {
  const text = typeof input.text === 'string' ? normalizeForHash(input.text) : navigationText(input.tree ?? null);
  checkText(text, `The navigation of ${input.version}/${input.locale}`);
  const { navigation, problems } = parseNavigation(text);
  if (navigation === null) {
    throw new KitError(
      'navigation.invalid',
      `The navigation of ${input.version}/${input.locale} is not usable: ${problems[0]?.message ?? 'it holds no groups or tabs'}. Write {"groups": [...]} or {"tabs": [...]}.`,
      { details: { problems } },
    );
  }
  return text;
}

/** The stored text of a {@link ManifestWrite}, refused with `manifest.invalid` unless a JSON object. */
export function manifestDocument(input: ManifestWrite): string {
  if ('manifest' in input) return `${JSON.stringify(input.manifest, null, 2)}\n`;
  const document = normalizeForHash(input.text);
  let value: unknown;
  try {
    value = JSON.parse(document);
  } catch (error) {
    throw new KitError(
      'manifest.invalid',
      `The manifest is not valid JSON (${(error as Error).message}). A database set stores only a manifest it can read; fix the JSON and write it again.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new KitError(
      'manifest.invalid',
      'The manifest must be a JSON object ({ "name": ... }), not a list or a single value.',
    );
  }
  return document;
}
