import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SourceFixture } from '@kit/core/testing';

/**
 * Temporary set folders for tests, laid out as a repository set (written here independently of the
 * source's own layout code, so a layout bug cannot hide behind itself).
 */
export function createFixtureFolders(label: string) {
  const base = mkdtempSync(join(tmpdir(), `kit-source-fs-${label}-`));
  let count = 0;
  return {
    base,
    /** A fresh empty folder under the temporary base. */
    folder(): string {
      const folder = join(base, `set-${++count}`);
      mkdirSync(folder, { recursive: true });
      return folder;
    },
    /** Writes the fixture into a fresh folder and returns that folder. */
    write(fixture: SourceFixture): string {
      const root = this.folder();
      writeFixture(root, fixture);
      return root;
    },
    cleanup(): void {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Writes `text` at `file` (relative to `root`), creating folders on the way. */
export function writeAt(root: string, file: string, text: string | Uint8Array): void {
  const target = join(root, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
}

export function writeFixture(root: string, fixture: SourceFixture): void {
  const manifest = typeof fixture.manifest === 'string' ? JSON.parse(fixture.manifest) : fixture.manifest;
  if (fixture.manifest !== undefined) {
    writeAt(
      root,
      'kit.json',
      typeof fixture.manifest === 'string' ? fixture.manifest : JSON.stringify(fixture.manifest, null, 2),
    );
  }
  const versioned = Array.isArray(manifest?.versions);
  const locales: Array<string | { code: string; default?: boolean }> = Array.isArray(manifest?.locales)
    ? manifest.locales
    : ['en'];
  const codes = locales.map((locale) => (typeof locale === 'string' ? locale : locale.code));
  const explicitDefault = locales.find((locale) => typeof locale === 'object' && locale.default === true);
  const defaultLocale = explicitDefault && typeof explicitDefault === 'object' ? explicitDefault.code : codes[0];
  const folderOf = (version: string, locale: string) =>
    [versioned ? version : '', locale === defaultLocale ? '' : locale].filter(Boolean).join('/');
  const inFolder = (folder: string, file: string) => (folder ? `${folder}/${file}` : file);

  for (const page of fixture.pages)
    writeAt(root, inFolder(folderOf(page.version, page.locale), `${page.path}.md`), page.text);
  for (const nav of fixture.navigation ?? []) {
    writeAt(root, inFolder(folderOf(nav.version, nav.locale), 'navigation.json'), nav.text);
  }
  for (const skill of fixture.skills ?? []) writeAt(root, `skills/${skill.name}.md`, skill.content);
  for (const asset of fixture.assets ?? []) writeAt(root, asset.name, asset.content);
}
