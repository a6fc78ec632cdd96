import { describe, expect, it } from 'vitest';

describe('@kit/core/node', () => {
  it('exports the config loader, its helpers, the cache folder, the disk cache store, atomic writes, the file pool, code hashing and optional peers, nothing else', async () => {
    expect(Object.keys(await import('@kit/core/node')).sort()).toEqual([
      'CONFIG_FILE_NAMES',
      'FILE_SLOTS',
      'createDiskCacheStore',
      'createFileSlots',
      'diskCacheStoreDir',
      'findConfigFile',
      'hashCodeFiles',
      'importConfigFile',
      'isTransientFileError',
      'loadConfig',
      'loadOptionalPeer',
      'mapConcurrently',
      'parseDotenv',
      'projectCacheDir',
      'withFileSlot',
      'writeFileAtomically',
    ]);
  });

  it('is declared in package.json exports like the root entry', async () => {
    const manifest = (await import('../../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, Record<string, string>>;
    };
    expect(Object.keys(manifest.exports['./node']!)).toEqual(Object.keys(manifest.exports['.']!));
  });
});

describe('@kit/core configuration exports', () => {
  it('include defineConfig, resolveConfig, configDefaults, checkConfig and cacheStoreFor', async () => {
    const core = await import('@kit/core');
    expect(core.defineConfig({ review: 'auto' })).toEqual({ review: 'auto' });
    expect(typeof core.resolveConfig).toBe('function');
    expect(core.configDefaults.search.budget_kb).toBe(300);
    expect(typeof core.checkConfig).toBe('function');
    expect(typeof core.cacheStoreFor).toBe('function');
  });
});

describe('the root entry', () => {
  it('keeps config and util code free of Node-only imports, so it runs anywhere', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const folders = ['config', 'util'].map((name) => join(import.meta.dirname, '..', name));
    const offenders = folders.flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .filter((name) => /from ['"](node:|fs|path|url|os)['"/]/.test(readFileSync(join(folder, name), 'utf8')))
        .map((name) => `${folder}/${name}`),
    );
    expect(offenders).toEqual([]);
  });
});
