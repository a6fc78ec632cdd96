// Kit in a team's own project, as the README's Quick start (block 3) tells a new user: pack every
// package from this repository, install the tarballs with npm in a project outside the repository,
// then `npx kit init`, a page with an image, `npx kit validate`, `npx kit serve` and a real MCP
// client over `npx kit mcp`. A second project installs the same tarballs with pnpm. Each package's
// tarball also passes publint and @arethetypeswrong/cli. The commands run are read from the README,
// so the README cannot drift from what works.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { problemAffectsResolutionKind } from '@arethetypeswrong/core/problems';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The lines of the fenced `sh` block of the README that contains `marker`, comments left out. */
function readmeCommands(marker: string): string[] {
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).find((b) => b.includes(marker));
  if (!block) throw new Error(`README.md has no sh block containing "${marker}"`);
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const OWN_PROJECT = readmeCommands('# 3. Use Kit in your own project');
const WITH_PNPM = readmeCommands('pnpm.overrides');

/** A 1×1 PNG: the picture the new page shows. */
const LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The environment of a user's shell: no test runner or pnpm script variables (`pnpm test` sets
 * npm_config_* and INIT_CWD, which npm and Kit would otherwise read), no Kit test settings.
 */
function userEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|INIT_CWD$|VITEST|NODE_OPTIONS$|KIT_|TURBO_|FORCE_COLOR$)/i.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    NO_COLOR: '1',
    // Quieter and quicker installs; none of these change what is installed.
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    KIT_TEST_HOME: home,
  };
}

interface Shell {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** `~/` in a README line means the test's own home folder. */
const inHome = (line: string, home: string) => line.replaceAll('~/', `${home}/`);

/** Runs one README line in bash, as a user would type it; `cd` moves the shell. */
function run(shell: Shell, line: string): Promise<{ stdout: string; stderr: string }> {
  const cd = /^cd\s+(.+)$/.exec(line);
  if (cd) {
    shell.cwd = resolve(shell.cwd, cd[1]!);
    return Promise.resolve({ stdout: '', stderr: '' });
  }
  return new Promise((resolvePromise, reject) => {
    execFile(
      'bash',
      ['-c', line],
      { cwd: shell.cwd, env: shell.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`\`${line}\` in ${shell.cwd} failed (${error.code}):\n${stdout}\n${stderr}`));
        else resolvePromise({ stdout, stderr });
      },
    );
  });
}

/** Starts a long-running README line (`npx kit serve`) in its own process group, to stop it whole. */
function start(shell: Shell, line: string): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn('bash', ['-c', `exec ${line}`], { cwd: shell.cwd, env: shell.env, detached: true });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolveExit) => child.on('close', () => resolveExit()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      await exited;
    },
  };
}

