// The reference server as the README's first command starts it (`pnpm start`: tsx running
// src/main.ts from source), as a real process on the Node.js that runs this test. CI runs this file
// on the oldest supported Node.js line too, so a fresh clone is known to start there.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const serverRoot = resolve(import.meta.dirname, '..');
const startScript = (
  (await import('../package.json', { with: { type: 'json' } })) as { default: { scripts: { start: string } } }
).default.scripts.start;

/** The environment of a user's shell: no Kit settings or test-runner variables leak in. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(KIT_|VITEST|NODE_OPTIONS$)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1' };
}

/** Resolves with the port the server printed in its ready line, or rejects with what it printed. */
function readyPort(child: ChildProcess): Promise<number> {
  return new Promise((resolvePort, reject) => {
    let printed = '';
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /ready in \d+ ms\n\s+docs: http:\/\/localhost:(\d+)\/docs/.exec(printed);
      if (match) resolvePort(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${printed}`)));
  });
}

describe(`the reference server started as \`pnpm start\` does, on Node.js ${process.versions.node}`, () => {
  let child: ChildProcess;
  let base: string;

  beforeAll(async () => {
    // `pnpm start` runs one Node.js process with tsx as its loader (not the tsx CLI, whose parent
    // process gives the server 30 ms to take a signal before it kills it outright); the same here.
    expect(startScript).toBe('node --conditions=kit-source --import tsx src/main.ts');
    child = spawn(process.execPath, ['--conditions=kit-source', '--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      env: shellEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    base = `http://127.0.0.1:${await readyPort(child)}`;
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves the docs landing page and its Markdown twin', async () => {
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('type="text/markdown" href="/docs/index.md"');
    const twin = await fetch(`${base}/docs/index.md`);
    expect(twin.status).toBe(200);
    expect(twin.headers.get('content-type')).toContain('text/markdown');
  });

  it('answers an MCP initialize with the installed version', async () => {
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const mcpManifest = (await import('../../../packages/mcp/package.json', { with: { type: 'json' } })) as {
      default: { version: string };
    };
    expect(text).toContain(`"serverInfo":{"name":"kit","title":"Kit docs","version":"${mcpManifest.default.version}"`);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
