import { PassThrough, Readable } from 'node:stream';
import type { KitEnv } from '@kit/core';
import { runCli } from '../run.js';
import type { KitRun } from './kit-binary.js';

/**
 * Runs `kit ...args` in this process from the source (no build needed), with its own streams and
 * environment: what the binary does, minus `process.exit`.
 */
export async function runKitHere(
  args: string[],
  options: { cwd: string; env?: KitEnv; input?: string },
): Promise<KitRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const code = await runCli(args, {
    stdout,
    stderr,
    stdin: Readable.from([options.input ?? '']),
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd,
  });
  return { code, stdout: out, stderr: err };
}
