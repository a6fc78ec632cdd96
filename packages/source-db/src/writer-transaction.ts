import type { ChangeRecord, WriteReceipt } from '@kit/core';
import type { ChangeOptions, ChangeResult, RevisionQuery, RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import type { DocsMigrationChange } from './docs-migration-file.js';
import { appendChange, type DocsMigrationOptions, type MigrationFileState } from './migration-append.js';
import { listRevisions } from './revision-history.js';
import { toAuthorRevision } from './writes.js';

/** A change stripped of what every change carries (`summary`, `author`, `at`), filled in at commit. */
export type ChangeEntry = DocsMigrationChange extends infer C
  ? C extends DocsMigrationChange
    ? Omit<C, 'summary' | 'author' | 'at'>
    : never
  : never;

/** What the body of a writer call did, and the migration entry it makes when published. */
export interface Step {
  result: ChangeResult;
  /** Every revision the change recorded (a move records two). */
  revisions: RevisionRecord[];
  entry: ChangeEntry | null;
}

/** Runs one writer call; see {@link createWriterTransaction}. */
export type PerformChange = (
  change: ChangeRecord,
  subject: RevisionQuery,
  body: (tx: KitDatabase, options: ChangeOptions) => Promise<Step>,
) => Promise<WriteReceipt>;

/**
 * How each call of a database set's writer runs: one transaction over the write functions, the
 * branch's docs migration appended inside it when `migrations` is given (and put back when the
 * commit fails), the committed revisions announced, and a receipt made from the result. Calls that
 * append to a migration file run one at a time in this process.
 */
export function createWriterTransaction(input: {
  db: KitDatabase;
  setKey: string;
  migrations?: DocsMigrationOptions | undefined;
  announce: (revisions: RevisionRecord[]) => void;
}): PerformChange {
  const { db, setKey, migrations, announce } = input;
  // Changes to one migration file are read, appended and written one at a time in this process.
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(work: () => Promise<T>): Promise<T> => {
    if (!migrations) return work();
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  };

  return (
    change: ChangeRecord,
    subject: RevisionQuery,
    body: (tx: KitDatabase, options: ChangeOptions) => Promise<Step>,
  ): Promise<WriteReceipt> =>
    serialize(async () => {
      const options: ChangeOptions = {
        status: change.draft ? 'draft' : 'published',
        summary: change.summary ?? null,
        author: change.author ?? null,
      };
      const file: MigrationFileState = { undo: null, migration: null };
      let step: Step;
      try {
        step = await db.orm.transaction(async (orm) => {
          const tx: KitDatabase = { ...db, orm, close: async () => {} };
          const done = await body(tx, options);
          const revision = done.result.revision;
          if (migrations && done.result.outcome === 'published' && done.entry && revision) {
            await appendChange(tx, migrations, setKey, file, {
              ...done.entry,
              ...(revision.summary === null ? {} : { summary: revision.summary }),
              ...(revision.author === null ? {} : { author: revision.author }),
              at: revision.createdAt,
            } as DocsMigrationChange);
          }
          return done;
        });
      } catch (error) {
        // The file was written but the commit failed: put back what it held.
        if (file.undo) await file.undo().catch(() => {});
        throw error;
      }
      const { result } = step;
      if (result.outcome === 'unchanged' || !result.revision) {
        // Nothing was written: the revision that holds this content, to chain on.
        const [latest] = await listRevisions(db, setKey, { ...subject, status: 'published', limit: 1 });
        return {
          outcome: 'published',
          revision: latest ? toAuthorRevision(latest) : { content_hash: result.contentHash },
          docs_migration: null,
        };
      }
      const published = step.revisions.filter((revision) => revision.status === 'published');
      if (published.length > 0) announce(published);
      return {
        outcome: result.outcome === 'drafted' ? 'drafted' : 'published',
        revision: toAuthorRevision(result.revision),
        docs_migration: file.migration,
      };
    });
}
