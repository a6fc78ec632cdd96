import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitProcess, runKit, startKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';
import { LIVE_RELOAD_PATH } from './live-reload.js';

describe('kit serve', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let server: KitProcess;
  let site: string;
  beforeAll(async () => {
    project = await tempProject('kit-serve-');
    await runKit(['init'], { cwd: project.dir });
    server = startKit(['serve', '--port', '0'], { cwd: project.dir });
    const printed = await server.waitFor(/Press Ctrl\+C to stop\./);
    site = /site\s+(http:\/\/\S+)/.exec(printed)![1]!;
  }, 180_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await project.cleanup();
  });

  it('prints the URLs of the site, the MCP endpoint and llms.txt, and serves them', async () => {
    const { stdout } = server.output();
    expect(stdout).toContain(`mcp       ${site}/mcp`);
    expect(stdout).toContain(`llms.txt  ${site}/llms.txt`);
    const page = await fetch(site);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Introduction');
    expect(html).toContain(LIVE_RELOAD_PATH);
    const llms = await fetch(`${site}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(await llms.text()).toContain('Introduction');
  });

  it('sends / to the default set, which is not mounted at the root', async () => {
    const home = await fetch(new URL('/', site), { redirect: 'manual' });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe(new URL(site).pathname);
  });

  it('refuses MCP calls that name another host, as a page on a rebinding domain sends', async () => {
    const call = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${site}/mcp`);
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
        const sent = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              Host: host,
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              'Content-Length': Buffer.byteLength(body),
            },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        sent.on('error', reject);
        sent.end(body);
      });
    const port = new URL(site).port;
    expect(await call(`evil.example:${port}`)).toBe(403);
    expect(await call(`localhost:${port}`)).not.toBe(403);
  });

  it('tells open pages to reload when a doc changes, and serves the new text', async () => {
    const origin = new URL(site).origin;
    const controller = new AbortController();
    const response = await fetch(`${origin}${LIVE_RELOAD_PATH}`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(received)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${received}`);
        received += value;
      }
    };
    await readUntil(/event: ready/);
    await writeFiles(project.dir, {
      'docs/index.md': '---\ntitle: Introduction\n---\n\n# Introduction\n\nFreshly edited paragraph.\n',
    });
    await readUntil(/event: reload/);
    controller.abort();
    const markdown = await fetch(`${site}/index.md`);
    expect(await markdown.text()).toContain('Freshly edited paragraph.');
  });
});

describe('kit serve with config keys that have no effect', () => {
  it('prints each config warning once on start', async () => {
    const { dir, cleanup } = await tempProject('kit-serve-warn-');
    let warned: KitProcess | null = null;
    try {
      await writeFiles(dir, {
        'kit.config.json': JSON.stringify({ sets: { docs: { ai: { ask: { rate_limit: '5,1' } } } } }),
        'docs/kit.json': '{ "name": "Docs" }',
        'docs/index.md': '# Home\n',
      });
      warned = startKit(['serve', '--port', '0', '--no-watch'], { cwd: dir });
      await warned.waitFor(/Press Ctrl\+C to stop\./);
      const { stderr } = warned.output();
      expect(stderr).toBe(
        'kit: warning: `sets.docs.ai.ask.rate_limit` has no effect in a set: only the top-level value is read.\n',
      );
    } finally {
      warned?.child.kill('SIGTERM');
      await warned?.exited;
      await cleanup();
    }
  }, 180_000);
});
