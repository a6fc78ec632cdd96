import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitProject, git } from '../__fixtures__/git-project.js';
import { runKitHere } from '../__fixtures__/in-process.js';
import { kitBin, repoRoot, runKit, runProcess, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

/** The hook command of the settings the docs show, with `npx -p @kit/cli kit` as the built binary. */
async function documentedClaudeCodeCommand(): Promise<string> {
  const guide = await readFile(join(repoRoot, 'apps/site/guides/keeping-docs-current.md'), 'utf8');
  const block = /```json\n(\{[^`]*"PreToolUse"[^`]*)\n```/.exec(guide)![1]!;
  const settings = JSON.parse(block) as {
    hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> };
  };
  const [entry] = settings.hooks.PreToolUse;
  expect(entry!.matcher).toBe('Bash');
  const command = entry!.hooks[0]!.command;
  expect(command).toBe('npx -p @kit/cli kit hook');
  return command.replace('npx -p @kit/cli kit', `'${process.execPath}' '${kitBin}'`);
}

/** What Claude Code does for a PreToolUse hook: runs the command through a shell, the event as JSON on stdin. */
function runAsClaudeCode(hookCommand: string, cwd: string, toolInput: Record<string, unknown>, toolName = 'Bash') {
  const event = {
    session_id: 'session-1',
    transcript_path: join(cwd, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: 'toolu_01',
  };
  return runProcess('/bin/sh', ['-c', hookCommand], { cwd, input: JSON.stringify(event) });
}

/** Push commands written every way an agent might, each of which must be checked. */
const PUSH_SPELLINGS = [
  'git push --force origin main',
  'git push -f',
  'git push --force-with-lease -- origin feature',
  'git push -h',
  'git push --help',
  'git -C . push',
  'git -C "." --no-pager push origin HEAD',
  '"git" push',
  "git 'push' --force",
  'FOO=1 git push',
  'GIT_SSH_COMMAND="ssh -o BatchMode=yes" git push',
  // A variable written on the agent's command does not reach the hook's environment.
  'KIT_HOOKS=off git push',
  'npm test && git push -u origin HEAD',
  "bash -c 'git push --force'",
  'gh pr create --fill',
  'gh pr new --fill',
];

describe('kit hook', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let claudeCode: string;
  beforeAll(async () => {
    project = await tempProject('kit-hook-');
    await createGitProject(project.dir);
    claudeCode = await documentedClaudeCodeCommand();
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

  it.each(PUSH_SPELLINGS)(
    'checks `%s` from Claude Code (the documented settings, hook JSON on stdin)',
    async (command) => {
      const run = await runAsClaudeCode(claudeCode, project.dir, { command, description: 'Push the branch' });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^Docs are stale: 3 pages/);
    },
  );

  it.each(
    [
      ['git', 'push', '--force', 'origin', 'main'],
      ['git', 'push', '-f'],
      ['git', 'push', '-h'],
      ['git', 'push', '--help'],
      ['git', 'push', '--version'],
      ['git', 'push', '--config', 'other.config.mjs', '--set', 'nope', '--debug'],
      ['--', 'git', 'push', '--force'],
      ['git', '-C', '.', 'push'],
      ['FOO=1', 'git', 'push'],
      ['bash', '-c', 'git push --force'],
      ['git push --force origin main'],
      ['npm test && git push'],
    ].map((words) => ({ words, shown: JSON.stringify(words) })),
  )('checks a push given as the arguments $shown, whatever options they hold', async ({ words }) => {
    const run = await runKit(['hook', ...words], { cwd: project.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Docs are stale: 3 pages/);
  });

  it("still reads kit's own options written before `hook`", async () => {
    const configured = await runKit(['--config', 'kit.config.mjs', 'hook', 'git', 'push', '--force'], {
      cwd: project.dir,
    });
    expect(configured.code).toBe(2);
  });

  it('checks a push given as plain text on stdin', async () => {
    const run = await runKit(['hook'], { cwd: project.dir, input: 'git push --force origin main\n' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('docs/caching.md');
  });

  it('lets other commands and other tools run, in every form', async () => {
    for (const command of ['git status', 'git commit -m "git push later"', 'echo "git push"', 'git stash push']) {
      expect(await runAsClaudeCode(claudeCode, project.dir, { command })).toMatchObject({ code: 0, stderr: '' });
      expect(await runKit(['hook'], { cwd: project.dir, input: command })).toMatchObject({ code: 0, stderr: '' });
    }
    expect(await runKit(['hook', 'git', 'status', '--short'], { cwd: project.dir })).toMatchObject({
      code: 0,
      stderr: '',
    });
    const edit = await runAsClaudeCode(claudeCode, project.dir, { file_path: 'a.md', old_string: 'a' }, 'Edit');
    expect(edit).toMatchObject({ code: 0, stderr: '' });
  });

  it('shows its help for `kit hook --help` alone', async () => {
    const run = await runKit(['hook', '--help'], { cwd: project.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: kit hook');
  });

  it('lets the push through with KIT_HOOKS=off in its own environment', async () => {
    const off = await runKit(['hook', 'git push'], { cwd: project.dir, env: { KIT_HOOKS: 'off' } });
    expect(off).toMatchObject({ code: 0, stderr: '' });
  });

  it('is off when hooks.enabled is false in the config', async () => {
    await writeFiles(project.dir, { 'hooks-off.config.mjs': 'export default { hooks: { enabled: false } };\n' });
    const run = await runKit(['--config', 'hooks-off.config.mjs', 'hook', 'git push'], { cwd: project.dir });
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });

  it('blocks, as an internal failure, hook JSON whose command is not a string', async () => {
    const run = await runKit(['hook'], { cwd: project.dir, input: '{"tool_input":{"command":["git","push"]}}' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('tool_input.command is ["git","push"], not a string');
  });
});

describe('kit hook when the check itself fails', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let claudeCode: string;
  beforeAll(async () => {
    project = await tempProject('kit-hook-fail-');
    // No origin and no main or master branch: the default branch cannot be told.
    await writeFiles(project.dir, {
      'kit.config.mjs': 'export default { sets: { docs: {} } };\n',
      'allow.config.mjs': "export default { sets: { docs: {} }, hooks: { on_failure: 'allow' } };\n",
      'docs/kit.json': '{ "name": "Trunk" }\n',
      'docs/index.md': '---\ntitle: Home\nsources: [src/a.ts]\n---\n# Home\n',
      'src/a.ts': 'export const a = 1;\n',
    });
    git(project.dir, 'init', '--quiet', '--initial-branch=trunk');
    git(project.dir, 'add', '-A');
    git(project.dir, 'commit', '--quiet', '-m', 'first');
    claudeCode = await documentedClaudeCodeCommand();
  });
  afterAll(() => project.cleanup());

  it('blocks the push by default (hooks.on_failure: block) and says what failed and how to fix it', async () => {
    for (const run of [
      await runKit(['hook', 'git', 'push', '--force', 'origin', 'trunk'], { cwd: project.dir }),
      await runAsClaudeCode(claudeCode, project.dir, { command: 'git push --force origin trunk' }),
    ]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^kit hook could not check this command for stale docs, so it is blocked/);
      expect(run.stderr).toContain('Cannot tell the default branch');
      expect(run.stderr).toContain("hooks.on_failure: 'allow'");
    }
    // A command that runs no push is not checked, so nothing can fail.
    expect(await runAsClaudeCode(claudeCode, project.dir, { command: 'git status' })).toMatchObject({ code: 0 });
  });

  it("lets the push run with a warning under hooks.on_failure: 'allow'", async () => {
    const run = await runKit(['--config', 'allow.config.mjs', 'hook', 'git', 'push', '-f'], { cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^kit hook could not check this command for stale docs; it runs unchecked/);
  });

  it('blocks every command when the config cannot be loaded and kit agents compiled nothing', async () => {
    const broken = await tempProject('kit-hook-broken-');
    try {
      await writeFiles(broken.dir, { 'kit.config.mjs': 'export default { hooks: { enabled: "yes" } };\n' });
      const run = await runAsClaudeCode(claudeCode, broken.dir, { command: 'git push' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('`hooks.enabled` must be');
      // With the settings compiled by kit agents (here: 'allow'), the hook reads them instead.
      await writeFiles(broken.dir, {
        '.kit/hooks.json': JSON.stringify({
          version: 2,
          enabled: true,
          push_commands: ['git push'],
          on_failure: 'allow',
        }),
      });
      expect(await runAsClaudeCode(claudeCode, broken.dir, { command: 'git status' })).toMatchObject({
        code: 0,
        stderr: '',
      });
      const allowed = await runAsClaudeCode(claudeCode, broken.dir, { command: 'git push' });
      expect(allowed.code).toBe(1);
      expect(allowed.stderr).toContain('runs unchecked');
    } finally {
      await broken.cleanup();
    }
  });
});
