import type { ContentSource, SourcePage } from '@kit/core';
import { composePageFile, contentHash, KitError, parseManifestText } from '@kit/core';
import { writeAssetIn } from './asset-writes.js';
import type { ChangeOptions, InnerOptions } from './change-types.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import { manifestDocument, navigationDocument } from './documents.js';
import { type ImportSkip, readSourceFiles } from './import-files.js';
import {
  writeManifestInTransaction,
  writeNavigationInTransaction,
  writePageInTransaction,
} from './transaction-writes.js';

/** Options of {@link importFromSource}. */
export interface ImportOptions {
  /** Recorded as the author of every revision. @default 'import' */
  author?: string;
  /** Recorded as the summary of every revision. @default 'Imported' */
  summary?: string;
  /** Disk for imported assets; without one they are kept in their rows. */
  disk?: AssetDisk;
  /** Only these versions (ids of the manifest); default every declared version. */
  versions?: string[];
}

/** What an import wrote. Records equal to what the database held already count as unchanged. */
export interface ImportReport {
  /** `absent` when the source has no manifest. */
  manifest: 'written' | 'unchanged' | 'absent';
  pages: number;
  navigations: number;
  skills: number;
  /** Stylesheets the manifest names and the files beside the pages (images, PDFs, ...) written. */
  assets: number;
  unchanged: number;
  /**
   * Files of the source left out, each with the rule that refused it and why: the same rules as
   * `write_asset` and `kit assets add` (`@kit/core`'s `assetRefusal`: name, type, size, active
   * content in SVG or XML, secrets), or `asset.unreadable` for a file the source could not read.
   */
  skipped: ImportSkip[];
  /**
   * Pages whose stored file differs from the source's: a source hands over parsed frontmatter, so a
   * page with frontmatter is stored with it written out again (same keys and values, maybe other
   * formatting) and gets a new content hash. Broken frontmatter is not carried over.
   */
  rewritten: Array<{ version: string; locale: string; path: string }>;
}

/**
 * Copies a content source (a repository set, another database set) into a database set: manifest,
 * every page and navigation file of every declared version and locale, skills, the manifest's
 * stylesheets, and the files beside the pages (images, PDFs, downloads in the folders of the
 * imported versions) and the logo and favicon the manifest names, those that pass the file rules
 * of `write_asset`; the others
 * are listed in `skipped` with the reason. All in one transaction, so a failed import leaves the
 * set as it was; running it again writes only what changed. Files are read before the transaction
 * starts, each at most `MAX_ASSET_BYTES`.
 *
 * @example
 * const report = await importFromSource(createFsSource({ root: 'docs', setKey: 'docs' }), db, 'docs');
 */
export async function importFromSource(
  source: ContentSource,
  db: KitDatabase,
  setKey: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const change: ChangeOptions = { author: options.author ?? 'import', summary: options.summary ?? 'Imported' };
  const report: ImportReport = {
    manifest: 'absent',
    pages: 0,
    navigations: 0,
    skills: 0,
    assets: 0,
    unchanged: 0,
    rewritten: [],
    skipped: [],
  };
  const count = (outcome: string, key: 'pages' | 'navigations' | 'skills' | 'assets') => {
    if (outcome === 'unchanged') report.unchanged++;
    else report[key]++;
  };

  // Read everything first: the transaction then holds its locks only for the writes.
  const manifestFile = await source.readManifest();
  const { manifest } = parseManifestText(manifestFile?.text ?? '{}', setKey);
  const unknown = (options.versions ?? []).filter((id) => !manifest.versions.some((version) => version.id === id));
  if (unknown.length > 0) {
    throw new KitError(
      'version.not_found',
      `The source declares no version ${unknown.join(', ')}; it has ${manifest.versions.map((v) => v.id).join(', ')}. Pick among those.`,
    );
  }
  const versions = manifest.versions.filter((version) => !options.versions || options.versions.includes(version.id));
  const scopes = versions.flatMap((version) =>
    manifest.locales.map((locale) => ({ version: version.id, locale: locale.code })),
  );
  const pages: SourcePage[] = [];
  const navigations: Array<{ version: string; locale: string; text: string }> = [];
  for (const scope of scopes) {
    pages.push(...(await source.listPages(scope.version, scope.locale)));
    const navigation = await source.readNavigation(scope.version, scope.locale);
    if (navigation) navigations.push({ ...scope, text: navigation.text });
  }
  const skills = await source.listSkills();
  const assets: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const name of manifest.assets.css) {
    const bytes = await source.readAsset(name);
    if (bytes) assets.push({ name, bytes });
  }
  const files = await readSourceFiles(source, {
    versioned: manifest.versioned,
    imported: versions.map((version) => version.id),
    named: new Set([manifest.logo?.light, manifest.logo?.dark, manifest.favicon].filter((name) => name !== undefined)),
    except: new Set(assets.map((asset) => asset.name)),
  });
  assets.push(...files.accepted);
  report.skipped.push(...files.skipped);

  // With a manifest written below, every scope comes from it: no write reads it again.
  const inner: InnerOptions = manifestFile
    ? {
        ...change,
        scope: {
          versions: manifest.versions.map((version) => version.id),
          locales: manifest.locales.map((locale) => locale.code),
          versioned: manifest.versioned,
        },
      }
    : change;
  await db.orm.transaction(async (tx) => {
    const t = db.tables;
    if (manifestFile) {
      const result = await writeManifestInTransaction(
        tx,
        t,
        setKey,
        manifestDocument({ text: manifestFile.text }),
        change,
      );
      report.manifest = result.outcome === 'unchanged' ? 'unchanged' : 'written';
    }
    for (const page of pages) {
      const text = pageFileOf(page);
      if (contentHash(text) !== page.contentHash) {
        report.rewritten.push({ version: page.version, locale: page.locale, path: page.path });
      }
      const result = await writePageInTransaction(tx, t, setKey, page, text, 'write', { ...inner, copy: true });
      count(result.outcome, 'pages');
    }
    for (const navigation of navigations) {
      const document = navigationDocument(navigation);
      const result = await writeNavigationInTransaction(tx, t, setKey, navigation, document, inner);
      count(result.outcome, 'navigations');
    }
    const encoder = new TextEncoder();
    for (const skill of skills) {
      const result = await writeAssetIn(tx, t, setKey, `skills/${skill.name}.md`, encoder.encode(skill.content), {
        ...change,
        ...(options.disk ? { disk: options.disk } : {}),
      });
      count(result.outcome, 'skills');
    }
    for (const asset of assets) {
      const result = await writeAssetIn(tx, t, setKey, asset.name, asset.bytes, {
        ...change,
        ...(options.disk ? { disk: options.disk } : {}),
      });
      count(result.outcome, 'assets');
    }
  });
  return report;
}

/** The page file for a page a source handed over: its body alone when it had no frontmatter block. */
function pageFileOf(page: SourcePage): string {
  if (Object.keys(page.frontmatter).length === 0 && page.bodyLine === 1) return page.body;
  return composePageFile(page.frontmatter, page.body);
}
