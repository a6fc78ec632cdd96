import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isKitError } from '../errors/kit-error.js';
import { findConfigFile, loadConfig } from './load-config.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-config-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = join(dir, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isKitError(error)) return { code: error.code, message: error.message.replaceAll(dir, '<dir>') };
    throw error;
  }
  throw new Error('expected loadConfig to fail');
}

describe('loadConfig', () => {
  it('returns the defaults rooted at cwd when there is no config file', async () => {
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.root).toBe(dir);
    expect(config.file).toBeNull();
    expect(config.sets.docs!.source.path).toBe(join(dir, 'docs'));
    expect(config.review).toBe('required');
  });

  it('imports a TypeScript config, types and relative imports included', async () => {
    write('lib/prefix.ts', "export const prefix: string = 'handbook';\n");
    write(
      'kit.config.ts',
      [
        "import { prefix } from './lib/prefix.ts';",
        "type Review = 'required' | 'auto';",
        "const review: Review = 'auto';",
        'export default { review, sets: { docs: { route: { prefix } } } };',
      ].join('\n'),
    );
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.file).toBe(join(dir, 'kit.config.ts'));
    expect(config.review).toBe('auto');
    expect(config.sets.docs!.route.prefix).toBe('handbook');
  });

  it('imports an ES module config (.mjs)', async () => {
    write('kit.config.mjs', 'export default { agents: { llms_full: false } };\n');
    expect((await loadConfig({ cwd: dir, env: {} })).agents.llms_full).toBe(false);
  });

  it('imports a .js config', async () => {
    write('package.json', '{ "type": "module" }');
    write('kit.config.js', "export default { search: { driver: 'server' } };\n");
    expect((await loadConfig({ cwd: dir, env: {} })).search.driver).toBe('server');
  });

  it('reads a JSON config', async () => {
    write('kit.config.json', JSON.stringify({ ui: { fresh_days: 3 } }));
    expect((await loadConfig({ cwd: dir, env: {} })).ui.fresh_days).toBe(3);
  });

  it('prefers .ts, then .mjs, .js and .json when several exist', async () => {
    write('kit.config.json', '{}');
    write('kit.config.mjs', 'export default {};');
    expect(findConfigFile(dir)).toBe(join(dir, 'kit.config.mjs'));
    write('kit.config.ts', 'export default {};');
    expect(findConfigFile(dir)).toBe(join(dir, 'kit.config.ts'));
  });

  it('loads an explicit file and roots the config at its folder', async () => {
    write('site/custom.config.mjs', 'export default { sets: { guides: {} } };');
    const config = await loadConfig({ cwd: dir, file: 'site/custom.config.mjs', env: {} });
    expect(config.root).toBe(join(dir, 'site'));
    expect(config.sets.guides!.source.path).toBe(join(dir, 'site', 'guides'));
  });

  it('refuses a missing explicit file with config.not_found', async () => {
    expect(await errorOf(loadConfig({ cwd: dir, file: 'nope.ts', env: {} }))).toMatchInlineSnapshot(`
      {
        "code": "config.not_found",
        "message": "Config file <dir>/nope.ts does not exist. Check the path, or leave it out to use kit.config.ts, kit.config.mjs, kit.config.js, kit.config.json in <dir>.",
      }
    `);
  });

  it('refuses a file without a default export', async () => {
    write('kit.config.mjs', 'export const config = {};');
    expect(await errorOf(loadConfig({ cwd: dir, env: {} }))).toMatchInlineSnapshot(`
      {
        "code": "config.invalid",
        "message": "kit.config.mjs has no default export; write \`export default defineConfig({ ... })\` (import defineConfig from '@kit/core')",
      }
    `);
  });

  it('refuses invalid JSON naming the file', async () => {
    write('kit.config.json', '{ "review": ');
    const error = await errorOf(loadConfig({ cwd: dir, env: {} }));
    expect(error.code).toBe('config.invalid');
    expect(error.message).toMatch(/^kit\.config\.json is not valid JSON: /);
  });

  it('reports a config that fails to import as config.invalid', async () => {
    write('kit.config.mjs', "throw new Error('boom');");
    expect(await errorOf(loadConfig({ cwd: dir, env: {} }))).toMatchInlineSnapshot(`
      {
        "code": "config.invalid",
        "message": "kit.config.mjs failed to load: boom",
      }
    `);
  });

  it('prefixes resolution errors with the config file name', async () => {
    write('kit.config.ts', 'export default { agents: { llm_txt: false } };');
    expect(await errorOf(loadConfig({ cwd: dir, env: {} }))).toMatchInlineSnapshot(`
      {
        "code": "config.unknown_key",
        "message": "kit.config.ts: unknown key \`agents.llm_txt\`; did you mean \`agents.llms_txt\`?",
      }
    `);
  });

  it('reads KIT_* variables from the root .env, the given env winning', async () => {
    write('.env', 'KIT_REVIEW=auto\nKIT_DEFAULT_BRANCH=trunk # comment\nKIT_UI_DEV="http://localhost:5173"\n');
    const config = await loadConfig({ cwd: dir, env: { KIT_DEFAULT_BRANCH: 'main' } });
    expect(config.review).toBe('auto');
    expect(config.instructions.default_branch).toBe('main');
    expect(config.ui.dev_server).toBe('http://localhost:5173');
  });

  it('reads .env from the config file folder, not cwd', async () => {
    write('.env', 'KIT_REVIEW=auto');
    write('site/.env', 'KIT_DEFAULT_BRANCH=site-branch');
    write('site/kit.config.json', '{}');
    const config = await loadConfig({ cwd: dir, file: 'site/kit.config.json', env: {} });
    expect(config.review).toBe('required');
    expect(config.instructions.default_branch).toBe('site-branch');
  });

  it('fills process.env from .env without overriding what is set, so the config file can read it', async () => {
    const names = ['KIT_TEST_FROM_DOTENV', 'KIT_TEST_ALREADY_SET'];
    process.env.KIT_TEST_ALREADY_SET = 'process';
    try {
      write('.env', 'KIT_TEST_FROM_DOTENV=handbook\nKIT_TEST_ALREADY_SET=dotenv');
      write(
        'kit.config.mjs',
        'export default { sets: { docs: { route: { prefix: process.env.KIT_TEST_FROM_DOTENV } } }, instructions: { default_branch: process.env.KIT_TEST_ALREADY_SET } };',
      );
      const config = await loadConfig({ cwd: dir });
      expect(config.sets.docs!.route.prefix).toBe('handbook');
      expect(config.instructions.default_branch).toBe('process');
    } finally {
      for (const name of names) delete process.env[name];
    }
  });

  it('loads a changed config afresh on the next call', async () => {
    write('kit.config.mjs', "export default { review: 'auto' };");
    expect((await loadConfig({ cwd: dir, env: {} })).review).toBe('auto');
    const file = write('kit.config.mjs', "export default { review: 'required' };");
    const { utimesSync } = await import('node:fs');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect((await loadConfig({ cwd: dir, env: {} })).review).toBe('required');
  });
});
