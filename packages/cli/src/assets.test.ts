import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { runKit, tempProject, writeFiles } from './__fixtures__/kit-binary.js';
import { assetTarget } from './commands/assets.js';

// `kit assets`, `kit assets add` and `kit assets remove`: on a database set (PGlite in the project
// folder, files on the local disk, each change in the branch's docs migration), and with the built
// binary on a repository set.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('kit assets on a database set', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-assets-');
    await writeFiles(project.dir, {
      'kit.config.mjs': `export default { sets: { docs: { source: { driver: 'database' } } } };\n`,
      'incoming/evil.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'incoming/fake.png': '<html><script>alert(1)</script></html>',
    });
    await writeFile(join(project.dir, 'incoming/flow.png'), PNG);
    await writeFile(join(project.dir, 'incoming/chart.png'), Buffer.concat([PNG, Buffer.from([1])]));
  }, 180_000);
  afterAll(async () => {
    await project?.cleanup();
  });
  const kit = (...args: string[]) => runKitHere(args, { cwd: project.dir });

  it('adds files on the local disk, records them in the docs migration, and lists them', async () => {
    const added = await kit('assets', 'add', 'incoming/flow.png', 'incoming/chart.png', '--path', 'images');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('incoming/flow.png: published: Added the file "images/flow.png"');
    expect(added.stdout).toMatch(/docs migration: migrations\/docs\/\d{4}_\d\d_\d\d_\d{6}_docs_local\.json/);
    const [migration] = await readdir(join(project.dir, 'migrations/docs'));
    const changes = JSON.parse(await readFile(join(project.dir, 'migrations/docs', migration!), 'utf8')).changes;
    expect(changes.map((change: { op: string; name: string }) => `${change.op} ${change.name}`)).toEqual([
      'write_asset images/flow.png',
      'write_asset images/chart.png',
    ]);
    expect((await readdir(join(project.dir, '.kit/assets/docs'))).length).toBe(2);

    const listed = await kit('assets', '--json');
    const files = JSON.parse(listed.stdout).files as Array<{ path: string; type: string; size: number }>;
    expect(files.map((file) => [file.path, file.type, file.size])).toEqual([
      ['/images/chart.png', 'image/png', PNG.length + 1],
      ['/images/flow.png', 'image/png', PNG.length],
    ]);
    expect((await kit('assets', 'list')).stdout).toContain('2 files in the "docs" docs:');
  });

  it('refuses a script in an SVG and a mislabelled image, exits 1 and writes nothing of them', async () => {
    const result = await kit('assets', 'add', 'incoming/evil.svg', 'incoming/fake.png', 'incoming/missing.png');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'incoming/evil.svg: rejected: Nothing was written: "evil.svg" holds a <script> element',
    );
    expect(result.stdout).toContain(
      'incoming/fake.png: rejected: Nothing was written: The bytes of "fake.png" are not a PNG image',
    );
    expect(result.stdout).toContain('incoming/missing.png: rejected: No file incoming/missing.png to add');
    const files = JSON.parse((await kit('assets', '--json')).stdout).files as Array<{ path: string }>;
    expect(files.map((file) => file.path)).not.toContain('/evil.svg');
  });

  it('removes a file, and refuses a stale hash', async () => {
    const stale = await kit('assets', 'remove', 'images/flow.png', '--based-on', `sha256:${'0'.repeat(64)}`);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('conflicted');
    const removed = await kit('assets', 'remove', '/images/flow.png');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Deleted the file "images/flow.png"');
    const files = JSON.parse((await kit('assets', '--json')).stdout).files as Array<{ path: string }>;
    expect(files.map((file) => file.path)).toEqual(['/images/chart.png']);
  });
});

describe('where kit assets add puts a file', () => {
  it('keeps the file name in a folder, or takes the path given for one file', () => {
    expect(assetTarget('incoming/flow.png', undefined, 1)).toBe('flow.png');
    expect(assetTarget('incoming/flow.png', 'images', 2)).toBe('images/flow.png');
    expect(assetTarget('incoming/flow.png', 'images/', 1)).toBe('images/flow.png');
    expect(assetTarget('incoming/flow.png', 'images/diagram.png', 1)).toBe('images/diagram.png');
    expect(assetTarget('incoming/flow.png', '/brand', 1)).toBe('/brand/flow.png');
  });
});

describe('the built kit assets on a repository set', () => {
  it('writes the file beside the pages and refuses a path out of the set', async () => {
    const project = await tempProject('kit-assets-bin-');
    try {
      await writeFiles(project.dir, {
        'docs/kit.json': JSON.stringify({ name: 'Docs', versions: ['2.x', '1.x'] }),
        'docs/2.x/index.md': '# Home\n',
        'docs/1.x/index.md': '# Old\n',
      });
      await writeFile(join(project.dir, 'flow.png'), PNG);
      const added = await runKit(['assets', 'add', 'flow.png', '--path', 'images', '--version', '1.x'], {
        cwd: project.dir,
      });
      expect(added.stderr).toBe('');
      expect(added.code).toBe(0);
      expect(await readFile(join(project.dir, 'docs/1.x/images/flow.png'))).toEqual(PNG);
      expect(added.stdout).toContain('/docs/1.x/images/flow.png');
      const outside = await runKit(['assets', 'add', 'flow.png', '--path', '../../escape.png'], { cwd: project.dir });
      expect(outside.code).toBe(1);
      expect(outside.stdout).toContain('not a plain relative path');
      expect(existsSync(join(project.dir, 'escape.png'))).toBe(false);
      const listed = await runKit(['assets', '--json'], { cwd: project.dir });
      expect(JSON.parse(listed.stdout).files.map((file: { path: string }) => file.path)).toEqual([
        '/1.x/images/flow.png',
      ]);
    } finally {
      await project.cleanup();
    }
  });
});
