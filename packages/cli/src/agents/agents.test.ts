import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { runKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';
import { BLOCK_END, BLOCK_START, replaceBlock } from './instructions.js';

describe('replaceBlock', () => {
  it('appends a block, replaces only its own block, and folds duplicate blocks into one', () => {
    const first = replaceBlock('# Agents\n\nKeep me.\n', 'one');
    expect(first).toBe(`# Agents\n\nKeep me.\n\n${BLOCK_START}\none\n${BLOCK_END}\n`);
    expect(replaceBlock(`${first}\nAfter.\n`, 'two')).toBe(
      `# Agents\n\nKeep me.\n\n${BLOCK_START}\ntwo\n${BLOCK_END}\n\nAfter.\n`,
    );
    const doubled = `${BLOCK_START}\nold\n${BLOCK_END}\n\nmiddle\n${BLOCK_START}\nolder\n${BLOCK_END}\n`;
    expect(replaceBlock(doubled, 'new')).toBe(`${BLOCK_START}\nnew\n${BLOCK_END}\n\nmiddle\n`);
  });
});

describe('kit agents', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-agents-');
    const pages: Record<string, string> = {};
    const names: string[] = [];
    for (let index = 0; index < 60; index++) {
      const name = `topic-${String(index).padStart(2, '0')}`;
      names.push(name);
      pages[`docs/${name}.md`] =
        `---\ntitle: Topic ${index}\ndescription: What topic ${index} covers, in one sentence of some length.\n---\n\n# Topic ${index}\n`;
    }
    await writeFiles(project.dir, {
      ...pages,
      'kit.config.mjs':
        "export default { review: 'auto', instructions: { index_max_bytes: 1024 }, hooks: { push_commands: ['git push', 'jj git push'] } };\n",
      'docs/kit.json': '{ "name": "Agents" }\n',
      'docs/index.md': '---\ntitle: Home\n---\n\n# Home\n',
      'docs/navigation.json': JSON.stringify({ groups: [{ label: 'Topics', pages: ['index', ...names] }] }),
      'AGENTS.md': '# Project rules\n\nUse tabs.\n',
    });
  });
  afterAll(() => project.cleanup());

  it('writes one instructions block however often it runs, keeping the rest of the file', async () => {
    const first = await runKit(['agents'], { cwd: project.dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('updated   AGENTS.md (instructions block)');
    const once = await readFile(join(project.dir, 'AGENTS.md'), 'utf8');
    const second = await runKit(['agents'], { cwd: project.dir });
    expect(second.stdout).toContain('unchanged AGENTS.md');
    const twice = await readFile(join(project.dir, 'AGENTS.md'), 'utf8');
    expect(twice).toBe(once);
    expect(twice.split(BLOCK_START)).toHaveLength(2);
    expect(twice.startsWith('# Project rules\n\nUse tabs.\n\n<!-- kit:start -->\n')).toBe(true);
    expect(twice).toContain('search_docs');
    expect(twice).toContain('Review mode `auto`');
  });

  it('keeps the docs index within instructions.index_max_bytes and says what it left out', async () => {
    const text = await readFile(join(project.dir, 'AGENTS.md'), 'utf8');
    const index = text.slice(
      text.indexOf('### Docs index\n\n') + '### Docs index\n\n'.length,
      text.indexOf(`\n${BLOCK_END}`),
    );
    expect(new TextEncoder().encode(index).byteLength).toBeLessThanOrEqual(1024);
    expect(index).toContain('- [Home](/docs/index.md)');
    expect(index).toMatch(/- \[Topic 0\]\(\/docs\/topic-00\.md\): What topic 0 covers/);
    expect(index).toMatch(/… \d+ more pages: call list_pages for the full list\.$/);
  });

  it('compiles the push commands into .kit/hooks.json', async () => {
    const hooks = JSON.parse(await readFile(join(project.dir, '.kit/hooks.json'), 'utf8'));
    expect(hooks).toEqual({
      version: 2,
      enabled: true,
      push_commands: ['git push', 'jj git push'],
      on_failure: 'block',
    });
  });
});

describe('kit agents with instructions.file in a folder that does not exist yet', () => {
  it('creates the folder and writes a block that names only the tools Kit has', async () => {
    const { dir, cleanup } = await tempProject('kit-agents-folder-');
    try {
      await writeFiles(dir, {
        'kit.config.json': JSON.stringify({
          instructions: { file: 'notes/agents/AGENTS.md' },
          sets: { docs: { source: { path: 'content/docs' } } },
        }),
        'content/docs/kit.json': '{ "name": "Docs" }',
        'content/docs/index.md': '# Home\n',
      });
      const run = await runKitHere(['agents'], { cwd: dir });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('created   notes/agents/AGENTS.md (instructions block)');
      const block = await readFile(join(dir, 'notes/agents/AGENTS.md'), 'utf8');
      expect(block).toContain('`content/docs/`');
      for (const tool of [
        'search_docs',
        'read_page',
        'list_pages',
        'affected_pages',
        'validate_docs',
        'submit_feedback',
      ]) {
        expect(block).toContain(`\`${tool}\``);
      }
      for (const tool of ['write_page', 'move_page', 'delete_page', 'update_navigation', 'update_manifest']) {
        expect(block).toContain(`\`${tool}\``);
      }
      expect(block).not.toMatch(/no tools that write|planned/);
      // No docs agent is configured, so the block does not point at kit sync.
      expect(block).not.toContain('kit sync');

      const synced = await runKitHere(['agents'], { cwd: dir, env: { KIT_AI_PROVIDER: 'anthropic' } });
      expect(synced.code).toBe(0);
      expect(await readFile(join(dir, 'notes/agents/AGENTS.md'), 'utf8')).toContain(
        '`kit sync --dry-run` shows its proposed changes as a diff',
      );
    } finally {
      await cleanup();
    }
  });
});

describe('kit agents with sets that need a signed-in reader', () => {
  it('leaves auth and gate sets out of the docs index and says so in the block and the output', async () => {
    const { dir, cleanup } = await tempProject('kit-agents-access-');
    try {
      await writeFiles(dir, {
        'kit.config.json': JSON.stringify({
          default: 'docs',
          sets: {
            docs: { source: { path: 'docs' } },
            internal: { source: { path: 'internal' }, route: { prefix: '/internal' }, access: { mode: 'auth' } },
            partners: { source: { path: 'partners' }, route: { prefix: '/partners' }, access: { mode: 'gate' } },
          },
        }),
        'docs/kit.json': '{ "name": "Docs" }',
        'docs/index.md': '---\ntitle: Public home\n---\n\n# Public home\n',
        'internal/kit.json': '{ "name": "Internal" }',
        'internal/index.md': '---\ntitle: Internal runbook\n---\n\n# Internal runbook\n',
        'partners/kit.json': '{ "name": "Partners" }',
        'partners/index.md': '---\ntitle: Partner pricing\n---\n\n# Partner pricing\n',
      });
      const run = await runKitHere(['agents'], { cwd: dir });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const note =
        'Not in this index: the sets `internal` (access mode `auth`), `partners` (access mode `gate`): their pages are only for signed-in or admitted readers, so their titles stay out of this file. Find them with `list_pages` and `search_docs` of the local `kit mcp` (pass `set`).';
      expect(run.stdout).toContain(note);
      const block = await readFile(join(dir, 'AGENTS.md'), 'utf8');
      expect(block).toContain('- [Public home](/docs/index.md)');
      expect(block).toContain(note);
      expect(block).not.toContain('Internal runbook');
      expect(block).not.toContain('Partner pricing');
    } finally {
      await cleanup();
    }
  });
});
