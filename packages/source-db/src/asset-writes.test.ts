import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesContentHash, type ChangeRecord, isKitError } from '@kit/core';
import { createFsSource } from '@kit/source-fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { deleteAsset, writeAsset } from './asset-writes.js';
import type { KitDatabase } from './database.js';
import { createDbSource } from './db-source.js';
import { createLocalDisk } from './disk.js';
import { discardRevision, publishRevision } from './draft-review.js';
import { importFromSource } from './import.js';
import { listRevisions } from './revision-history.js';
import { runDocsMigrations } from './run-docs-migrations.js';
import { freshSetKey, rejection, testDatabases } from './testing/fixture.js';

const databases = testDatabases();
const targets = testDatabases();
afterAll(async () => {
  await databases.dispose();
  await targets.dispose();
});

const folders: string[] = [];
afterEach(async () => {
  while (folders.length > 0) await rm(folders.pop()!, { recursive: true, force: true });
});
async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kit-asset-writes-'));
  folders.push(root);
  return root;
}

const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);
const OTHER_PNG = Uint8Array.from([...PNG, 0]);
const change = (tool: ChangeRecord['tool'], draft = false): ChangeRecord => ({ tool, draft, author: 'ada' });

async function bytesOf(source: ReturnType<typeof createDbSource>, name: string): Promise<Uint8Array | null> {
  const file = await source.openFile(name);
  if (!file) return null;
  const body = await file.open();
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

function assetSuite(name: string, open: () => Promise<KitDatabase>, openTarget: () => Promise<KitDatabase>) {
  describe(`files of a database set on ${name}`, () => {
    it('keeps a drafted file out of sight until a person publishes it, then writes it to the disk', async () => {
      const db = await open();
      const setKey = freshSetKey('asset_draft');
      const diskRoot = await tempRoot();
      const disk = createLocalDisk({ root: diskRoot });
      const source = createDbSource({ db, setKey, assetDisk: disk, disks: { local: disk } });
      const receipt = await source.writer.writeAsset!('images/flow.png', PNG, null, change('write_asset', true));
      expect(receipt.outcome).toBe('drafted');
      expect(receipt.revision).toMatchObject({ kind: 'asset', path: 'images/flow.png' });
      expect(await source.openFile('images/flow.png')).toBeNull();
      expect(await source.listFiles()).toEqual([]);

      const [draft] = await listRevisions(db, setKey, { status: 'draft' });
      expect(draft?.snapshot).toMatch(/^data:image\/png;base64,/);
      const published = await source.review.publish(draft!.id, 'rev');
      expect(published.outcome).toBe('published');
      expect(await bytesOf(source, 'images/flow.png')).toEqual(PNG);
      expect(await source.listFiles()).toEqual(['images/flow.png']);
      // On the disk, content-addressed; the row points at it.
      const hex = bytesContentHash(PNG).slice('sha256:'.length);
      expect(new Uint8Array(await readFile(join(diskRoot, setKey, hex)))).toEqual(PNG);
    });

    it('refuses to publish a drafted file whose live copy changed since, and discards it whole', async () => {
      const db = await open();
      const setKey = freshSetKey('asset_stale');
      const source = createDbSource({ db, setKey });
      const first = await source.writer.writeAsset!('a.png', PNG, null, change('write_asset'));
      const drafted = await source.writer.writeAsset!(
        'a.png',
        OTHER_PNG,
        first.revision.content_hash,
        change('write_asset', true),
      );
      await deleteAsset(db, setKey, 'a.png');
      await writeAsset(db, setKey, { name: 'a.png', content: PNG });
      await writeAsset(db, setKey, { name: 'a.png', content: Uint8Array.from([...PNG, 1]) });
      const error = await rejection(publishRevision(db, setKey, drafted.revision.id!));
      expect(error.code).toBe('content.conflict');
      expect(await bytesOf(source, 'a.png')).toEqual(Uint8Array.from([...PNG, 1]));
      const discarded = await discardRevision(db, setKey, drafted.revision.id!);
      expect(discarded.map((revision) => revision.status)).toEqual(['discarded']);
    });

    it('drafts a deletion that removes the file only when published', async () => {
      const db = await open();
      const setKey = freshSetKey('asset_delete');
      const source = createDbSource({ db, setKey });
      const written = await source.writer.writeAsset!('guide.pdf', PNG, null, change('write_asset'));
      const drafted = await source.writer.deleteAsset!(
        'guide.pdf',
        written.revision.content_hash,
        change('delete_asset', true),
      );
      expect(drafted.outcome).toBe('drafted');
      expect(await source.openFile('guide.pdf')).not.toBeNull();
      await publishRevision(db, setKey, drafted.revision.id!);
      expect(await source.openFile('guide.pdf')).toBeNull();
      const stale = await rejection(
        source.writer.deleteAsset!('guide.pdf', written.revision.content_hash, change('delete_asset')),
      );
      expect(isKitError(stale, 'content.conflict')).toBe(true);
    });

    it('carries published files in the docs migration, applied elsewhere by kit migrate', async () => {
      const db = await open();
      const target = await openTarget();
      const setKey = freshSetKey('asset_migration');
      const root = await tempRoot();
      const folder = join(root, 'migrations', 'docs');
      const { writer } = createDbSource({ db, setKey, migrations: { folder, branch: 'main', root } });
      const written = await writer.writeAsset!('2.x/images/flow.png', PNG, null, change('write_asset'));
      expect(written.docs_migration?.file).toMatch(/^migrations\/docs\/.*_main\.json$/);
      await writer.writeAsset!('old.png', OTHER_PNG, null, change('write_asset'));
      const old = await createDbSource({ db, setKey }).openFile('old.png');
      await writer.deleteAsset!('old.png', old!.contentHash, change('delete_asset'));
      const [fileName] = await readdir(folder);
      const document = JSON.parse(await readFile(join(folder, fileName!), 'utf8'));
      expect(document.changes.map((entry: { op: string }) => entry.op)).toEqual([
        'write_asset',
        'write_asset',
        'delete_asset',
      ]);

      const disk = createLocalDisk({ root: await tempRoot() });
      const run = await runDocsMigrations(target, setKey, folder, { disk });
      expect(run.migrations.map((migration) => migration.status)).toEqual(['applied']);
      const production = createDbSource({ db: target, setKey, disks: { local: disk } });
      expect(await bytesOf(production, '2.x/images/flow.png')).toEqual(PNG);
      expect(await production.openFile('old.png')).toBeNull();
      const again = await runDocsMigrations(target, setKey, folder, { disk });
      expect(again.migrations.map((migration) => migration.status)).toEqual(['already_applied']);
    });

    it('imports the files beside the pages under the same rules, and says what it skipped and why', async () => {
      const db = await open();
      const root = await tempRoot();
      const { mkdir, writeFile } = await import('node:fs/promises');
      const files: Record<string, string | Uint8Array> = {
        'kit.json': JSON.stringify({ name: 'Repo', versions: ['2.x', '1.x'], logo: 'brand/logo.svg' }),
        '2.x/index.md': '# Home\n\n![Flow](./images/flow.png)\n',
        '2.x/images/flow.png': PNG,
        '2.x/images/evil.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
        '2.x/images/fake.png': '<html><script>alert(1)</script></html>',
        '2.x/examples/keys.txt': 'aws_access_key_id = AKIAZ3MSJV4WWNK6TQ7H\n',
        '2.x/downloads/tool.exe': 'MZ',
        '2.x/.env': 'SECRET=1\n',
        '1.x/index.md': '# Old\n',
        '1.x/images/old.png': PNG,
        'brand/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>',
      };
      for (const [file, content] of Object.entries(files)) {
        await mkdir(join(root, file, '..'), { recursive: true });
        await writeFile(join(root, file), content);
      }
      const setKey = freshSetKey('asset_import');
      const repository = createFsSource({ root, setKey: 'repo' });
      const report = await importFromSource(repository, db, setKey, { versions: ['2.x'] });
      const copy = createDbSource({ db, setKey });
      expect(await copy.listFiles()).toEqual(['2.x/images/flow.png', 'brand/logo.svg']);
      expect(await bytesOf(copy, '2.x/images/flow.png')).toEqual(PNG);
      expect(report.assets).toBe(2);
      expect(report.skipped.map((skip) => [skip.name, skip.rule])).toEqual([
        ['2.x/downloads/tool.exe', 'asset.type'],
        ['2.x/examples/keys.txt', 'asset.secret'],
        ['2.x/images/evil.svg', 'asset.content'],
        ['2.x/images/fake.png', 'asset.type'],
      ]);
      expect(report.skipped.every((skip) => skip.reason.length > 20)).toBe(true);
      const again = await importFromSource(repository, db, setKey, { versions: ['2.x'] });
      expect(again.assets).toBe(0);
      await repository.close?.();
    });
  });
}

assetSuite(
  'PGlite',
  () => databases.pglite(),
  () => targets.pglite(),
);

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  assetSuite(
    'PostgreSQL',
    () => databases.postgres(),
    () => targets.postgres(),
  );
});
