import type { Readable, Writable } from 'node:stream';
import type { KitEnv } from '@kit/core';

/**
 * Where a command reads and writes. The binary hands in the process streams; tests hand in their
 * own, so every command runs in-process exactly as it runs from a shell.
 */
export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
  env: KitEnv;
  cwd: string;
}

/** The process's own streams, environment and working directory. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** Writes one line (a newline is added). */
export function writeLine(stream: Writable, text = ''): void {
  stream.write(`${text}\n`);
}
