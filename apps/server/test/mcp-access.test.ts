import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { validatorFor } from '@kit/cli';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A project whose `handbook` set has a public 1.x, a private 2.x and a private page in 1.x. Bearer
 * tokens name the users: `staff` passes viewKit, `admin` passes viewKit and manageKit.
 */
const projectFiles: Record<string, string> = {
  'kit.config.mjs': `
const users = { 'staff-token': { id: 'sam', role: 'staff' }, 'admin-token': { id: 'ada', role: 'admin' } };
export default {
  default: 'handbook',
  sets: { handbook: { route: { prefix: 'handbook' }, source: { path: 'handbook' } } },
  resolveUser: (request) => users[(request.headers.get('authorization') ?? '').replace(/^Bearer /, '')] ?? null,
  gates: {
    viewKit: (user) => user?.role === 'staff' || user?.role === 'admin',
    manageKit: (user) => user?.role === 'admin',
  },
};
`,
  'handbook/kit.json': JSON.stringify({ name: 'Handbook', versions: ['1.x', { id: '2.x', visibility: 'private' }] }),
  'handbook/1.x/navigation.json': JSON.stringify({
    groups: [{ label: 'Start', pages: ['index', 'queues', 'internal/plans'] }],
  }),
  'handbook/1.x/index.md': '---\ntitle: Welcome\n---\n# Welcome\n\nThe handbook.\n',
  'handbook/1.x/queues.md': '---\ntitle: Queues\n---\n# Queues\n\nQueues run jobs in the background.\n',
  'handbook/1.x/internal/plans.md':
    '---\ntitle: Plans\nvisibility: private\n---\n# Plans\n\nThe zanzibar engine replaces queues.\n',
  'handbook/2.x/queues.md': '---\ntitle: Queues (2.x)\n---\n# Queues (2.x)\n\nThe quasar scheduler runs queues.\n',
  'handbook/2.x/roadmap.md': '---\ntitle: Roadmap\n---\n# Roadmap\n\nThe quasar scheduler ships soon.\n',
};

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((item) => item.text ?? '').join('\n');
}

/** An error text with the asked-for name replaced, to compare a private thing with a missing one. */
function shapeOf(text: string, name: string): string {
  return text.split(name).join('<name>');
}

