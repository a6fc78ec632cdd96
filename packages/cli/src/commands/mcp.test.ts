import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { runKit, startKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

describe('kit mcp', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-mcp-');
    await runKit(['init'], { cwd: project.dir });
    await writeFiles(project.dir, {
      'docs/broken.md': '---\ntitle: Broken\n---\n\n# Broken\n\n[nowhere](./nowhere.md)\n',
    });
  });
  afterAll(() => project.cleanup());

  it('serves every set over stdio and offers validate_docs with the kit validate report', async () => {
    const server = startKit(['mcp'], { cwd: project.dir });
    const send = (message: object) => server.child.stdin.write(`${JSON.stringify(message)}\n`);
    const response = async (id: number) => {
      const text = await server.waitFor(new RegExp(`"id":${id}[,}]`));
      const line = text.split('\n').find((candidate) => candidate.includes(`"id":${id}`))!;
      return JSON.parse(line);
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
    });
    expect((await response(1)).result.serverInfo).toBeDefined();
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const tools = (await response(2)).result.tools.map((tool: { name: string }) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['search_docs', 'read_page', 'list_pages', 'validate_docs']));

    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'validate_docs', arguments: {} } });
    const result = (await response(3)).result;
    const report = result.structuredContent ?? JSON.parse(result.content[0].text);
    const cli = JSON.parse((await runKit(['validate', '--json'], { cwd: project.dir })).stdout);
    expect(report).toEqual(cli);
    expect(report.issues.map((issue: { rule: string }) => issue.rule)).toEqual(['links.broken', 'navigation.orphan']);

    // An agent writes a page through the real stdio server: the file lands in the working tree and
    // the validation in the result covers that page.
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: {
        name: 'write_page',
        arguments: { path: 'guides/deploy', frontmatter: { title: 'Deploy' }, body: '# Deploy\n\n[gone](./gone.md)\n' },
      },
    });
    const written = (await response(4)).result.structuredContent;
    expect(written.outcome).toBe('published');
    expect(await readFile(join(project.dir, 'docs/guides/deploy.md'), 'utf8')).toBe(
      '---\ntitle: Deploy\n---\n# Deploy\n\n[gone](./gone.md)\n',
    );
    expect(written.validation.issues.map((issue: { rule: string }) => issue.rule)).toContain('links.broken');

    server.child.stdin.end();
    expect(await server.exited).toBe(0);
  }, 180_000);
});

describe('kit mcp at start', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-mcp-start-');
    await writeFiles(project.dir, {
      'kit.config.json': JSON.stringify({ sets: { docs: { source: { path: 'docs' }, search: { driver: 'server' } } } }),
      'docs/kit.json': JSON.stringify({ name: 'Docs', versions: ['2.x', '1.x'] }),
      'docs/2.x/index.md': '# Home\n\n## Retrying\n\nFailed jobs retry three times.\n',
      'docs/1.x/index.md': '# Home\n\nOld retry rules.\n',
    });
  });
  afterAll(() => project.cleanup());

  const indexFiles = async () =>
    (await readdir(join(project.dir, '.kit/cache/search'), { recursive: true }).catch(() => []))
      .filter((name) => String(name).endsWith('.bin'))
      .map(String)
      .sort();

  it('prepares every version’s search index before any tool call and keeps it for the next start', async () => {
    const server = startKit(['mcp'], { cwd: project.dir, fromSource: true });
    try {
      // Nothing is asked: the indexes of both versions appear on disk all the same.
      for (let waited = 0; (await indexFiles()).length < 2; waited += 100) {
        if (waited > 120_000) throw new Error(`no index kept: ${server.output().stderr}`);
        await new Promise((resume) => setTimeout(resume, 100));
      }
    } finally {
      server.child.stdin.end();
      await server.exited;
    }
    expect((await indexFiles()).map((name) => name.split(/[\\/]/)[1])).toEqual(['1.x', '2.x']);
    const kept = await indexFiles();

    const again = startKit(['mcp'], { cwd: project.dir, fromSource: true });
    const send = (message: object) => again.child.stdin.write(`${JSON.stringify(message)}\n`);
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
      });
      await again.waitFor(/"id":1[,}]/);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search_docs', arguments: { query: 'retry', version: '1.x' } },
      });
      const text = await again.waitFor(/"id":2[,}]/);
      const line = text.split('\n').find((candidate) => candidate.includes('"id":2'))!;
      expect(JSON.parse(line).result.structuredContent.results.map((hit: { path: string }) => hit.path)).toEqual([
        'index',
      ]);
    } finally {
      again.child.stdin.end();
      await again.exited;
    }
    // The restart loaded the same files rather than writing new ones, and warned about nothing.
    expect(await indexFiles()).toEqual(kept);
    expect(again.output().stderr).not.toContain('unusable');
  }, 240_000);
});

describe('kit mcp refusals', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-mcp-refuse-');
    await writeFiles(project.dir, {
      'docs/kit.json': '{ "name": "Docs" }',
      'docs/index.md': '# Home\n',
    });
  });
  afterAll(() => project.cleanup());

  it('refuses to start when mcp.local is false, naming the key and how to turn it on', async () => {
    await writeFiles(project.dir, { 'kit.config.json': JSON.stringify({ mcp: { local: false } }) });
    const run = await runKitHere(['mcp'], { cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^kit: The local MCP server is turned off: mcp\.local is false in kit\.config\.json\./);
    expect(run.stderr).toContain('mcp: { local: true }');
  });

  it('refuses an --origin that is not an absolute http(s) origin, as --port is refused', async () => {
    await writeFiles(project.dir, { 'kit.config.json': '{}' });
    for (const origin of ['notaurl', 'ftp://docs.example.com', 'https://docs.example.com/docs', '/docs']) {
      const run = await runKitHere(['mcp', '--origin', origin], { cwd: project.dir });
      expect(run.code, origin).toBe(1);
      expect(run.stderr, origin).toContain(`--origin must be an absolute http or https origin`);
      expect(run.stderr, origin).toContain(`(got "${origin}")`);
    }
  });

  it('says in its help which tools it offers, author tools included', async () => {
    const help = await runKitHere(['mcp', '--help'], { cwd: project.dir });
    expect(help.stdout).toContain('affected_pages');
    expect(help.stdout).toMatch(/write_page, move_page, delete_page, update_navigation, update_manifest/);
  });
});
