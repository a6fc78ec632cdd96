import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KitEnv } from '../config/env.js';
import { resolveConfig } from '../config/resolve.js';
import type { KitConfigInput, ResolvedConfig } from '../config/types.js';
import { isKitError, KitError } from '../errors/kit-error.js';
import { parseDotenv } from './dotenv.js';

/** Looked for in this order in the working directory. */
export const CONFIG_FILE_NAMES = ['kit.config.ts', 'kit.config.mjs', 'kit.config.js', 'kit.config.json'] as const;

export interface LoadConfigOptions {
  /** Where to look for `kit.config.*`. Default: `process.cwd()`. */
  cwd?: string;
  /** An explicit config file, relative to `cwd`; missing is a `config.not_found`. */
  file?: string;
  /**
   * Environment variables. Default: `process.env`, which the root's `.env` fills in (keys already
   * set win) before the config file is imported, so the file can read them too. An explicit `env`
   * is left untouched and `.env` fills only the copy the config is resolved with.
   */
  env?: KitEnv;
}

/**
 * Finds, imports and resolves the project's config: `kit.config.ts` (also `.mjs`, `.js`, `.json`)
 * in `cwd`, or `file`. `<root>` is the file's folder; its `.env` is read. With no config file the
 * defaults are returned, rooted at `cwd`.
 *
 * @example
 * const config = await loadConfig();
 * config.sets.docs.source.path; // '/path/to/project/docs'
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const cwd = resolve(options.cwd ?? process.cwd());
  let file: string | null;
  if (options.file !== undefined) {
    file = resolve(cwd, options.file);
    if (!existsSync(file) || !statSync(file).isFile()) {
      throw new KitError(
        'config.not_found',
        `Config file ${file} does not exist. Check the path, or leave it out to use ${CONFIG_FILE_NAMES.join(', ')} in ${cwd}.`,
      );
    }
  } else {
    file = findConfigFile(cwd);
  }
  const root = file ? dirname(file) : cwd;
  const env = loadEnvironment(root, options.env);
  const input = file ? await importConfigFile(file) : {};
  try {
    return resolveConfig(input, { env, root, file });
  } catch (error) {
    if (isKitError(error) && file) {
      throw new KitError(error.code, `${basename(file)}: ${error.message}`, { cause: error, details: error.details });
    }
    throw error;
  }
}

/** The first `kit.config.*` in `folder`, in the order of {@link CONFIG_FILE_NAMES}, or null. */
export function findConfigFile(folder: string): string | null {
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = resolve(folder, name);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function loadEnvironment(root: string, explicit: KitEnv | undefined): KitEnv {
  const path = resolve(root, '.env');
  const base = explicit ?? process.env;
  const fromFile = existsSync(path) ? parseDotenv(readFileSync(path, 'utf8'), base, path) : {};
  if (explicit) return { ...fromFile, ...explicit };
  for (const [key, value] of Object.entries(fromFile)) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
  return process.env;
}

/** Imports a config file of any supported kind and returns its default export. */
export async function importConfigFile(file: string): Promise<KitConfigInput> {
  const extension = extname(file);
  if (extension === '.json') {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as KitConfigInput;
    } catch (error) {
      throw new KitError('config.invalid', `${basename(file)} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  let loaded: Record<string, unknown>;
  try {
    if (['.ts', '.mts', '.cts'].includes(extension)) {
      const { tsImport } = await import('tsx/esm/api');
      loaded = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
    } else {
      // The query makes a changed file load afresh when a long-running process reloads its config.
      const version = statSync(file).mtimeMs;
      loaded = (await import(/* @vite-ignore */ `${pathToFileURL(file).href}?v=${version}`)) as Record<string, unknown>;
    }
  } catch (error) {
    if (isKitError(error)) throw error;
    throw new KitError('config.invalid', `${basename(file)} failed to load: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let config = loaded.default;
  // A CommonJS-compiled module wraps the default export once more.
  if (config !== null && typeof config === 'object' && 'default' in config && Object.keys(config).length === 1) {
    config = (config as { default: unknown }).default;
  }
  if (config === undefined) {
    throw new KitError(
      'config.invalid',
      `${basename(file)} has no default export; write \`export default defineConfig({ ... })\` (import defineConfig from '@kit/core')`,
    );
  }
  return config as KitConfigInput;
}