async function waitFor<T>(what: string, read: () => T | null, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

const GUIDE = `---
title: Guide
description: How the team ships, with the logo.
---

# Guide

Our logo:

![The team logo](images/logo.png)
`;

/**
 * What publint and @arethetypeswrong find in one tarball: publint's messages (warnings count, as
 * with --strict) and attw's problems, for ESM-only packages (attw's `esm-only` profile: CommonJS
 * require() and node10 resolution are out of scope on purpose).
 */
async function checkTarball(file: string): Promise<{ tarball: string; publint: string[]; attw: string[] }> {
  const data = await readFile(file);
  const tarball = new Uint8Array(data);
  const { messages } = await publint({ pack: { tarball: tarball.slice().buffer }, strict: true });
  const pkg = createPackageFromTarballData(tarball);
  const analysis = await checkPackage(pkg);
  const problems =
    analysis.types === false
      ? ['no types']
      : analysis.problems
          .filter((problem) =>
            (['node16-esm', 'bundler'] as const).some((kind) => problemAffectsResolutionKind(problem, kind, analysis)),
          )
          .map((problem) => JSON.stringify(problem));
  return {
    tarball: file.split('/').at(-1)!,
    publint: messages.map((message) => `${message.type} ${message.code} ${JSON.stringify(message.args)}`),
    attw: problems,
  };
}

describe('Kit in a team’s own project, following the README', () => {
  let home: string;
  let packages: string;
  let project: Shell;
  let packedNames: string[] = [];
  let packageChecks: Promise<Array<{ tarball: string; publint: string[]; attw: string[] }>> = Promise.resolve([]);
  let serve: ReturnType<typeof start> | null = null;
  let origin = '';
  const results: Record<string, { stdout: string; stderr: string }> = {};

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'kit-own-project-'));
    packages = join(home, 'kit-packages');
    // The user's project: any folder with a package.json.
    await mkdir(join(home, 'my-project'));
    await writeFile(
      join(home, 'my-project', 'package.json'),
      `${JSON.stringify({ name: 'my-project', version: '1.0.0', private: true }, null, 2)}\n`,
    );
    await mkdir(join(home, 'my-pnpm-project'));
    await writeFile(
      join(home, 'my-pnpm-project', 'package.json'),
      `${JSON.stringify({ name: 'my-pnpm-project', version: '1.0.0', private: true }, null, 2)}\n`,
    );

    const shell: Shell = { cwd: repoRoot, env: userEnv(home) };
    project = shell;
    const lines = OWN_PROJECT.map((line) => inHome(line, home));
    // The repository side: pack every package (the first line, run in the clone).
    expect(lines[0]).toContain('pack:packages');
    // `pnpm test` built every package just before: packing must not rebuild dist/ under the other tests.
    results.pack = await run({ ...shell, env: { ...shell.env, KIT_PACK_BUILT: '1' } }, lines[0]!);
    packedNames = readdirSync(packages)
      .filter((name) => name.endsWith('.tgz'))
      .sort();
    // The linters run while the projects install; their findings are read by their own test.
    packageChecks = (async () => {
      const findings = [];
      for (const name of packedNames) findings.push(await checkTarball(join(packages, name)));
      return findings;
    })();
    packageChecks.catch(() => undefined);

    // The pnpm project installs beside the npm one.
    const pnpmShell: Shell = { cwd: join(home, 'my-pnpm-project'), env: userEnv(home) };
    const pnpmInstall = (async () => {
      for (const line of WITH_PNPM) results[line] = await run(pnpmShell, inHome(line, home));
      results.pnpmInit = await run(pnpmShell, 'pnpm exec kit init');
      results.pnpmValidate = await run(pnpmShell, 'pnpm exec kit validate');
    })();

    // The project side, line by line up to `npx kit serve`; a page with an image goes in after init.
    for (const line of lines.slice(1)) {
      if (line.startsWith('npx kit serve')) break;
      if (line.startsWith('npx kit validate')) {
        await mkdir(join(shell.cwd, 'docs', 'images'), { recursive: true });
        await writeFile(join(shell.cwd, 'docs', 'guide.md'), GUIDE);
        await writeFile(join(shell.cwd, 'docs', 'images', 'logo.png'), LOGO);
        const navigationFile = join(shell.cwd, 'docs', 'navigation.json');
        const navigation = JSON.parse(await readFile(navigationFile, 'utf8'));
        navigation.groups[0].pages.push('guide');
        await writeFile(navigationFile, `${JSON.stringify(navigation, null, 2)}\n`);
      }
      results[line] = await run(shell, line);
    }
    await pnpmInstall;
  }, 900_000);

  afterAll(async () => {
    await serve?.stop();
    await packageChecks.catch(() => undefined);
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('follows the README word for word: pack, install the tarballs with npm, init, validate, serve', () => {
    expect(OWN_PROJECT).toEqual([
      'npx -y pnpm@10 pack:packages ~/kit-packages',
      'cd ~/my-project',
      'npm install -D ~/kit-packages/*.tgz',
      'npx kit init',
      'npx kit validate',
      'npx kit serve',
    ]);
    expect(WITH_PNPM).toEqual([
      'npm pkg set --json "pnpm.overrides=$(cat ~/kit-packages/pnpm-overrides.json)"',
      'pnpm add -D ~/kit-packages/*.tgz',
    ]);
  });

  it('packs one tarball per package, whose exports point at dist/', async () => {
    expect(packedNames).toEqual(
      ['ai', 'cli', 'core', 'http-hono', 'mcp', 'node', 'render', 'search', 'source-db', 'source-fs'].map((name) => {
        const { version } = JSON.parse(readFileSync(join(repoRoot, 'packages', name, 'package.json'), 'utf8'));
        return `kit-${name}-${version}.tgz`;
      }),
    );
    const installed = join(project.cwd, 'node_modules', '@kit');
    for (const name of readdirSync(installed)) {
      const manifest = JSON.parse(await readFile(join(installed, name, 'package.json'), 'utf8'));
      const targets = JSON.stringify(manifest.exports);
      expect(targets, name).not.toContain('kit-source');
      expect(targets, name).not.toContain('./src/');
      for (const entry of Object.values(manifest.exports as Record<string, { default: string }>)) {
        expect(existsSync(join(installed, name, entry.default)), `${name} ${entry.default}`).toBe(true);
      }
    }
  });

  it('installs no database driver or Redis client into a project that uses none', () => {
    const modules = join(project.cwd, 'node_modules');
    expect(existsSync(join(modules, '@electric-sql', 'pglite'))).toBe(false);
    expect(existsSync(join(modules, 'pg'))).toBe(false);
    expect(existsSync(join(modules, 'ioredis'))).toBe(false);
  });

  it('passes publint and @arethetypeswrong for every tarball', async () => {
    const findings = await packageChecks;
    expect(findings).toEqual(packedNames.map((tarball) => ({ tarball, publint: [], attw: [] })));
  });

  // CI runs this file on the newest and on the oldest supported Node.js line: the project must run on
  // the line under test, not on one a pnpm script put first on the PATH.
  it(`runs the project on the Node.js that runs this test (${process.version})`, async () => {
    expect((await run(project, 'node --version')).stdout.trim()).toBe(process.version);
    expect((await run(project, 'npx kit --version')).stdout.trim()).not.toBe('');
    const engines = JSON.parse(
      await readFile(join(project.cwd, 'node_modules', '@kit', 'core', 'package.json'), 'utf8'),
    ).engines;
    expect(engines).toEqual({ node: '>=22.12' });
  });

  it('starts the project with npx kit init, in the folder the user stands in', async () => {
    expect(results['npx kit init']?.stdout).toContain('created  kit.config.ts');
    expect(existsSync(join(project.cwd, 'kit.config.ts'))).toBe(true);
    expect(existsSync(join(project.cwd, 'docs', 'index.md'))).toBe(true);
  });

  it('validates the new page with no errors', () => {
    expect(results['npx kit validate']?.stdout).toContain('No problems found');
  });

  it('prints its version with npx kit --version and -v', async () => {
    const version = JSON.parse(
      await readFile(join(project.cwd, 'node_modules', '@kit', 'cli', 'package.json'), 'utf8'),
    ).version;
    expect((await run(project, 'npx kit --version')).stdout.trim()).toBe(version);
    expect((await run(project, 'npx kit -v')).stdout.trim()).toBe(version);
  });

  it('serves the page over npx kit serve, and / leads to it', async () => {
    // The README's line, on a free port: 4000 may be taken on a shared machine.
    expect(OWN_PROJECT).toContain('npx kit serve');
    serve = start(project, 'npx kit serve --port 0');
    const server = serve;
    origin = await waitFor(
      'npx kit serve to print its URL',
      () => /site\s+(http:\/\/[^/\s]+)\/docs/.exec(server.output())?.[1] ?? null,
      120_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${server.output()}`);
    });
    const home = await fetch(`${origin}/`, { redirect: 'manual' });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/docs');
    const page = await fetch(`${origin}/docs/guide`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1');
    expect(html).toContain('The team logo');
  }, 180_000);

  // Needs the static files beside pages (the assets work of issue #16): the <img> of the page must
  // lead to the very file next to it.
  it('serves the image of the page at the address its <img> names', async () => {
    expect(origin).not.toBe('');
    const html = await (await fetch(`${origin}/docs/guide`)).text();
    const src = /<img[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    const image = await fetch(new URL(src!.replaceAll('&amp;', '&'), `${origin}/docs/guide`));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/png/);
    expect(Buffer.from(await image.arrayBuffer()).equals(LOGO)).toBe(true);
  }, 60_000);

  it('answers a real MCP client over npx kit mcp', async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['kit', 'mcp'],
      cwd: project.cwd,
      env: project.env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'own-project-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const mcpVersion = JSON.parse(
        await readFile(join(project.cwd, 'node_modules', '@kit', 'mcp', 'package.json'), 'utf8'),
      ).version;
      expect(client.getServerVersion()).toMatchObject({ name: 'kit', version: mcpVersion });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['search_docs', 'read_page', 'list_pages']),
      );
      const found = await client.callTool({ name: 'search_docs', arguments: { query: 'logo' } });
      expect(found.isError ?? false).toBe(false);
      expect(JSON.stringify(found.content)).toContain('guide');
      const read = await client.callTool({ name: 'read_page', arguments: { path: 'guide' } });
      expect(read.isError ?? false).toBe(false);
      expect(JSON.stringify(read.content)).toContain('Our logo');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('installs the same tarballs with pnpm, and kit runs there too', () => {
    expect(results.pnpmInit?.stdout).toContain('created  kit.config.ts');
    expect(results.pnpmValidate?.stdout).toContain('No problems found');
  });
});
