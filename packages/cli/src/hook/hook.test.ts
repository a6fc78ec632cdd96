import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitProject } from '../__fixtures__/git-project.js';
import { runKitHere } from '../__fixtures__/in-process.js';
import { runKit, tempProject } from '../__fixtures__/kit-binary.js';
import { compileHooks, isPushCommand } from './hooks.js';

describe('isPushCommand', () => {
  const hooks = compileHooks({
    hooks: { enabled: true, push_commands: ['git push', 'gh pr create', 'glab mr create', 'hub pull-request'] },
  });

  it('finds a push command anywhere in a command line', () => {
    for (const command of [
      'git push',
      'git  push origin main',
      'npm test && git push -u origin HEAD',
      'FOO=1 git push',
      'gh pr create --fill',
      'cd app; glab mr create',
      'hub pull-request -m x',
    ]) {
      expect(isPushCommand(command, hooks), command).toBe(true);
    }
  });

  it('ignores commands that only look alike', () => {
    for (const command of ['git status', 'git push-docs', 'echo "git pushed"', 'gh pr list', 'git log --grep push']) {
      expect(isPushCommand(command, hooks), command).toBe(false);
    }
  });
});

describe('kit hook', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-hook-');
    await createGitProject(project.dir);
  });
  afterAll(() => project.cleanup());

  it('blocks a git push with stale docs with exit code 2 and names the pages', async () => {
    const run = await runKit(['hook', 'git', 'push', 'origin', 'feature'], { cwd: project.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Docs are stale: 3 pages/);
    expect(run.stderr).toContain('- docs/routing.md (set docs, version current): sources changed: src/router.ts');
    expect(run.stderr).toContain('KIT_HOOKS=off');
    expect(run.stderr).not.toContain('models.md');
    expect(run.stderr).not.toContain('kit sync');
  });

  it('points at the docs agent when ai.sync.provider is set', async () => {
    const run = await runKitHere(['hook', 'git', 'push'], { cwd: project.dir, env: { KIT_AI_PROVIDER: 'openai' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('let the docs agent do it: npx -p @kit/cli kit sync');
  });

  it('reads the command from Claude Code hook JSON on stdin', async () => {
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'npm test && git push' } });
    const run = await runKit(['hook'], { cwd: project.dir, input });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('docs/caching.md');
  });

  it('lets the push through with KIT_HOOKS=off, and lets other commands through', async () => {
    const off = await runKit(['hook', 'git push'], { cwd: project.dir, env: { KIT_HOOKS: 'off' } });
    expect(off).toMatchObject({ code: 0, stderr: '' });
    const other = await runKit(['hook'], {
      cwd: project.dir,
      input: JSON.stringify({ tool_input: { command: 'git status' } }),
    });
    expect(other).toMatchObject({ code: 0, stderr: '' });
  });

  it('is off when hooks.enabled is false in the config', async () => {
    const { writeFiles } = await import('../__fixtures__/kit-binary.js');
    await writeFiles(project.dir, { 'hooks-off.config.mjs': 'export default { hooks: { enabled: false } };\n' });
    const run = await runKit(['--config', 'hooks-off.config.mjs', 'hook', 'git push'], { cwd: project.dir });
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });
});