describe('tool lists per caller and private versions over the web endpoint (temporary config via loadKit)', () => {
  let project: string;
  let kit: LoadedKit;
  let listener: ServerType;
  let endpoint: URL;
  const clients: Client[] = [];

  async function connect(token?: string): Promise<Client> {
    const client = new Client({ name: `kit-e2e-${token ?? 'guest'}`, version: '1.0.0' });
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  let guest: Client;
  let staff: Client;
  let admin: Client;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'kit-mcp-access-'));
    for (const [name, text] of Object.entries(projectFiles)) {
      mkdirSync(dirname(join(project, name)), { recursive: true });
      writeFileSync(join(project, name), text);
    }
    kit = await loadKit({ cwd: project, env: {} });
    const app = createKitApp({ kit, validate: validatorFor(kit), allowedHosts: ['127.0.0.1'] });
    listener = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    endpoint = new URL(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/handbook/mcp`);
    guest = await connect();
    staff = await connect('staff-token');
    admin = await connect('admin-token');
  }, 180_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
    await kit?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('shows a guest exactly search_docs, read_page, list_pages and submit_feedback', async () => {
    const { tools } = await guest.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'list_pages',
      'read_page',
      'search_docs',
      'submit_feedback',
    ]);
  });

  it('shows a viewKit-only user the same four tools', async () => {
    const { tools } = await staff.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'list_pages',
      'read_page',
      'search_docs',
      'submit_feedback',
    ]);
  });

  it('adds validate_docs for a manageKit caller, and runs it', async () => {
    const { tools } = await admin.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'list_pages',
      'read_page',
      'search_docs',
      'submit_feedback',
      'validate_docs',
    ]);
    const report = await admin.callTool({ name: 'validate_docs', arguments: {} });
    expect(report.isError).toBeFalsy();
    expect(textOf(report)).toContain('handbook');
  });

  it('refuses validate_docs to a guest who calls it anyway', async () => {
    // A tool the caller is not offered is an unknown tool: JSON-RPC -32602, as for any unknown name.
    const error = await guest.callTool({ name: 'validate_docs', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602, data: { code: 'argument.invalid' } });
  });

  it('search_docs: a guest finds nothing of the private version or page, a viewer does', async () => {
    for (const query of ['quasar scheduler', 'zanzibar engine']) {
      const hidden = await guest.callTool({ name: 'search_docs', arguments: { query } });
      expect((hidden.structuredContent as { results: unknown[] }).results).toEqual([]);
    }
    const shown = await staff.callTool({
      name: 'search_docs',
      arguments: { query: 'quasar scheduler', version: '2.x' },
    });
    expect((shown.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    const privateVersion = await guest.callTool({
      name: 'search_docs',
      arguments: { query: 'queues', version: '2.x' },
    });
    const missingVersion = await guest.callTool({
      name: 'search_docs',
      arguments: { query: 'queues', version: '9.x' },
    });
    expect(privateVersion.isError).toBe(true);
    expect(shapeOf(textOf(privateVersion), '2.x')).toBe(shapeOf(textOf(missingVersion), '9.x'));
  });

  it('read_page: a private version or page answers a guest exactly like a missing one', async () => {
    const privateVersion = await guest.callTool({ name: 'read_page', arguments: { path: 'queues', version: '2.x' } });
    const missingVersion = await guest.callTool({ name: 'read_page', arguments: { path: 'queues', version: '9.x' } });
    expect(privateVersion.isError).toBe(true);
    expect(textOf(privateVersion)).not.toContain('quasar');
    expect(shapeOf(textOf(privateVersion), '2.x')).toBe(shapeOf(textOf(missingVersion), '9.x'));

    const privatePage = await guest.callTool({ name: 'read_page', arguments: { path: 'internal/plans' } });
    const missingPage = await guest.callTool({ name: 'read_page', arguments: { path: 'internal/nope' } });
    expect(privatePage.isError).toBe(true);
    expect(textOf(privatePage)).not.toContain('zanzibar');
    expect(shapeOf(textOf(privatePage), 'internal/plans')).toBe(shapeOf(textOf(missingPage), 'internal/nope'));

    const viewer = await staff.callTool({ name: 'read_page', arguments: { path: 'queues', version: '2.x' } });
    expect(textOf(viewer)).toContain('quasar scheduler');
  });

  it('list_pages: a guest sees neither the private page nor the private version', async () => {
    const listing = await guest.callTool({ name: 'list_pages', arguments: {} });
    const paths = (listing.structuredContent as { groups: Array<{ pages: Array<{ path: string }> }> }).groups.flatMap(
      (group) => group.pages.map((page) => page.path),
    );
    expect(paths).toEqual(['index', 'queues']);
    const privateVersion = await guest.callTool({ name: 'list_pages', arguments: { version: '2.x' } });
    const missingVersion = await guest.callTool({ name: 'list_pages', arguments: { version: '9.x' } });
    expect(privateVersion.isError).toBe(true);
    expect(shapeOf(textOf(privateVersion), '2.x')).toBe(shapeOf(textOf(missingVersion), '9.x'));
    const viewer = await staff.callTool({ name: 'list_pages', arguments: {} });
    expect(JSON.stringify(viewer.structuredContent)).toContain('internal/plans');
  });

  it('submit_feedback: a guest cannot send feedback on a private version or page', async () => {
    const privateVersion = await guest.callTool({
      name: 'submit_feedback',
      arguments: { path: 'queues', version: '2.x', helpful: false },
    });
    const missingVersion = await guest.callTool({
      name: 'submit_feedback',
      arguments: { path: 'queues', version: '9.x', helpful: false },
    });
    expect(privateVersion.isError).toBe(true);
    expect(shapeOf(textOf(privateVersion), '2.x')).toBe(shapeOf(textOf(missingVersion), '9.x'));
    const privatePage = await guest.callTool({
      name: 'submit_feedback',
      arguments: { path: 'internal/plans', helpful: false },
    });
    expect(privatePage.isError).toBe(true);
  });

  it('the docs-page resource: a guest cannot read the private version or page, a viewer can', async () => {
    await expect(guest.readResource({ uri: 'docs://handbook/2.x/roadmap' })).rejects.toThrow();
    await expect(guest.readResource({ uri: 'docs://handbook/1.x/internal/plans' })).rejects.toThrow();
    const { contents } = await staff.readResource({ uri: 'docs://handbook/2.x/roadmap' });
    expect((contents[0] as { text: string }).text).toContain('quasar scheduler ships soon');
  });

  it('never names the private version or its content in anything a guest receives', async () => {
    const transcript = JSON.stringify([
      await guest.callTool({ name: 'search_docs', arguments: { query: 'roadmap' } }),
      await guest.callTool({ name: 'list_pages', arguments: {} }),
      await guest.callTool({ name: 'read_page', arguments: { path: 'roadmap' } }),
      guest.getInstructions(),
    ]);
    expect(transcript).not.toMatch(/2\.x|quasar|zanzibar/);
  });
});
