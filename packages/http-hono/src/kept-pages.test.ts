import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kit, KitConfigInput } from '@kit/core';
import { Hono, type MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

// A page kept in a watched set's response cache is answered before Kit's routes and middleware
// run (see keptPage in app.ts). What a reader or an operator sees must not change with it.

let root: string;
const kits: Kit[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kit-kept-pages-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs/kit.json'), JSON.stringify({ name: 'Kept Docs' }));
  writeFileSync(join(root, 'docs/index.md'), '---\ntitle: Home\n---\n# Home\n\nWelcome.\n');
  writeFileSync(join(root, 'docs/mcp.md'), '---\ntitle: MCP\n---\n# Model Context Protocol\n\nConnect agents.\n');
  writeFileSync(
    join(root, 'docs/guide.md'),
    '---\ntitle: Guide\n---\n# Guide\n\nIntro.\n\n## Install\n\nRun the installer.\n\n## Configure\n\nEdit the file.\n',
  );
});

afterAll(async () => {
  for (const kit of kits) await kit.close();
  rmSync(root, { recursive: true, force: true });
});

/** A Kit app over the fixture folder, watched (so its pages are kept), with `input` merged in. */
function watchedApp(input: Partial<KitConfigInput> = {}, routeMiddleware?: string[]) {
  const route = { prefix: 'docs', ...(routeMiddleware ? { middleware: routeMiddleware } : {}) };
  const kit = fixtureKit({ ...input, sets: { docs: { route, source: { path: 'docs' } } } }, { root, watch: true });
  kits.push(kit);
  return createKitApp({ kit, cacheDir: null });
}

describe('pages answered from the response cache', () => {
  it('keeps the MCP endpoint for MCP clients after a browser opened the page at its path', async () => {
    const app = watchedApp();
    for (let round = 0; round < 2; round++) {
      const page = await app.request('http://localhost/docs/mcp', { headers: { Accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Connect agents.');
    }
    const stream = await app.request('http://localhost/docs/mcp', { headers: { Accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
  });

  it("runs the application's route middleware on every request, repeats included", async () => {
    let calls = 0;
    const stamp: MiddlewareHandler = async (c, next) => {
      calls += 1;
      c.header('X-Stamp', `call ${calls}`);
      await next();
    };
    const app = watchedApp({ middleware: { stamp } }, ['web', 'stamp']);
    const first = await app.request('http://localhost/docs/guide');
    const second = await app.request('http://localhost/docs/guide');
    expect(await second.text()).toBe(await first.text());
    expect(calls).toBe(2);
    expect(second.headers.get('x-stamp')).toBe('call 2');
    expect(second.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps the headers an enclosing application sets before Kit answers', async () => {
    const outer = new Hono();
    outer.use('*', async (c, next) => {
      c.header('X-Frame-Options', 'DENY');
      await next();
    });
    outer.route('/', watchedApp());
    const first = await outer.request('http://localhost/docs/guide');
    const second = await outer.request('http://localhost/docs/guide', {
      headers: { 'If-None-Match': first.headers.get('etag')! },
    });
    const third = await outer.request('http://localhost/docs/guide');
    expect(second.status).toBe(304);
    for (const response of [first, second, third]) expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(third.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(third.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('answers part of a Markdown twin after the whole twin was kept', async () => {
    const app = watchedApp();
    const whole = await (await app.request('http://localhost/docs/guide.md')).text();
    expect(whole).toContain('Edit the file.');
    await app.request('http://localhost/docs/guide.md');
    const part = await (await app.request('http://localhost/docs/guide.md?section=install')).text();
    expect(part).toContain('Run the installer.');
    expect(part).not.toContain('Edit the file.');
  });

  it('asks the application who the reader is on every request', async () => {
    let asked = 0;
    const app = watchedApp({
      resolveUser: () => {
        asked += 1;
        return null;
      },
    });
    await app.request('http://localhost/docs/guide');
    await app.request('http://localhost/docs/guide');
    await app.request('http://localhost/docs/guide');
    expect(asked).toBe(3);
  });
});
