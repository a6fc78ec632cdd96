import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { ASSET_EXTENSIONS, type AuthorToolResult, KitError, MAX_ASSET_BYTES } from '@kit/core';
import {
  type AuthorCall,
  deleteAssetTool,
  fileContentType,
  fileExtension,
  rejected,
  writeAssetFile,
} from '@kit/core/internal';
import type { LoadedKit } from '@kit/node';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { addNotes } from '../notes.js';

interface ScopeOptions {
  version?: string;
  locale?: string;
  summary?: string;
  basedOn?: string;
  json?: boolean;
}

/** Runs `work` on the set `--set` names, as the local operator whose changes also go into the branch's docs migration. */
async function withKit<T>(
  context: CommandContext,
  command: Command,
  work: (kit: LoadedKit, set: string, call: AuthorCall) => Promise<T>,
): Promise<T> {
  const globals = context.globals(command);
  const kit = await context.loadKit(command, { git: false, docsMigrations: {} });
  try {
    const user = context.io.env.USER ?? context.io.env.USERNAME;
    const call: AuthorCall = { viewer: { user: null, local: true }, channel: 'local', author: user ?? 'cli' };
    return await work(kit, kit.set(globals.set).key, call);
  } finally {
    await kit.close();
  }
}

/** Where `--path` puts `file`: the exact path for one file named with an extension, else a folder the file goes into. */
export function assetTarget(file: string, path: string | undefined, count: number): string {
  const name = basename(file);
  if (path === undefined || path.trim() === '') return name;
  const given = path.trim();
  if (count === 1 && !given.endsWith('/') && fileExtension(given) !== '') return given;
  return `${given.replace(/\/+$/, '')}/${name}`;
}

function scopeOf(options: ScopeOptions) {
  return {
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.locale !== undefined ? { locale: options.locale } : {}),
    ...(options.summary !== undefined ? { summary: options.summary } : {}),
  };
}

/** Prints each result; any refusal ends the command with exit code 1. */
function report(context: CommandContext, results: Array<{ file: string; result: AuthorToolResult }>, json?: boolean) {
  if (results.some(({ result }) => result.outcome === 'rejected' || result.outcome === 'conflicted')) {
    context.exitCode = 1;
  }
  if (json) {
    writeLine(context.io.stdout, JSON.stringify(results, null, 2));
    return;
  }
  for (const { file, result } of results) {
    writeLine(context.io.stdout, `${file}: ${result.outcome}: ${result.message}`);
    if (result.docs_migration) writeLine(context.io.stdout, `  docs migration: ${result.docs_migration.file}`);
  }
}

async function readLocalFile(context: CommandContext, file: string): Promise<Uint8Array | AuthorToolResult> {
  const absolute = resolve(context.io.cwd, file);
  const info = await stat(absolute).catch(() => null);
  if (!info?.isFile()) return rejected(`No file ${file} to add. Check the path (relative to ${context.io.cwd}).`);
  if (info.size > MAX_ASSET_BYTES) {
    return rejected(
      `${file} is ${info.size} bytes; files are at most ${MAX_ASSET_BYTES} bytes (10 MiB). Compress or resize it.`,
    );
  }
  return new Uint8Array(await readFile(absolute));
}

