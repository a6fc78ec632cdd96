import type { Readable } from 'node:stream';
import { KitError } from '@kit/core';

/** The command `kit hook` checks: the words it was given, or a line from stdin. */
export type HookInput = readonly string[] | string;

/**
 * The command to check: `words` when given, else stdin, as plain text or as a coding agent's
 * hook JSON (`{"tool_input": {"command": "..."}}`, or `{"command": "..."}`). Null when there is no
 * shell command to check: nothing on stdin, or a hook call for a tool that runs no command (an
 * edit). JSON whose command is not a string is an error, never "nothing to check".
 */
export async function readHookInput(
  words: readonly string[],
  stdin: Readable & { isTTY?: boolean },
): Promise<HookInput | null> {
  if (words.length > 0) return words;
  if (stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return null;
  const json = text.startsWith('{') ? parseJson(text) : undefined;
  // Not JSON: a plain command line (a `{ ...; }` group among them).
  if (json === undefined) return text;
  const { tool_input: toolInput, command } = json as { tool_input?: { command?: unknown }; command?: unknown };
  const found = toolInput?.command !== undefined ? toolInput.command : command;
  if (found === undefined) return null;
  if (typeof found !== 'string') {
    throw new KitError(
      'argument.invalid',
      `The hook input's ${toolInput?.command !== undefined ? 'tool_input.command' : 'command'} is ${JSON.stringify(found)?.slice(0, 80)}, not a string: kit hook reads {"tool_input":{"command":"git push"}} (Claude Code) or {"command":"git push"}.`,
    );
  }
  return found;
}

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
