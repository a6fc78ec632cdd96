import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach } from 'vitest';

/** The repository root (`/work/main` here). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The launcher the `kit` bin entry points at; it runs the built dist. */
export const kitBin = join(repoRoot, 'packages/cli/bin/kit.js');

export interface KitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How a `kit` process is started besides its arguments. */
interface KitLaunch {
  /** Run the command from its TypeScript sources (no build needed) instead of the built binary. */
  fromSource?: boolean;
  /** Start it with this open-file limit (`ulimit -n`), as a server with a low limit runs. */
  openFiles?: number;
}

/** The program and arguments that start `kit ...args` as `launch` asks. */
function kitCommand(args: string[], launch: KitLaunch): [string, string[]] {
  const node = [...(launch.fromSource ? kitFromSource : [kitBin]), ...args];
  if (launch.openFiles === undefined) return [process.execPath, node];
  // The shell lowers its own limit, then becomes the command, which starts with that limit.
  return ['sh', ['-c', `ulimit -n ${launch.openFiles} && exec "$0" "$@"`, process.execPath, ...node]];
}

/** Runs the built `kit` binary as a user would: `node packages/cli/bin/kit.js ...args` in `cwd`. */
export function runKit(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string } & KitLaunch,
): Promise<KitRun> {
  if (!options.fromSource && !existsSync(join(repoRoot, 'packages/cli/dist/bin.js'))) {
    throw new Error('packages/cli/dist is missing: build first with pnpm --filter "@kit/*" build.');
  }
  const [program, argv] = kitCommand(args, options);
  return runProcess(program, argv, options);
}

/**
 * Runs a program to its end with `input` on stdin (none: stdin closed at once) and collects what it
 * wrote; `env` is added to this process's environment, an `undefined` value removing a variable.
 */
export function runProcess(
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string },
): Promise<KitRun> {
  return new Promise((resolvePromise, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...options.env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    const child = spawn(file, args, { cwd: options.cwd, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temporary folder, removed by the returned function. */
export async function tempProject(prefix = 'kit-cli-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes files (path relative to `root` → text), creating folders. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

/** A `kit` process that keeps running (serve, mcp), with its output so far. */
export interface KitProcess {
  child: import('node:child_process').ChildProcessWithoutNullStreams;
  output(): { stdout: string; stderr: string };
  /** Resolves with the stdout so far once it matches `pattern`. */
  waitFor(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

/**
 * Makes projects for one test file: each call writes `files` into a fresh temp folder, removed
 * after the test that made it.
 */
export function tempProjects(prefix: string): (files: Record<string, string>) => Promise<string> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  return async (files) => {
    const { dir, cleanup } = await tempProject(prefix);
    cleanups.push(cleanup);
    await writeFiles(dir, files);
    return dir;
  };
}

/** The `kit` command from its TypeScript sources (tsx, workspace sources): no build needed. */
const kitFromSource = [
  '--conditions=kit-source',
  // By path: `--import tsx` would be looked up from the project folder, which has no node_modules.
  '--import',
  pathToFileURL(createRequire(join(repoRoot, 'packages/cli/package.json')).resolve('tsx')).href,
  join(repoRoot, 'packages/cli/src/bin.ts'),
];

/**
 * Starts the built `kit` binary (with `fromSource`, the command from its sources, which needs no
 * build) and leaves it running; stop it with `child.kill()`.
 */
export function startKit(
  args: string[],
  options: { cwd: string; env?: Record<string, string> } & KitLaunch,
): KitProcess {
  const [program, argv] = kitCommand(args, options);
  const child = spawn(program, argv, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: (text: string) => void }> = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stdout)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(stdout);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolveExit) => child.on('close', (code) => resolveExit(code)));
  return {
    child,
    output: () => ({ stdout, stderr }),
    waitFor: (pattern) =>
      new Promise((resolveWait, reject) => {
        waiters.push({ pattern, resolve: resolveWait });
        check();
        void exited.then((code) => reject(new Error(`kit exited with ${code} before printing ${pattern}: ${stderr}`)));
      }),
    exited,
  };
}