export function registerAssets(program: Command, context: CommandContext): void {
  const list = async (options: { json?: boolean }, command: Command) => {
    await withKit(context, command, async (kit, key) => {
      const source = kit.set(key).source;
      const names = source.listFiles ? await source.listFiles() : [];
      const files = [];
      for (const name of names) {
        const file = await source.openFile(name);
        if (file)
          files.push({
            name,
            path: `/${name}`,
            type: fileContentType(name).type,
            size: file.size,
            content_hash: file.contentHash,
          });
      }
      if (options.json) {
        writeLine(context.io.stdout, JSON.stringify({ set: key, files }, null, 2));
        return;
      }
      if (files.length === 0) {
        writeLine(context.io.stdout, `The "${key}" docs hold no files. Add one with \`kit assets add <file>\`.`);
        return;
      }
      writeLine(context.io.stdout, `${files.length} file${files.length === 1 ? '' : 's'} in the "${key}" docs:`);
      for (const file of files) {
        writeLine(context.io.stdout, `  ${file.path}  ${file.type}  ${file.size} bytes  ${file.content_hash}`);
      }
    });
  };
  const assets = program
    .command('assets')
    .description(
      "List, add and remove the files of a doc set (images, PDFs, stylesheets, downloads) that pages link: a database set's assets, or a repository set's files beside its pages.",
    )
    .option('--json', 'print the files as JSON')
    .action(list);
  addNotes(
    assets,
    `A file's path is where it sits beside the pages of a version and locale (--version, --locale; default the default ones): "images/flow.png" in a versioned set is the file 13.x/images/flow.png, linked from a page as ./images/flow.png. A path that starts with "/" names the file from the set folder, as \`kit assets\` lists them ("/brand/logo.svg", "/13.x/images/flow.png").

Every file passes the rules of the write_asset author tool: a name the site serves (no "..", dotfiles, Markdown, kit.json or secret-looking names), a type it serves (${ASSET_EXTENSIONS.join(', ')}), bytes that are what the name says, at most 10 MiB, no script in SVG or XML, no credential in a text file. On a database set the change is also written into the branch's docs migration, as kit mcp's author tools do; on a repository set the file is written in the working tree.

Exit codes: 0 every file added, unchanged or removed; 1 one was refused or conflicted.`,
  );

  assets
    .command('list')
    .description('List the files of the set (as `kit assets` does): path, type, size and content hash.')
    .option('--json', 'print the files as JSON')
    .action(list);

  assets
    .command('add')
    .description(
      'Add or replace files of the set: each passes the write_asset rules, or is refused and nothing of it is written.',
    )
    .argument('<files...>', 'files to add, relative to the working directory')
    .option(
      '--path <path>',
      'where the file goes: a folder ("images") or, for one file, its path ("images/flow.png"); "/" first names it from the set folder',
    )
    .option('--version <id>', 'docs version the file sits beside (default: the default version)')
    .option('--locale <code>', 'locale the file sits beside (default: the main language)')
    .option('--summary <text>', 'one line for the revision list')
    .option('--based-on <hash>', 'content hash of the file being replaced (one file only); refuse if it changed since')
    .option('--json', 'print the results as JSON')
    .action(async (files: string[], options: ScopeOptions & { path?: string }, command: Command) => {
      if (options.basedOn !== undefined && files.length !== 1) {
        throw new KitError(
          'argument.invalid',
          '--based-on names the hash of one file: add one file at a time with it.',
        );
      }
      await withKit(context, command, async (kit, key, call) => {
        const results: Array<{ file: string; result: AuthorToolResult }> = [];
        for (const file of files) {
          const bytes = await readLocalFile(context, file);
          if (!(bytes instanceof Uint8Array)) {
            results.push({ file, result: bytes });
            continue;
          }
          const input = {
            path: assetTarget(file, options.path, files.length),
            bytes,
            ...scopeOf(options),
            ...(options.basedOn !== undefined ? { based_on: options.basedOn } : {}),
          };
          results.push({ file, result: await writeAssetFile(kit.set(key), input, call) });
        }
        report(context, results, options.json);
      });
    });

  assets
    .command('remove')
    .description(
      'Remove files of the set, named as `kit assets add` places them (or "/" and the name `kit assets` lists).',
    )
    .argument('<paths...>', 'file paths, e.g. images/flow.png or /13.x/images/flow.png')
    .option('--version <id>', 'docs version the file sits beside (default: the default version)')
    .option('--locale <code>', 'locale the file sits beside (default: the main language)')
    .option('--summary <text>', 'one line for the revision list')
    .option('--based-on <hash>', 'content hash of the file (one file only); refuse if it changed since')
    .option('--json', 'print the results as JSON')
    .action(async (paths: string[], options: ScopeOptions, command: Command) => {
      if (options.basedOn !== undefined && paths.length !== 1) {
        throw new KitError(
          'argument.invalid',
          '--based-on names the hash of one file: remove one file at a time with it.',
        );
      }
      await withKit(context, command, async (kit, key, call) => {
        const results: Array<{ file: string; result: AuthorToolResult }> = [];
        for (const path of paths) {
          const input = {
            path,
            ...scopeOf(options),
            ...(options.basedOn !== undefined ? { based_on: options.basedOn } : {}),
          };
          results.push({ file: path, result: await deleteAssetTool(kit.set(key), input, call) });
        }
        report(context, results, options.json);
      });
    });
}
