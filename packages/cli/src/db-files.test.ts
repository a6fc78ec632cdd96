import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { createLocalDisk, type DbContentSource, writeAsset, writeManifest, writePage } from '@kit/source-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';

// A database set's assets are served like a repository set's files: from the assets table (bytes in
// the row) or from the set's disk, with the same URLs, types, ETags and access rules.
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7]);
const large = Uint8Array.from({ length: 2 * 1024 * 1024 + 5 }, (_, index) => (index * 13) & 0xff);
const logo = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

function databaseSetServesFiles(name: string, url: string | undefined) {
  describe(name, () => {
    // A set key of its own, so runs sharing one PostgreSQL never see each other's rows.
    const key = `files_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    let project: Awaited<ReturnType<typeof tempProject>>;
    let kit: LoadedKit;
    let app: ReturnType<typeof createKitApp>;
    beforeAll(async () => {
      project = await tempProject('kit-db-files-');
      const connection = url ? `connections: { default: { url: ${JSON.stringify(url)} } },` : '';
      await writeFiles(project.dir, {
        'kit.config.mjs': `export default {
  ${connection}
  default: '${key}',
  sets: { ${key}: { route: { prefix: 'docs' }, source: { driver: 'database' } } },
  gates: { viewKit: (user) => user?.role === 'staff' },
  resolveUser: (request) => (request.headers.get('authorization') === 'Bearer staff' ? { id: 's', role: 'staff' } : null),
};
`,
      });
      kit = await loadKit({ cwd: project.dir, env: {} });
      const { db } = kit.set(key).source as DbContentSource;
      const disk = createLocalDisk({ root: join(project.dir, '.kit/assets'), name: 'local' });
      await writeManifest(db, key, {
        manifest: { name: 'Files', versions: ['2.x', { id: '3.x', visibility: 'private' }], logo: 'brand/logo.svg' },
      });
      await writePage(db, key, {
        version: '2.x',
        locale: 'en',
        path: 'index',
        body: '# Home\n\n![Flow](./img/flow.png)\n',
      });
      await writePage(db, key, { version: '3.x', locale: 'en', path: 'index', body: '# Next\n' });
      await writeAsset(db, key, { name: 'brand/logo.svg', content: logo });
      await writeAsset(db, key, { name: '2.x/img/flow.png', content: png });
      await writeAsset(db, key, { name: '2.x/files/large.bin', content: large }, { disk });
      await writeAsset(db, key, { name: '2.x/.env', content: 'TOKEN=x' });
      await writeAsset(db, key, { name: '3.x/img/plan.png', content: png });
      app = createKitApp({ kit, cacheDir: null });
    }, 120_000);
    afterAll(async () => {
      await kit?.close();
      await project?.cleanup();
    });

    it('serves an image stored in the assets table with its type and ETag, and 304 on a match', async () => {
      const response = await app.request('/docs/img/flow.png');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(Array.from(new Uint8Array(await response.arrayBuffer()))).toEqual(Array.from(png));
      const etag = response.headers.get('etag')!;
      expect(etag).toBe(`"${sha(png).slice(0, 32)}"`);
      const again = await app.request('/docs/img/flow.png', { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
    });

    it('streams an asset kept on the set’s disk', async () => {
      const response = await app.request('/docs/files/large.bin');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain('attachment');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(sha(bytes)).toBe(sha(large));
    });

    it('links the page’s image and the manifest’s logo at their served URLs', async () => {
      const html = await (await app.request('/docs')).text();
      expect(html).toContain('<img src="/docs/img/flow.png" alt="Flow">');
      const logoUrl = `/docs/_kit/file/${sha(logo).slice(0, 12)}/brand/logo.svg`;
      expect(html).toContain(`src="${logoUrl}"`);
      const served = await app.request(logoUrl);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await served.text()).toBe(logo);
    });

    it('refuses dotfiles and a private version’s assets to a guest', async () => {
      expect((await app.request('/docs/.env')).status).toBe(404);
      expect((await app.request('/docs/3.x/img/plan.png')).status).toBe(404);
      const staff = await app.request('/docs/3.x/img/plan.png', { headers: { Authorization: 'Bearer staff' } });
      expect(staff.status).toBe(200);
      expect(staff.headers.get('cache-control')).toBe('private, no-cache');
    });
  });
}

databaseSetServesFiles('a database set on PGlite', undefined);
describe.skipIf(!process.env.KIT_TEST_DATABASE_URL)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  databaseSetServesFiles('a database set on PostgreSQL', process.env.KIT_TEST_DATABASE_URL);
});
