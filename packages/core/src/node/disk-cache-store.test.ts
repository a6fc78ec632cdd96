import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiskCacheStore, diskCacheStoreDir } from './disk-cache-store.js';

const folders: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kit-disk-store-'));
  folders.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the disk cache store', () => {
  it('keeps values across store instances on one folder, as a restarted server finds them', async () => {
    const dir = await folder();
    await createDiskCacheStore({ dir }).set('v1:render:docs:sha256:ab', { html: '<p>Hi</p>', sections: [] });
    await createDiskCacheStore({ dir }).set('nothing', null);
    const reopened = createDiskCacheStore({ dir });
    expect(await reopened.get('v1:render:docs:sha256:ab')).toEqual({ html: '<p>Hi</p>', sections: [] });
    expect(await reopened.get('nothing')).toBeNull();
    expect(await reopened.get('missing')).toBeUndefined();
  });

  it('deletes an entry, leaving no file behind', async () => {
    const dir = await folder();
    const store = createDiskCacheStore({ dir });
    await store.set('a', 'text');
    expect(await filesUnder(dir)).toHaveLength(1);
    await store.delete('a');
    await store.delete('never-set');
    expect(await store.get('a')).toBeUndefined();
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('treats a damaged or foreign file as a miss, and a new write replaces it', async () => {
    const dir = await folder();
    const store = createDiskCacheStore({ dir });
    await store.set('a', 1);
    const [file] = await filesUnder(dir);
    await writeFile(file!, '{"key":"a","val');
    expect(await store.get('a')).toBeUndefined();
    await writeFile(file!, JSON.stringify({ key: 'b', value: 2, expires: null }));
    expect(await store.get('a')).toBeUndefined();
    await store.set('a', 3);
    expect(await store.get('a')).toBe(3);
  });

  it('forgets an entry once its ttl has passed', async () => {
    const dir = await folder();
    let now = 1_000_000;
    const store = createDiskCacheStore({ dir, now: () => now });
    await store.set('short', 'x', { ttlSeconds: 10 });
    await store.set('forever', 'y');
    now += 9_000;
    expect(await store.get('short')).toBe('x');
    now += 2_000;
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('forever')).toBe('y');
  });

  it('drops a write it cannot make instead of throwing', async () => {
    const dir = await folder();
    const blocked = join(dir, 'file');
    await writeFile(blocked, 'not a folder');
    const store = createDiskCacheStore({ dir: blocked });
    await expect(store.set('a', 1)).resolves.toBeUndefined();
    expect(await store.get('a')).toBeUndefined();
  });

  it('lives in .kit/cache/store of the project', () => {
    expect(diskCacheStoreDir('/srv/docs')).toBe(join('/srv/docs', '.kit', 'cache', 'store'));
  });
});
