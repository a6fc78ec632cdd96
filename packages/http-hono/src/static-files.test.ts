import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';
import { solidPng } from './testing/png.js';

const flow = solidPng(3, 2, [0, 128, 255]);
const chart = solidPng(2, 2, [255, 0, 0]);
const darkLogo = solidPng(4, 1, [20, 20, 20]);
const favicon = solidPng(1, 1, [0, 170, 119]);
const plan = solidPng(1, 1, [1, 2, 3]);
const large = Uint8Array.from({ length: 3 * 1024 * 1024 + 11 }, (_, index) => (index * 7 + (index >> 10)) & 0xff);
const logoSvg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="10"><rect width="40" height="10"/></svg>';

const files: Record<string, string | Uint8Array> = {
  'site/kit.json': JSON.stringify({
    name: 'Files',
    versions: ['3.x', { id: '4.x', visibility: 'private' }],
    locales: ['en', 'ar'],
    logo: { light: 'brand/logo.svg', dark: 'brand/logo-dark.png' },
    favicon: 'brand/favicon.png',
  }),
  'site/brand/logo.svg': logoSvg,
  'site/brand/logo-dark.png': darkLogo,
  'site/brand/favicon.png': favicon,
  'site/brand/unnamed.png': flow,
  'site/3.x/index.md': '# Home\n\n![Flow](./images/flow.png)\n\nGet [the guide](./downloads/guide.pdf).\n',
  'site/3.x/guides/index.md': '# Guides\n\n![Chart](./chart.png)\n',
  'site/3.x/guides/chart.png': chart,
  'site/3.x/images/flow.png': flow,
  'site/3.x/downloads/guide.pdf': '%PDF-1.4\n%fake but typed\n',
  'site/3.x/downloads/tool.bin': new Uint8Array([0, 1, 2, 3]),
  'site/3.x/downloads/widget.html': '<script>alert(1)</script>',
  'site/3.x/downloads/feed.xml': '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
  'site/3.x/downloads/large.bin': large,
  'site/3.x/.env': 'TOKEN=hunter2\n',
  'site/3.x/.git/config': '[core]\n',
  'site/3.x/keys/deploy.key': 'PRIVATE KEY\n',
  'site/3.x/ar/index.md': '# الرئيسية\n\n![Flow](./images/flow.png)\n',
  'site/4.x/index.md': '# Next\n',
  'site/4.x/images/plan.png': plan,
  'outside/leak.png': 'not part of the docs\n',
};

