import type { PageAddress } from '@kit/core';
import { contentHash, KitError, parseManifestText, parsePageFile } from '@kit/core';
import type { PathScope } from '@kit/core/internal';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ChangeOptions, ChangeResult, InnerOptions, RevisionRecord } from './change-types.js';
import { checkPagePath } from './page-path.js';
import { ABSENT, checkBase, checkStorable, type Executor, guardUnique, recordRevision } from './records.js';
import type { KitTables, RevisionAction } from './schema/tables.js';

// The writers that run inside a transaction the caller opened: the public writes, publishing a
// draft, restoring a page and importing a set all end here. Each checks the content it acts on
// (locking its row) against \`basedOn\` and records its revision.

/** Writes one page inside a transaction `tx`, with its revision; see `writePage`. */
export async function writePageInTransaction(
  tx: Executor,
  t: KitTables,
  setKey: string,
  ref: PageAddress,
  text: string,
  action: RevisionAction,
  options: InnerOptions,
): Promise<ChangeResult> {
  checkPagePath(ref.path);
  const scope = options.scope ?? (await readScope(tx, t, setKey));
  checkScope(scope, setKey, ref.version, ref.locale);
  if (!options.copy) checkPagePath(ref.path, scope);
  const parsed = parsePageFile(text);
  checkStorable(parsed, ref.path);
  const current = await livePage(tx, t, setKey, ref);
  checkBase(options.basedOn, current?.contentHash ?? null, `page "${ref.path}"`);
  if (current && current.contentHash === parsed.contentHash) {
    return { outcome: 'unchanged', contentHash: current.contentHash, revision: null };
  }
  const status = options.status ?? 'published';
  if (status === 'published') {
    const values = {
      document: parsed.document,
      frontmatter: parsed.frontmatter,
      body: parsed.body,
      title: parsed.title ?? ref.path.split('/').pop()!,
      description: parsed.description ?? null,
      contentHash: parsed.contentHash,
      visibility: parsed.visibility,
      bodyLine: parsed.bodyLine,
      problems: parsed.problems,
      updatedAt: sql`now()`,
      updatedBy: options.author ?? null,
    };
    if (current) {
      await tx.update(t.pages).set(values).where(eq(t.pages.id, current.id));
    } else {
      await guardUnique(
        () =>
          tx.insert(t.pages).values({ setKey, version: ref.version, locale: ref.locale, path: ref.path, ...values }),
        `page "${ref.path}"`,
      );
    }
  }
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'page',
    action,
    ...ref,
    contentHash: parsed.contentHash,
    snapshot: parsed.document,
    basedOn: current?.contentHash ?? ABSENT,
    options,
  });
  return { outcome: status === 'draft' ? 'drafted' : 'published', contentHash: parsed.contentHash, revision };
}

/** Writes one navigation file inside a transaction `tx`, with its revision; see `writeNavigation`. */
export async function writeNavigationInTransaction(
  tx: Executor,
  t: KitTables,
  setKey: string,
  scope: { version: string; locale: string },
  text: string,
  options: InnerOptions,
): Promise<ChangeResult> {
  checkScope(options.scope ?? (await readScope(tx, t, setKey)), setKey, scope.version, scope.locale);
  const n = t.navigations;
  const hash = contentHash(text);
  const [current] = await tx
    .select({ id: n.id, contentHash: n.contentHash })
    .from(n)
    .where(and(eq(n.setKey, setKey), eq(n.version, scope.version), eq(n.locale, scope.locale)))
    .for('update');
  checkBase(options.basedOn, current?.contentHash ?? null, `navigation of ${scope.version}/${scope.locale}`);
  if (current?.contentHash === hash) return { outcome: 'unchanged', contentHash: hash, revision: null };
  const status = options.status ?? 'published';
  if (status === 'published') {
    // A json column keeps its text as written: the file is served as the author wrote it.
    const values = {
      tree: sql`${text}::json`,
      contentHash: hash,
      updatedAt: sql`now()`,
      updatedBy: options.author ?? null,
    };
    if (current) await tx.update(n).set(values).where(eq(n.id, current.id));
    else {
      await guardUnique(
        () => tx.insert(n).values({ setKey, version: scope.version, locale: scope.locale, ...values }),
        `navigation of ${scope.version}/${scope.locale}`,
      );
    }
  }
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'navigation',
    action: 'write',
    version: scope.version,
    locale: scope.locale,
    contentHash: hash,
    snapshot: text,
    basedOn: current?.contentHash ?? ABSENT,
    options,
  });
  return { outcome: status === 'draft' ? 'drafted' : 'published', contentHash: hash, revision };
}

