import { relative, sep } from 'node:path';
import { isTestEnvironment } from '@kit/core/internal';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { addNotes } from '../notes.js';

/** One set in the output of `kit migrate --json`. */
interface SetResult {
  set: string;
  source: 'database' | 'repository';
  migrations: Array<{ name: string; file: string; status: string; changes: number; skipped: number }>;
}

export function registerMigrate(program: Command, context: CommandContext): void {
  const command = program
    .command('migrate')
    .description(
      'Apply the docs migrations in migrations.path to database sets: the changes the local author tools (kit mcp) made on a branch, committed with the code. Each migration applies whole or not at all, once per database.',
    )
    .option('--status', 'list the applied and pending migrations of each database set without applying any')
    .option('--json', 'print the result as JSON');
  addNotes(
    command,
    `Every database set is migrated, or only the one --set names; repository sets keep their docs in files and are skipped. Each change of a migration is checked against the content it was written on (its based_on): when that content was edited in this database since, nothing of the migration is applied and kit migrate exits 1 naming the file, the change and how to resolve it. A change this database already holds is skipped, so running kit migrate again changes nothing.

With migrations.skip_in_tests on, kit migrate applies nothing while the application runs its tests (NODE_ENV=test).

Exit codes: 0 applied (or nothing to apply); 1 a migration conflicted or could not be read.`,
  );
  command.action(async (options: { status?: boolean; json?: boolean }, command: Command) => {
    const globals = context.globals(command);
    const kit = await context.loadKit(command, { git: false });
    try {
      const { config } = kit;
      const folder = config.migrations.path;
      const shown = (path: string) => relative(config.root, path).split(sep).join('/') || '.';
      const keys = globals.set !== undefined ? [kit.set(globals.set).key] : [...kit.sets.keys()];
      const status = options.status === true;
      if (!status && config.migrations.skip_in_tests && isTestEnvironment(context.io.env)) {
        const reason = 'migrations.skip_in_tests is on and the application runs its tests (NODE_ENV=test)';
        if (options.json) writeLine(context.io.stdout, JSON.stringify({ skipped: reason, sets: [] }, null, 2));
        else writeLine(context.io.stdout, `Skipped docs migrations: ${reason}. Nothing was applied.`);
        return;
      }
      const { runDocsMigrations } = await import('@kit/source-db');
      const results: SetResult[] = [];
      for (const key of keys) {
        const source = kit.set(key).source;
        if (source.kind !== 'database' || !('db' in source)) {
          results.push({ set: key, source: 'repository', migrations: [] });
          if (!options.json) writeLine(context.io.stdout, `${key}: skipped, a repository set (its docs are files)`);
          continue;
        }
        const { db, assetDisk } = source as import('@kit/source-db').DbContentSource;
        const run = await runDocsMigrations(db, key, folder, {
          dryRun: status,
          ...(assetDisk ? { disk: assetDisk } : {}),
        });
        const migrations = run.migrations.map((migration) => ({ ...migration, file: shown(migration.file) }));
        results.push({ set: key, source: 'database', migrations });
        if (!options.json) printSet(context, key, migrations, status, shown(folder));
      }
      if (options.json) {
        writeLine(context.io.stdout, JSON.stringify({ folder: shown(folder), status, sets: results }, null, 2));
      }
    } finally {
      await kit.close();
    }
  });
}

function printSet(
  context: CommandContext,
  key: string,
  migrations: SetResult['migrations'],
  status: boolean,
  folder: string,
): void {
  const out = context.io.stdout;
  if (migrations.length === 0) {
    writeLine(out, `${key}: no docs migrations in ${folder}`);
    return;
  }
  if (status) {
    writeLine(out, `${key}:`);
    for (const migration of migrations) {
      const state = migration.status === 'pending' ? 'pending' : 'applied';
      writeLine(out, `  ${state.padEnd(8)} ${migration.name} (${plural(migration.changes, 'change')})`);
    }
    return;
  }
  const applied = migrations.filter((migration) => migration.status === 'applied');
  if (applied.length === 0) {
    writeLine(out, `${key}: nothing to apply (${plural(migrations.length, 'migration')} applied before)`);
    return;
  }
  for (const migration of applied) {
    const skipped = migration.skipped > 0 ? `, ${migration.skipped} already present` : '';
    writeLine(out, `${key}: applied ${migration.name} (${plural(migration.changes, 'change')}${skipped})`);
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
