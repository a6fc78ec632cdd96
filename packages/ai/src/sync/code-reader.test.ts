import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsCodeReader } from './code-reader.js';
import { syncDenyRules } from './deny.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kit-sync-code-'));
  dirs.push(dir);
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src/router.ts'), 'export const MATCH = "exact";\n');
  await writeFile(join(dir, '.env'), 'DB_PASSWORD=hunter2\n');
  await symlink(join(dir, '.env'), join(dir, 'src/settings.ts'));
  await symlink(tmpdir(), join(dir, 'src/outside'));
  return dir;
}

describe('the docs agent code reader', () => {
  it('reads project files, and answers a denied, linked-out or missing path alike', async () => {
    const code = createFsCodeReader(await project(), syncDenyRules([]));
    expect(await code.read('src/router.ts')).toEqual({ text: 'export const MATCH = "exact";\n', truncated: false });
    const missing = (await code.read('src/missing.ts')) as { error: string };
    expect(missing.error).toContain('No readable file');
    for (const path of ['.env', 'src/settings.ts', 'src/outside', '../etc/passwd', '/etc/passwd']) {
      const read = await code.read(path);
      expect(read, path).toEqual({ error: missing.error.replace('src/missing.ts', path) });
    }
  });

  it('lists folders without the denied entries', async () => {
    const code = createFsCodeReader(await project(), syncDenyRules(['src/outside']));
    expect(await code.list('')).toEqual({ entries: ['src/'] });
    expect(await code.list('src')).toEqual({ entries: ['src/router.ts', 'src/settings.ts'] });
  });
});
