import type { KitConfigInput } from '@kit/core';
import { createFsSource } from '@kit/source-fs';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  agentApp,
  buildKit,
  get,
  ORIGIN,
  referenceFiles,
  useFsSource,
  viewerOf,
  writeTree,
} from './__fixtures__/kit.js';
import { siteRootRoutes } from './site-root.js';

useFsSource(createFsSource);

const STAFF = { authorization: 'Bearer staff' };

/** A public set and a set only staff may open (`access.mode: gate`, `viewKit` admits staff). */
function config(extra: Record<string, object> = {}): KitConfigInput {
  return {
    default: 'docs',
    sets: {
      docs: { source: { path: 'docs' } },
      internal: { source: { path: 'api' }, route: { prefix: 'internal' }, access: { mode: 'gate' } },
      ...extra,
    },
  } as KitConfigInput;
}

function rootApp(input: KitConfigInput, files?: Parameters<typeof siteRootRoutes>[0]['files']): Hono {
  const kit = buildKit(root, input);
  const app = new Hono();
  app.route(
    '/',
    siteRootRoutes({
      kit,
      viewerOf,
      origin: () => ORIGIN,
      originTrusted: () => true,
      ...(files ? { files } : {}),
    }),
  );
  app.route('/', agentApp(kit));
  return app;
}

let root: string;
beforeAll(() => {
  root = writeTree(referenceFiles);
});

describe('the site root’s llms.txt', () => {
  it('links each set’s own llms.txt and MCP endpoint, and never a set the guest may not open', async () => {
    const app = rootApp(config());
    const response = await get(app, '/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).toMatch(/^# Documentation\n\n> /);
    expect(text).toContain('- [Acme Docs](https://docs.test/docs/llms.txt)');
    expect(text).toContain('- [Acme Docs MCP server](https://docs.test/docs/mcp)');
    expect(text).not.toContain('internal');
    expect(text).not.toContain('Acme API');
    // Each listed llms.txt answers.
    expect((await get(app, '/docs/llms.txt')).status).toBe(200);
  });

  it('lists the gated set to a reader the gate admits, privately', async () => {
    const response = await get(rootApp(config()), '/llms.txt', STAFF);
    const text = await response.text();
    expect(text).toContain('- [Acme API](https://docs.test/internal/llms.txt): The Acme HTTP API.');
    expect(response.headers.get('cache-control')).toContain('private');
  });

  it('leaves /llms.txt to a set mounted at the root', async () => {
    const app = rootApp(config({ api: { source: { path: 'api' }, route: { prefix: '' } } }));
    const text = await (await get(app, '/llms.txt')).text();
    expect(text).toMatch(/^# Acme API/);
  });
});

describe('robots.txt', () => {
  it('names the sitemap of each set a guest may read, whoever asks', async () => {
    const app = rootApp(config({ off: { source: { path: 'big' }, agents: { sitemap: false } } }));
    for (const headers of [{}, STAFF]) {
      const response = await get(app, '/robots.txt', headers);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('User-agent: *\nDisallow:\n\nSitemap: https://docs.test/docs/sitemap.xml\n');
    }
    expect((await get(app, '/docs/sitemap.xml')).status).toBe(200);
  });

  it('is left to the host application when turned off', async () => {
    const app = rootApp(config(), { robotsTxt: false });
    expect(await (await get(app, '/robots.txt')).text()).toBe('fell through to the page routes');
  });
});

describe('the MCP catalog at /.well-known/mcp', () => {
  it('lists a server card per set the caller can open, at <endpoint>/server-card', async () => {
    const app = rootApp(config());
    for (const path of ['/.well-known/mcp', '/.well-known/mcp/catalog.json']) {
      const response = await get(app, path);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        specVersion: 'draft',
        entries: [
          {
            identifier: 'urn:mcp:server:test.docs/docs',
            displayName: 'Acme Docs',
            mediaType: 'application/mcp-server+json',
            url: 'https://docs.test/docs/mcp/server-card',
          },
        ],
      });
    }
    const staff = (await (await get(app, '/.well-known/mcp', STAFF)).json()) as { entries: Array<{ url: string }> };
    expect(staff.entries.map((entry) => entry.url)).toEqual([
      'https://docs.test/docs/mcp/server-card',
      'https://docs.test/internal/mcp/server-card',
    ]);
  });

  it('answers the default set’s card at /.well-known/mcp/server-card.json, and 404 with no endpoint', async () => {
    const app = rootApp(config());
    const response = await get(app, '/.well-known/mcp/server-card.json');
    expect(response.headers.get('content-type')).toBe('application/mcp-server+json; charset=utf-8');
    const card = (await response.json()) as { name: string; remotes: Array<{ url: string }> };
    expect(card.name).toBe('test.docs/docs');
    expect(card.remotes[0]!.url).toBe('https://docs.test/docs/mcp');
    const off = rootApp({
      sets: { docs: { source: { path: 'docs' }, mcp: { web: { enabled: false } } } },
    } as KitConfigInput);
    expect((await get(off, '/.well-known/mcp')).status).toBe(404);
    expect((await get(off, '/.well-known/mcp/server-card.json')).status).toBe(404);
  });
});