const root = mkdtempSync(join(tmpdir(), 'kit-files-'));
for (const [name, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, name)), { recursive: true });
  writeFileSync(join(root, name), content);
}
symlinkSync(join(root, 'outside/leak.png'), join(root, 'site/3.x/images/leak.png'));
symlinkSync(join(root, 'site/3.x/.env'), join(root, 'site/3.x/images/env.png'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const kit = fixtureKit(
  {
    sets: {
      docs: { route: { prefix: 'docs' }, source: { path: 'site' } },
      team: { route: { prefix: 'team' }, source: { path: 'site' }, access: { mode: 'auth' } },
    },
  },
  { root },
);
const app = createKitApp({ kit, cacheDir: null });
const staff = { Authorization: 'Bearer staff' };
const hashOf = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

beforeAll(async () => {
  await app.request('/docs');
});

describe('files beside the pages', () => {
  it('serves an image with its content type, a strong ETag and revalidation caching', async () => {
    const response = await app.request('/docs/images/flow.png');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('etag')).toBe(`"${hashOf(flow).slice(0, 32)}"`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Array.from(await bytesOf(response))).toEqual(Array.from(flow));
    // The same file under the version's own segment.
    expect((await app.request('/docs/3.x/images/flow.png')).status).toBe(200);
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await app.request('/docs/images/flow.png');
    const etag = first.headers.get('etag')!;
    const again = await app.request('/docs/images/flow.png', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('answers HEAD with the headers and no body, and a changed file with a new ETag', async () => {
    const head = await app.request('/docs/downloads/guide.pdf', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/pdf');
    expect(await head.text()).toBe('');
    const before = (await app.request('/docs/downloads/guide.pdf')).headers.get('etag');
    writeFileSync(join(root, 'site/3.x/downloads/guide.pdf'), '%PDF-1.4\n%second edition, longer\n');
    const after = await app.request('/docs/downloads/guide.pdf', { headers: { 'If-None-Match': before! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(await after.text()).toContain('second edition');
  });

  it('caches a URL carrying the current content hash for a year, and a stale hash only with revalidation', async () => {
    const hash = hashOf(flow).slice(0, 12);
    const hashed = await app.request(`/docs/images/flow.png?v=${hash}`);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await app.request('/docs/images/flow.png?v=000000000000');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('types PDFs for the browser, and sends unknown or runnable types as downloads', async () => {
    const pdf = await app.request('/docs/downloads/guide.pdf');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBeNull();
    const binary = await app.request('/docs/downloads/tool.bin');
    expect(binary.headers.get('content-type')).toBe('application/octet-stream');
    expect(binary.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''tool.bin");
    const html = await app.request('/docs/downloads/widget.html');
    expect(html.headers.get('content-type')).toBe('application/octet-stream');
    expect(html.headers.get('content-disposition')).toContain('attachment');
  });

  it('serves SVG with a Content-Security-Policy that runs no script', async () => {
    const view = await app.request('/docs');
    const logoUrl = /<img class="kit-logo kit-logo-light" src="([^"]+)"/.exec(await view.text())![1]!;
    const svg = await app.request(logoUrl);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it('serves XML, which a browser runs as XHTML, with the same policy', async () => {
    const xml = await app.request('/docs/downloads/feed.xml');
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(xml.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it('streams a large file whole', async () => {
    const response = await app.request('/docs/downloads/large.bin');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(large.byteLength));
    expect(response.body).toBeInstanceOf(ReadableStream);
    const bytes = await bytesOf(response);
    expect(bytes.byteLength).toBe(large.byteLength);
    expect(hashOf(bytes)).toBe(hashOf(large));
  });

  it('refuses traversal, encoded slashes, symlinks out of the folder, dotfiles, secrets and Markdown sources', async () => {
    for (const path of [
      '/docs/../outside/leak.png',
      '/docs/%2e%2e/outside/leak.png',
      '/docs/images%2fflow.png',
      '/docs/images%5cflow.png',
      '/docs/images/leak.png',
      '/docs/images/env.png',
      '/docs/.env',
      '/docs/3.x/.env',
      '/docs/.git/config',
      '/docs/keys/deploy.key',
      '/docs/navigation.json',
      '/docs/4.x/images/plan.png',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toMatch(/hunter2|PRIVATE KEY|not part of the docs|\[core\]/);
    }
    // A page's `.md` URL is its rendered twin, never the source file.
    const twin = await app.request('/docs/guides/index.md');
    expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await twin.text()).toMatch(/content_hash: sha256:/);
  });

  it('looks for a translation’s file beside its own pages, then beside the default locale’s', async () => {
    const response = await app.request('/docs/ar/images/flow.png');
    expect(response.status).toBe(200);
    expect(Array.from(await bytesOf(response))).toEqual(Array.from(flow));
  });

  it('serves a private version’s files only to readers the version admits, privately', async () => {
    expect((await app.request('/docs/4.x/images/plan.png')).status).toBe(404);
    const allowed = await app.request('/docs/4.x/images/plan.png', { headers: staff });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('cache-control')).toBe('private, no-cache');
    expect(Array.from(await bytesOf(allowed))).toEqual(Array.from(plan));
  });

  it('asks a guest of an auth set to sign in for a file, as for a page', async () => {
    const guest = await app.request('/team/images/flow.png');
    expect(guest.status).toBe(401);
    const signedIn = await app.request('/team/images/flow.png', { headers: { Authorization: 'Bearer reader' } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');
  });
});

describe('links to files in pages', () => {
  it('writes image and file links at their served URLs in the HTML and absolute in the agent Markdown', async () => {
    const html = await (await app.request('/docs')).text();
    expect(html).toContain('<img src="/docs/images/flow.png" alt="Flow">');
    expect(html).toContain('href="/docs/downloads/guide.pdf"');
    const guides = await (await app.request('/docs/guides')).text();
    expect(guides).toContain('<img src="/docs/guides/chart.png" alt="Chart">');
    expect((await app.request('/docs/3.x/guides/chart.png')).status).toBe(200);
    // The twin links files as it links pages: on the set's origin (none is configured here).
    const twin = await (await app.request('/docs/index.md')).text();
    expect(twin).toContain('![Flow](/docs/images/flow.png)');
    expect(twin).toContain('[the guide](/docs/downloads/guide.pdf)');
  });
});

describe('logo and favicon', () => {
  it('points the logo (light and dark) and the favicon at content-hashed URLs that serve them for a year', async () => {
    const html = await (await app.request('/docs')).text();
    const light = /<img class="kit-logo kit-logo-light" src="([^"]+)"/.exec(html)![1]!;
    const dark = /<img class="kit-logo kit-logo-dark" src="([^"]+)"/.exec(html)![1]!;
    const icon = /<link rel="icon" href="([^"]+)"/.exec(html)![1]!;
    expect(light).toBe(`/docs/_kit/file/${hashOf(logoSvg).slice(0, 12)}/brand/logo.svg`);
    expect(dark).toBe(`/docs/_kit/file/${hashOf(darkLogo).slice(0, 12)}/brand/logo-dark.png`);
    expect(icon).toBe(`/docs/_kit/file/${hashOf(favicon).slice(0, 12)}/brand/favicon.png`);
    for (const url of [light, dark, icon]) {
      const response = await app.request(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
    }
    // Only the files the manifest names are served there.
    expect((await app.request(`/docs/_kit/file/${hashOf(flow).slice(0, 12)}/brand/unnamed.png`)).status).toBe(404);
    expect((await app.request('/docs/_kit/file/x/kit.json')).status).toBe(404);
  });

  it('uses a logo written as a URL as written, and leaves out one whose file is missing', async () => {
    const other = fixtureKit(
      {
        sets: { docs: { route: { prefix: 'docs' }, source: { path: 'plain' } } },
      },
      { root },
    );
    mkdirSync(join(root, 'plain'), { recursive: true });
    writeFileSync(
      join(root, 'plain/kit.json'),
      JSON.stringify({
        logo: { light: 'https://cdn.example.com/logo.svg', dark: '/static/dark.svg' },
        favicon: 'gone.png',
      }),
    );
    writeFileSync(join(root, 'plain/index.md'), '# Plain\n');
    const html = await (await createKitApp({ kit: other, cacheDir: null }).request('/docs')).text();
    expect(html).toContain('src="https://cdn.example.com/logo.svg"');
    expect(html).toContain('src="/static/dark.svg"');
    expect(html).not.toContain('gone.png');
  });
});
