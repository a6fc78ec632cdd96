import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ResolvedConfig } from '@kit/core';

/** Where `kit agents` compiles the push commands for `kit hook`, relative to the project root. */
export const HOOKS_CACHE_FILE = '.kit/hooks.json';

/** The compiled hook settings `kit hook` reads. */
export interface CompiledHooks {
  version: 1;
  enabled: boolean;
  push_commands: string[];
  /** One regular expression source per push command, matched against each part of a shell command. */
  patterns: string[];
}

/**
 * Compiles `hooks.push_commands` to patterns: words match as whole words separated by any
 * whitespace, so `git  push origin main` and `FOO=1 git push` match `git push`, while
 * `git push-docs` and `echo "git pushed"` do not.
 */
export function compileHooks(config: Pick<ResolvedConfig, 'hooks'>): CompiledHooks {
  return {
    version: 1,
    enabled: config.hooks.enabled,
    push_commands: [...config.hooks.push_commands],
    patterns: config.hooks.push_commands.map(commandPattern),
  };
}

function commandPattern(command: string): string {
  const words = command.trim().split(/\s+/).filter(Boolean).map(escapeRegExp);
  // Optional env assignments and `command`/`exec` wrappers may come first.
  return `^(?:[A-Za-z_][A-Za-z0-9_]*=\\S*\\s+)*(?:(?:command|exec|sudo)\\s+)?${words.join('\\s+')}(?:\\s|$)`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Writes the compiled hooks into `<root>/.kit/hooks.json`. Returns the file written. */
export async function writeHooksCache(root: string, hooks: CompiledHooks): Promise<string> {
  const file = join(root, HOOKS_CACHE_FILE);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(hooks, null, 2)}\n`);
  return file;
}

/** The compiled hooks, or null when `kit agents` has not written them (or the file is unreadable). */
export async function readHooksCache(root: string): Promise<CompiledHooks | null> {
  const file = join(root, HOOKS_CACHE_FILE);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as CompiledHooks;
    return parsed && parsed.version === 1 && Array.isArray(parsed.patterns) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Whether a shell command runs one of the push commands: each part of a command line
 * (split at `&&`, `||`, `;`, `|` and newlines) is matched on its own.
 *
 * @example
 * isPushCommand('npm test && git push origin HEAD', compileHooks(config)); // true
 */
export function isPushCommand(command: string, hooks: Pick<CompiledHooks, 'patterns'>): boolean {
  const patterns = hooks.patterns.map((source) => new RegExp(source));
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((part) => part.trim().replace(/^\(+\s*/, ''))
    .some((part) => patterns.some((pattern) => pattern.test(part)));
}
