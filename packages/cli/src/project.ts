import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configDefaults, KitError, type KitEnv, type ResolvedConfig, resolveConfig } from '@kit/core';
import { CONFIG_FILE_NAMES, findConfigFile } from '@kit/core/node';

/** Where a long-running command (`kit serve`, `kit mcp`) finds the docs it serves. */
export type ProjectLocation =
  /** A Kit project: load its config (or the defaults) from `cwd`. */
  | { kind: 'project'; cwd: string }
  /** A plain folder of Markdown the user named: served as the one set, with every default. */
  | { kind: 'folder'; config: ResolvedConfig };

/**
 * Finds what `kit serve` and `kit mcp` serve. A named `folder` is a project folder when it holds a
 * `kit.config.*` or a `docs/` folder, and otherwise a folder of Markdown served as the `docs` set.
 * Without one, the working directory must be a project: started anywhere else they would serve an
 * empty set ("0 pages", "No pages match"), so they stop with what they looked for and the fix.
 *
 * @example
 * const where = locateProject({ cwd: process.cwd(), command: 'serve', env: process.env });
 */
export function locateProject(options: {
  cwd: string;
  command: string;
  env: KitEnv;
  folder?: string;
  configFile?: string;
}): ProjectLocation {
  const { cwd, command } = options;
  if (options.folder === undefined) {
    if (options.configFile !== undefined || isProject(cwd)) return { kind: 'project', cwd };
    throw new KitError(
      'config.not_found',
      `No Kit project in ${cwd}: kit ${command} looked for ${CONFIG_FILE_NAMES.join(', ')} and a docs/ folder there and found neither. Run kit init here to start one (npx kit init once @kit/cli is installed), run kit ${command} from your project's folder, or name the folder to serve: kit ${command} path/to/docs.`,
    );
  }
  const folder = resolve(cwd, options.folder);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new KitError(
      'argument.invalid',
      `kit ${command} ${options.folder}: ${folder} is not a folder. Name a project folder (with kit.config.ts or docs/) or a folder of Markdown pages.`,
    );
  }
  if (options.configFile !== undefined) {
    throw new KitError(
      'argument.invalid',
      `kit ${command} takes a folder or --config, not both: the config file already says where the docs are. Drop one of them.`,
    );
  }
  if (isProject(folder)) return { kind: 'project', cwd: folder };
  const config = resolveConfig(
    { sets: { [configDefaults.default]: { source: { driver: 'repository', path: '.' } } } },
    { env: options.env, root: folder },
  );
  return { kind: 'folder', config };
}

/** A project folder holds a `kit.config.*`, or a `docs/` folder that the default config reads. */
function isProject(folder: string): boolean {
  if (findConfigFile(folder)) return true;
  const docs = join(folder, 'docs');
  return existsSync(docs) && statSync(docs).isDirectory();
}
