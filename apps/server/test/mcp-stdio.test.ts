import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repositoryRoot = join(import.meta.dirname, '../../..');

/** A project with two repository sets: `guide` (1.x, private 2.x, a private page) and unversioned `api`. */
const projectFiles: Record<string, string> = {
  'kit.config.json': JSON.stringify({
    default: 'guide',
    sets: { guide: { source: { path: 'guide' } }, api: { source: { path: 'api' } } },
  }),
  'guide/kit.json': JSON.stringify({ name: 'Acme Guide', versions: ['1.x', { id: '2.x', visibility: 'private' }] }),
  'guide/1.x/navigation.json': JSON.stringify({
    groups: [{ label: 'Basics', pages: ['index', 'queues'] }],
  }),
  'guide/1.x/index.md': '---\ntitle: Welcome\n---\n# Welcome\n\nAcme runs queues.\n',
  'src/queue.ts': 'export const retries = 3;\n',
  'guide/1.x/queues.md':
    '---\ntitle: Queues\ndescription: Background jobs.\nsources: [src/queue.ts]\n---\n# Queues\n\nQueues run jobs.\n\n## Retrying Jobs\n\nFailed jobs retry three times with backoff.\n',
  'guide/1.x/internal/plans.md': '---\ntitle: Plans\nvisibility: private\n---\n# Plans\n\nThe zanzibar engine.\n',
  'guide/2.x/queues.md': '---\ntitle: Queues (2.x)\n---\n# Queues (2.x)\n\nThe unreleased quasar scheduler.\n',
  'api/kit.json': JSON.stringify({ name: 'Acme API' }),
  'api/tokens.md': '---\ntitle: Tokens\n---\n# Tokens\n\nCreate API tokens in the settings screen.\n',
};

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((item) => item.text ?? '').join('\n');
}

describe('the local MCP server, `kit mcp` spawned over stdio, with the SDK client', () => {
  let project: string;
  let client: Client;
  const transportErrors: Error[] = [];

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'kit-mcp-stdio-'));
    for (const [name, text] of Object.entries(projectFiles)) {
      mkdirSync(dirname(join(project, name)), { recursive: true });
      writeFileSync(join(project, name), text);
    }
    // A git repository with one commit on main, then an uncommitted change to a page's source.
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: project });
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'docs');
    writeFileSync(join(project, 'src/queue.ts'), 'export const retries = 5;\n');
    // The source form of the binary (`pnpm kit`), so the test runs what is in the tree without a build.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        '--conditions=kit-source',
        join(repositoryRoot, 'packages/cli/src/bin.ts'),
        'mcp',
        '--config',
        join(project, 'kit.config.json'),
      ],
      cwd: repositoryRoot,
      env: Object.fromEntries(
        Object.entries(process.env).filter(
          (entry): entry is [string, string] => !entry[0].startsWith('KIT_') && entry[1] !== undefined,
        ),
      ),
      stderr: 'inherit',
    });
    client = new Client({ name: 'kit-e2e-stdio', version: '1.0.0' });
    // A line on stdout that is not a JSON-RPC message surfaces here as a parse error.
    client.onerror = (error) => transportErrors.push(error);
    await client.connect(transport);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('serves every tool locally, validate_docs and the author tools included, and lists both sets in its instructions', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'affected_pages',
      'delete_asset',
      'delete_page',
      'list_pages',
      'move_page',
      'read_page',
      'search_docs',
      'submit_feedback',
      'update_manifest',
      'update_navigation',
      'validate_docs',
      'write_asset',
      'write_page',
    ]);
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).toContain('set');
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('guide');
    expect(instructions).toContain('api');
  });

  it('search_docs reads the default set, and another set by its key', async () => {
    const guide = await client.callTool({ name: 'search_docs', arguments: { query: 'retry jobs' } });
    const found = guide.structuredContent as { set: string; results: Array<{ path: string; heading: string | null }> };
    expect(found.set).toBe('guide');
    expect(found.results[0]).toMatchObject({ path: 'queues', heading: 'Retrying Jobs' });
    const api = await client.callTool({ name: 'search_docs', arguments: { query: 'tokens', set: 'api' } });
    expect((api.structuredContent as { set: string; results: Array<{ path: string }> }).results[0]!.path).toBe(
      'tokens',
    );
  });

  it('read_page returns a page with its content hash; the operator also reads a private version', async () => {
    const page = await client.callTool({ name: 'read_page', arguments: { path: 'queues', section: 'Retrying Jobs' } });
    expect(textOf(page)).toContain('retry three times');
    expect((page._meta as { content_hash: string }).content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const unreleased = await client.callTool({ name: 'read_page', arguments: { path: 'queues', version: '2.x' } });
    expect(unreleased.isError).toBeFalsy();
    expect(textOf(unreleased)).toContain('quasar scheduler');
  });

  it('list_pages lists the navigation of a set', async () => {
    const result = await client.callTool({ name: 'list_pages', arguments: { set: 'guide' } });
    const listing = result.structuredContent as { groups: Array<{ label: string; pages: Array<{ path: string }> }> };
    expect(listing.groups[0]).toMatchObject({ label: 'Basics' });
    expect(listing.groups[0]!.pages.map((page) => page.path)).toEqual(['index', 'queues']);
  });

  it('submit_feedback accepts feedback on a page of another set', async () => {
    const result = await client.callTool({
      name: 'submit_feedback',
      arguments: { set: 'api', path: 'tokens', helpful: true },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('tokens');
  });

  it('validate_docs returns the kit validate report of a set', async () => {
    const result = await client.callTool({ name: 'validate_docs', arguments: { set: 'guide' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('guide');
  });

  it('affected_pages lists a page whose source changed in uncommitted work as stale', async () => {
    const result = await client.callTool({ name: 'affected_pages', arguments: {} });
    expect(result.isError).toBeFalsy();
    const affected = result.structuredContent as { changed: string[]; pages: Array<{ path: string; status: string }> };
    expect(affected.changed).toContain('src/queue.ts');
    expect(affected.pages).toEqual([expect.objectContaining({ path: 'queues', status: 'stale' })]);
  });

  it('names the known sets when a call asks for an unknown one', async () => {
    const result = await client.callTool({ name: 'list_pages', arguments: { set: 'nope' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('guide');
    expect(textOf(result)).toContain('api');
  });

  it('reads pages of any set through the docs-page resource template', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['docs://{set}/{version}/{path}']);
    const { contents } = await client.readResource({ uri: 'docs://api/current/tokens' });
    expect((contents[0] as { text: string }).text).toContain('# Tokens');
  });

  it('serves both prompts, naming the set asked for', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['document-change', 'write-docs-page']);
    const prompt = await client.getPrompt({ name: 'write-docs-page', arguments: { topic: 'Webhooks', set: 'api' } });
    expect(JSON.stringify(prompt.messages)).toContain('Webhooks');
  });

  it('writes nothing but protocol messages to stdout: the client saw no transport error', () => {
    expect(transportErrors).toEqual([]);
  });
});
