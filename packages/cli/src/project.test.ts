import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { tempProjects } from './__fixtures__/kit-binary.js';
import { CLI_VERSION } from './program.js';
import { locateProject } from './project.js';

const project = tempProjects('kit-project-');

describe('kit --version', () => {
  it('prints the version of the installed @kit/cli with --version and -v', async () => {
    const dir = await project({});
    const manifest = (await import('../package.json', { with: { type: 'json' } })).default as { version: string };
    expect(CLI_VERSION).toBe(manifest.version);
    for (const flag of ['--version', '-v']) {
      const run = await runKitHere([flag], { cwd: dir });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${manifest.version}\n`);
    }
  });
});

describe('kit serve and kit mcp outside a project', () => {
  for (const command of ['serve', 'mcp']) {
    it(`kit ${command} stops with what it looked for and how to start a project`, async () => {
      const dir = await project({ 'notes.md': '# Notes\n' });
      const run = await runKitHere([command], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `kit: No Kit project in ${dir}: kit ${command} looked for kit.config.ts, kit.config.mjs, kit.config.js, kit.config.json and a docs/ folder there and found neither. Run kit init here to start one (npx kit init once @kit/cli is installed), run kit ${command} from your project's folder, or name the folder to serve: kit ${command} path/to/docs.\n`,
      );
    });
  }

  it('names a folder that does not exist', async () => {
    const dir = await project({});
    const run = await runKitHere(['mcp', 'nowhere'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`kit mcp nowhere: ${join(dir, 'nowhere')} is not a folder.`);
  });
});

describe('locateProject', () => {
  const env = {};

  it('takes a folder with a docs/ folder, or a config, as the project', async () => {
    const withDocs = await project({ 'docs/index.md': '# Home\n' });
    expect(locateProject({ cwd: withDocs, command: 'serve', env })).toEqual({ kind: 'project', cwd: withDocs });
    const withConfig = await project({ 'kit.config.json': '{}' });
    expect(locateProject({ cwd: withConfig, command: 'serve', env })).toEqual({ kind: 'project', cwd: withConfig });
  });

  it('takes a named project folder as the project, wherever the command runs', async () => {
    const root = await project({ 'site/docs/index.md': '# Home\n' });
    expect(locateProject({ cwd: root, command: 'mcp', env, folder: 'site' })).toEqual({
      kind: 'project',
      cwd: join(root, 'site'),
    });
  });

  it('serves a named folder of Markdown as the docs set with every default', async () => {
    const root = await project({ 'handbook/welcome.md': '# Welcome\n' });
    const where = locateProject({ cwd: root, command: 'serve', env, folder: 'handbook' });
    expect(where.kind).toBe('folder');
    if (where.kind !== 'folder') return;
    expect(Object.keys(where.config.sets)).toEqual(['docs']);
    expect(where.config.sets.docs!.source).toMatchObject({ driver: 'repository', path: join(root, 'handbook') });
  });

  it('refuses a folder and --config together', async () => {
    const root = await project({ 'handbook/welcome.md': '# Welcome\n' });
    expect(() =>
      locateProject({ cwd: root, command: 'serve', env, folder: 'handbook', configFile: 'kit.config.ts' }),
    ).toThrow('kit serve takes a folder or --config, not both');
  });
});

describe('pnpm kit in the repository', () => {
  it('runs the sources in the folder the command was typed in (INIT_CWD), where kit init writes', async () => {
    const dir = await project({});
    const launcher = join(import.meta.dirname, '..', 'bin', 'from-source.js');
    // pnpm starts the root script in the repository root and says where it was typed in INIT_CWD.
    const run = spawnSync(process.execPath, [launcher, 'init'], {
      cwd: join(import.meta.dirname, '..', '..', '..'),
      env: { ...process.env, INIT_CWD: dir, NO_COLOR: '1' },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('created  kit.config.ts');
    expect(existsSync(join(dir, 'kit.config.ts'))).toBe(true);
    expect(existsSync(join(dir, 'docs', 'index.md'))).toBe(true);
  });
});