/** Writes the manifest inside a transaction `tx`, with its revision; see `writeManifest`. */
export async function writeManifestInTransaction(
  tx: Executor,
  t: KitTables,
  setKey: string,
  document: string,
  options: ChangeOptions,
): Promise<ChangeResult> {
  const m = t.manifests;
  const hash = contentHash(document);
  const [current] = await tx
    .select({ id: m.id, contentHash: m.contentHash })
    .from(m)
    .where(eq(m.setKey, setKey))
    .for('update');
  checkBase(options.basedOn, current?.contentHash ?? null, 'manifest');
  if (current?.contentHash === hash) return { outcome: 'unchanged', contentHash: hash, revision: null };
  const status = options.status ?? 'published';
  if (status === 'published') {
    const values = { document, contentHash: hash, updatedAt: sql`now()`, updatedBy: options.author ?? null };
    if (current) await tx.update(m).set(values).where(eq(m.id, current.id));
    else await guardUnique(() => tx.insert(m).values({ setKey, ...values }), 'manifest');
  }
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'manifest',
    action: 'write',
    contentHash: hash,
    snapshot: document,
    basedOn: current?.contentHash ?? ABSENT,
    options,
  });
  return { outcome: status === 'draft' ? 'drafted' : 'published', contentHash: hash, revision };
}

/**
 * Records the deletion of a live page as a `delete` revision holding its last content; a published
 * change also marks the row deleted (kept, so the page can be restored), a draft leaves it live.
 */
export async function deleteLivePageInTransaction(
  tx: Executor,
  t: KitTables,
  setKey: string,
  ref: PageAddress,
  current: { id: number; contentHash: string; document: string },
  options: ChangeOptions,
): Promise<RevisionRecord> {
  if ((options.status ?? 'published') === 'published') {
    await tx
      .update(t.pages)
      .set({ deletedAt: sql`now()`, updatedBy: options.author ?? null })
      .where(eq(t.pages.id, current.id));
  }
  return recordRevision(tx, t, {
    setKey,
    kind: 'page',
    action: 'delete',
    ...ref,
    contentHash: current.contentHash,
    snapshot: current.document,
    basedOn: current.contentHash,
    options,
  });
}

/** The live row of a page a change acts on; `page.not_found` when there is none. */
export async function requireLivePage(
  tx: Executor,
  t: KitTables,
  setKey: string,
  ref: PageAddress,
  verb: 'delete' | 'move',
) {
  const current = await livePage(tx, t, setKey, ref);
  if (!current) {
    throw new KitError(
      'page.not_found',
      `No page "${ref.path}" in ${ref.version}/${ref.locale} of set "${setKey}" to ${verb}. List the pages to find its path.`,
    );
  }
  return current;
}

/** The live (not deleted) row of one page, locked for the rest of the transaction; undefined when there is none. */
export async function livePage(tx: Executor, t: KitTables, setKey: string, ref: PageAddress) {
  const p = t.pages;
  const [row] = await tx
    .select({ id: p.id, contentHash: p.contentHash, document: p.document })
    .from(p)
    .where(
      and(
        eq(p.setKey, setKey),
        eq(p.version, ref.version),
        eq(p.locale, ref.locale),
        eq(p.path, ref.path),
        isNull(p.deletedAt),
      ),
    )
    .for('update');
  return row ?? null;
}

/** The versions and locales of the set's stored manifest (`current` and `en` for a set without one). */
async function readScope(tx: Executor, t: KitTables, setKey: string): Promise<PathScope> {
  const [row] = await tx
    .select({ document: t.manifests.document })
    .from(t.manifests)
    .where(eq(t.manifests.setKey, setKey));
  const { manifest } = parseManifestText(row?.document ?? '{}', setKey);
  return {
    versions: manifest.versions.map((v) => v.id),
    locales: manifest.locales.map((l) => l.code),
    versioned: manifest.versioned,
  };
}

/** Versions and locales must be the manifest's. */
function checkScope(scope: PathScope, setKey: string, version: string, locale: string): void {
  if (!scope.versions.includes(version)) {
    throw new KitError(
      'version.not_found',
      `Set "${setKey}" has no version "${version}"; its versions are ${scope.versions.join(', ')}. Add the version to the manifest first, or write to one of these.`,
    );
  }
  if (!scope.locales.includes(locale)) {
    throw new KitError(
      'locale.not_found',
      `Set "${setKey}" has no locale "${locale}"; its locales are ${scope.locales.join(', ')}. Add the locale to the manifest first, or write to one of these.`,
    );
  }
}
