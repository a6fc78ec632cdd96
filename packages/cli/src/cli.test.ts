import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { runKit, tempProject, writeFiles } from './__fixtures__/kit-binary.js';

describe('kit init, validate and search on a new project', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject();
  });
  afterAll(() => project.cleanup());

  it('creates the config, manifest, landing page and navigation, then validate is clean', async () => {
    const init = await runKit(['init'], { cwd: project.dir, env: { KIT_URL: undefined } });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('created  kit.config.ts');
    expect(init.stdout).toContain('created  docs/kit.json');
    expect(init.stdout).toContain('created  docs/index.md');
    expect(init.stdout).toContain('created  docs/navigation.json');
    const manifest = JSON.parse(await readFile(join(project.dir, 'docs/kit.json'), 'utf8'));
    expect(manifest.$schema).toBe('http://127.0.0.1:4000/schemas/3.x/kit.json');

    const validate = await runKit(['validate', '--json'], { cwd: project.dir });
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
    expect(JSON.parse(validate.stdout)).toMatchObject({ ok: true, summary: { errors: 0, warnings: 0 }, issues: [] });
  });

  it('never overwrites a file when run again', async () => {
    await writeFiles(project.dir, { 'docs/index.md': '---\ntitle: Mine\n---\n\n# Mine\n' });
    const again = await runKit(['init'], { cwd: project.dir });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('created');
    expect(again.stdout).toContain('kept     docs/index.md (already exists)');
    expect(await readFile(join(project.dir, 'docs/index.md'), 'utf8')).toContain('# Mine');
  });

  it('prints search results, and the search_docs result with --json', async () => {
    await writeFiles(project.dir, {
      'docs/deploying.md':
        '---\ntitle: Deploying\n---\n\n# Deploying\n\n## Zero downtime\n\nSwap the symlink after the release is warmed up.\n',
      'docs/navigation.json': JSON.stringify({ groups: [{ label: 'Start', pages: ['index', 'deploying'] }] }),
    });
    const text = await runKit(['search', 'symlink release'], { cwd: project.dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^1\. Deploying › Zero downtime\n {3}\/docs\/deploying#zero-downtime\n/);
    const json = await runKit(['search', 'symlink', '--json', '--limit', '3'], { cwd: project.dir });
    expect(JSON.parse(json.stdout)).toMatchObject({ set: 'docs', query: 'symlink', results: [{ path: 'deploying' }] });
  });
});

describe('kit init into a configured source.path', () => {
  it('writes the landing page with the real folder in its text', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      await writeFiles(dir, {
        'kit.config.json': JSON.stringify({ sets: { handbook: { source: { path: 'content/hb' } } } }),
      });
      const init = await runKitHere(['init'], { cwd: dir });
      expect(init.code).toBe(0);
      const index = await readFile(join(dir, 'content/hb/index.md'), 'utf8');
      expect(index).toContain('Edit this page in `content/hb/index.md`');
      expect(index).toContain('`content/hb/navigation.json`');
      expect(index).not.toContain('docs/');
    } finally {
      await cleanup();
    }
  });
});

describe('kit command line', () => {
  it('prints help for every command', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      for (const command of ['init', 'serve', 'validate', 'affected', 'agents', 'hook', 'mcp', 'search']) {
        const help = await runKit([command, '--help'], { cwd: dir });
        expect(help.code, command).toBe(0);
        expect(help.stdout, command).toContain(`Usage: kit ${command}`);
      }
    } finally {
      await cleanup();
    }
  });

  it('reports errors as one line on stderr with exit code 1, and the stack only with --debug', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      const missing = await runKit(['--config', 'nope.ts', 'validate'], { cwd: dir });
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe('');
      expect(missing.stderr.trim().split('\n')).toHaveLength(1);
      expect(missing.stderr).toMatch(/^kit: Config file .*nope\.ts does not exist\./);

      const debug = await runKit(['--config', 'nope.ts', 'validate', '--debug'], { cwd: dir });
      expect(debug.code).toBe(1);
      expect(debug.stderr).toMatch(/\n\s+at /);

      const unknown = await runKit(['publish'], { cwd: dir });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await cleanup();
    }
  });
});
