import { expect } from 'vitest';
import type { ContentSource } from '../ports/content-source.js';
import type { AuthorToolName, ChangeRecord, ContentWriter, PageAddress } from '../ports/content-writer.js';

/** A page of the contract fixture the tests change. */
export const en2: PageAddress = { version: '2.x', locale: 'en', path: 'guides/setup' };
const scopes = [
  { version: '2.x', locale: 'en' },
  { version: '2.x', locale: 'ar' },
  { version: '1.x', locale: 'en' },
  { version: '1.x', locale: 'ar' },
];

/** The change record of a contract call by `tool`. */
export function change(tool: AuthorToolName, extra: Partial<ChangeRecord> = {}): ChangeRecord {
  return { tool, summary: `${tool} from the writer contract`, author: 'agent:contract', draft: false, ...extra };
}

/** The source's writer, failing the test when it has none. */
export function writerOf(source: ContentSource): ContentWriter {
  expect(source.writer, 'the source has a writer').toBeDefined();
  return source.writer!;
}

/** Fails the test unless `promise` rejects with a `KitError` of one of `codes`. */
export async function rejectsWith(promise: Promise<unknown>, codes: string | string[]): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, 'the call is refused').not.toBeNull();
  expect(error).toMatchObject({ name: 'KitError' });
  expect([codes].flat()).toContain((error as { code?: string }).code);
}

/** The content hash of a page that must exist. */
export async function hashOf(source: ContentSource, page: PageAddress): Promise<string> {
  const found = await source.getPage(page.version, page.locale, page.path);
  expect(found, `page ${page.version}/${page.locale}/${page.path} exists`).not.toBeNull();
  return found!.contentHash;
}

/** Everything the set serves, to show a refused change left it as it was. */
export async function snapshot(source: ContentSource) {
  const state: Record<string, unknown> = { manifest: (await source.readManifest())?.text ?? null };
  for (const { version, locale } of scopes) {
    const pages = await source.listPages(version, locale);
    state[`${version}/${locale}`] = {
      pages: pages.map((page) => [page.path, page.contentHash]),
      navigation: (await source.readNavigation(version, locale))?.text ?? null,
    };
  }
  return state;
}

/** Fails the test unless `value` is a date in ISO 8601 form. */
export function expectIsoDate(value: string | undefined): void {
  expect(typeof value).toBe('string');
  expect(new Date(value!).toISOString()).toBe(value);
}
