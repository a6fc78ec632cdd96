import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HookFailurePolicy, ResolvedConfig } from '@kit/core';
import { findPushCommand } from './push-commands.js';

/** Where `kit agents` compiles the push commands for `kit hook`, relative to the project root. */
export const HOOKS_CACHE_FILE = '.kit/hooks.json';

/** The hook settings `kit agents` compiles, so `kit hook` answers without loading the config. */
export interface CompiledHooks {
  version: 2;
  enabled: boolean;
  push_commands: string[];
  on_failure: HookFailurePolicy;
}

/** The `hooks.*` settings of a config, as `kit hook` reads them. */
export function compileHooks(config: Pick<ResolvedConfig, 'hooks'>): CompiledHooks {
  return {
    version: 2,
    enabled: config.hooks.enabled,
    push_commands: [...config.hooks.push_commands],
    on_failure: config.hooks.on_failure,
  };
}

/** Writes the compiled hooks into `<root>/.kit/hooks.json`. Returns the file written. */
export async function writeHooksCache(root: string, hooks: CompiledHooks): Promise<string> {
  const file = join(root, HOOKS_CACHE_FILE);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(hooks, null, 2)}\n`);
  return file;
}

/**
 * The compiled hooks, or null when `kit agents` has not written them, or wrote them in an older
 * shape, or the file is unreadable: then `kit hook` loads the config instead.
 */
export async function readHooksCache(root: string): Promise<CompiledHooks | null> {
  const file = join(root, HOOKS_CACHE_FILE);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CompiledHooks> | null;
    const valid =
      parsed?.version === 2 &&
      typeof parsed.enabled === 'boolean' &&
      Array.isArray(parsed.push_commands) &&
      parsed.push_commands.every((command) => typeof command === 'string') &&
      (parsed.on_failure === 'block' || parsed.on_failure === 'allow');
    return valid ? (parsed as CompiledHooks) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a shell command may run one of the push commands, however it is spelled (see
 * {@link findPushCommand}); a part of it that cannot be read counts as a push, so it is checked.
 *
 * @example
 * isPushCommand('npm test && git -C app push --force', compileHooks(config)); // true
 */
export function isPushCommand(
  command: string | readonly string[],
  hooks: Pick<CompiledHooks, 'push_commands'>,
): boolean {
  return findPushCommand(command, hooks.push_commands) !== null;
}
