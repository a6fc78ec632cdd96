import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthorToolResult } from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import type { ValidateDocs } from './context.js';
import { admin, connectClient, fixtureKitFactory, textOf, writeFixtureFolder } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const local = { kind: 'local' } as const;
const operator = { user: null, local: true };

async function localClient(validate?: ValidateDocs): Promise<{ client: Client; root: string }> {
  const root = writeFixtureFolder();
  const kit = createFixtureKit({ root });
  return {
    client: await connectClient({ kit, scope: local, viewer: operator, ...(validate ? { validate } : {}) }),
    root,
  };
}

async function author(client: Client, name: string, args: Record<string, unknown>): Promise<AuthorToolResult> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, textOf(result)).not.toBe(true);
  return result.structuredContent as unknown as AuthorToolResult;
}

async function hashOf(client: Client, path: string, extra: Record<string, unknown> = {}): Promise<string> {
  const page = await client.callTool({ name: 'read_page', arguments: { path, ...extra } });
  return (page._meta as { content_hash: string }).content_hash;
}

describe('author tools on the local server', () => {
  it('come with the writing steps in the instructions: read before writing, validate after', async () => {
    const { client } = await localClient();
    const instructions = client.getInstructions()!;
    for (const step of ['Read before writing', 'based_on', 'Validate after writing'])
      expect(instructions).toContain(step);
  });

  it('lists the seven author tools after the read tools, annotated as destructive', async () => {
    const { client } = await localClient();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).slice(-7)).toEqual([
      'write_page',
      'move_page',
      'delete_page',
      'update_navigation',
      'update_manifest',
      'write_asset',
      'delete_asset',
    ]);
    for (const tool of tools.slice(-7)) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    const manifestTool = tools.find((tool) => tool.name === 'update_manifest')!;
    expect(Object.keys(manifestTool.inputSchema.properties ?? {})).not.toContain('version');
  });

  it('creates a page file that read_page returns with the hash the revision carries', async () => {
    const { client, root } = await localClient();
    const result = await author(client, 'write_page', {
      path: 'guides/webhooks',
      frontmatter: { title: 'Webhooks', description: 'Receive events over HTTP.' },
      body: '# Webhooks\n\nKit posts events to your URL.',
      summary: 'Document webhooks',
    });
    expect(result.outcome).toBe('published');
    expect(result.docs_migration).toBeNull();
    expect(result.message).toContain('not in navigation.json yet');
    expect(readFileSync(join(root, 'docs/3.x/guides/webhooks.md'), 'utf8')).toBe(
      '---\ntitle: Webhooks\ndescription: Receive events over HTTP.\n---\n# Webhooks\n\nKit posts events to your URL.\n',
    );
    expect(await hashOf(client, 'guides/webhooks')).toBe(result.revision?.content_hash);
  });

  it('refuses a write whose based_on is stale and keeps the page as it was', async () => {
    const { client, root } = await localClient();
    const before = readFileSync(join(root, 'docs/3.x/installation.md'), 'utf8');
    const result = await author(client, 'write_page', {
      path: 'installation',
      body: '# Installation\n\nChanged.\n',
      based_on: 'sha256:0000000000000000000000000000000000000000000000000000000000000000',
    });
    expect(result.outcome).toBe('conflicted');
    expect(result.revision?.content_hash).toBe(await hashOf(client, 'installation'));
    expect(readFileSync(join(root, 'docs/3.x/installation.md'), 'utf8')).toBe(before);
  });

  it('keeps the page frontmatter when only the body is sent, and chains on the returned hash', async () => {
    const { client, root } = await localClient();
    const first = await author(client, 'write_page', {
      path: 'installation',
      body: '# Installation\n\nRun `npm install acme@3`.\n',
      based_on: await hashOf(client, 'installation'),
    });
    expect(first.outcome).toBe('published');
    expect(readFileSync(join(root, 'docs/3.x/installation.md'), 'utf8')).toMatch(
      /^---\ntitle: Installation\ndescription: Install Acme with npm\.\n---\n# Installation/,
    );
    const again = await author(client, 'write_page', {
      path: 'installation',
      body: '# Installation\n\nRun `npm install acme@3`.\n',
      based_on: first.revision!.content_hash,
    });
    expect(again.outcome).toBe('unchanged');
    expect(again.revision?.content_hash).toBe(first.revision?.content_hash);
  });

  it('rejects secrets, environment values and a frontmatter block inside the body, writing nothing', async () => {
    const { client, root } = await localClient();
    const secret = await author(client, 'write_page', {
      path: 'leak',
      frontmatter: { title: 'Leak', api_key: 'abc' },
      body: '# Leak\n',
    });
    expect(secret.outcome).toBe('rejected');
    expect(secret.message).toContain('api_key');
    const environment = await author(client, 'write_page', {
      path: 'leak',
      frontmatter: { title: '$' + '{APP_NAME}' },
      body: '# Leak\n',
    });
    expect(environment.outcome).toBe('rejected');
    const key = await author(client, 'write_page', {
      path: 'leak',
      body: '# Leak\n\nUse AKIAZ3MSJV4WWNK6TQ7H to sign in.\n',
    });
    expect(key.outcome).toBe('rejected');
    expect(key.message).toContain('(rule aws-access-token) at line 3');
    const block = await author(client, 'write_page', { path: 'leak', body: '---\ntitle: Leak\n---\n# Leak\n' });
    expect(block.outcome).toBe('rejected');
    expect(block.message).toContain('`frontmatter` object');
    expect(existsSync(join(root, 'docs/3.x/leak.md'))).toBe(false);
  });

  it('rejects each kind of secret in the body or frontmatter, naming the rule and the line', async () => {
    const { client, root } = await localClient();
    const bodies: Array<[string, string]> = [
      ['npm config set //registry.npmjs.org/:_authToken npm_4vX9qLm2Rt7YwZp3Kd8sFh6Jb1Nc5Ge0TaUi', 'npm-access-token'],
      ["Stripe::setApiKey('sk_test_51HqLyjWDarjtT1zdp7dcXY2Kq3oFb');", 'stripe-access-token'],
      ['STRIPE_KEY=rk_live_51Nx8QwLm3Rt7YwZp3Kd8sFh6', 'stripe-access-token'],
      ['DATABASE_URL=postgres://user:pass@db.internal:5432/app', 'kit-url-credentials'],
      [
        'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ODQ2MTIiLCJuYW1lIjoiUm9zYSBNYXJ0aW4iLCJpYXQiOjE3MTYyMzkwMjJ9.Xq3vR9cT1mLw5yZ8kP2sN7bD4hF6jG0aE3uI5oQ8rW',
        'jwt',
      ],
      [
        '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0jV2QBCADPn6Kc2B8q1uX0m3nQ5q7vT2zYkR8wL4pE6sD9fH1jA3bC5eG7\niK9mO1qS3uW5yA7cE9gI1kM3oQ5sU7wY9aC1eG3iK5mO7qS9uW1yA3cE5gI7kM9o\n=Zx4q\n-----END PGP PRIVATE KEY BLOCK-----',
        'private-key',
      ],
      ['https://hooks.slack.com/services/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', 'slack-webhook-url'],
      ['token: ghp_1a2B3c4D5e6F\u200B7g8H9i0JkLmNoPqRsTuVwXyZ', 'github-pat'],
    ];
    for (const [secret, rule] of bodies) {
      const result = await author(client, 'write_page', { path: 'leak', body: `# Leak\n\nText.\n\n${secret}\n` });
      expect(result.outcome, rule).toBe('rejected');
      expect(result.message).toContain(`(rule ${rule}) at line 5`);
    }
    for (const key of ['db_password', 'aws_secret_access_key', 'API-KEY', 'password ']) {
      const result = await author(client, 'write_page', {
        path: 'leak',
        frontmatter: { title: 'Leak', [key]: 'x' },
        body: '# Leak\n',
      });
      expect(result.outcome, key).toBe('rejected');
      expect(result.message).toContain(`\`${key}\` names a secret (rule kit-secret-key-name)`);
    }
    expect(existsSync(join(root, 'docs/3.x/leak.md'))).toBe(false);
  });

  it('rejects a path that leaves the set or that a URL could never reach', async () => {
    const { client } = await localClient();
    for (const path of ['../outside', 'ar/shadowed', 'a?b']) {
      const result = await author(client, 'write_page', { path, body: '# X\n' });
      expect(result.outcome, path).toBe('rejected');
    }
  });

  it('rejects page paths the page-path rule forbids, saying which rule and showing hidden characters', async () => {
    const { client, root } = await localClient();
    const cases: Array<[string, string]> = [
      ['guides/a\nb', '"guides/a\\u{A}b" is refused for write_page: it holds a line break (U+000A)'],
      ['invoice\u202Efdp', 'bidirectional control character (U+202E)'],
      ['set\u200Bup', 'invisible character (U+200B)'],
      ['.git/config', 'its segment ".git" starts with "."'],
      ['guides/node_modules/x', 'its segment "node_modules" is a dependency folder'],
    ];
    for (const [path, message] of cases) {
      const result = await author(client, 'write_page', { path, body: '# X\n' });
      expect(result.outcome, path).toBe('rejected');
      expect(result.message).toContain(message);
      const moved = await author(client, 'move_page', { from: 'installation', to: path });
      expect(moved.outcome, path).toBe('rejected');
    }
    expect(existsSync(join(root, 'docs/3.x/.git'))).toBe(false);
    expect(existsSync(join(root, 'docs/3.x/installation.md'))).toBe(true);
  });

  it('moves a page, refuses to move onto a taken path, and says to update navigation', async () => {
    const { client, root } = await localClient();
    const taken = await author(client, 'move_page', { from: 'queues', to: 'installation' });
    expect(taken.outcome).toBe('rejected');
    expect(taken.message).toContain('already exists');
    const moved = await author(client, 'move_page', {
      from: 'queues',
      to: 'guides/queues',
      based_on: await hashOf(client, 'queues'),
    });
    expect(moved.outcome).toBe('published');
    expect(moved.message).toContain('"op": "rename"');
    expect(existsSync(join(root, 'docs/3.x/queues.md'))).toBe(false);
    expect(readFileSync(join(root, 'docs/3.x/guides/queues.md'), 'utf8')).toContain('# Queues');
    const gone = await client.callTool({ name: 'read_page', arguments: { path: 'queues' } });
    expect(gone.isError).toBe(true);
  });

  it('moves a page into another version', async () => {
    const { client, root } = await localClient();
    const moved = await author(client, 'move_page', { from: 'installation', to: 'installation', to_version: '2.x' });
    expect(moved.outcome).toBe('published');
    expect(existsSync(join(root, 'docs/2.x/installation.md'))).toBe(true);
    expect(await hashOf(client, 'installation', { version: '2.x' })).toBe(moved.revision?.content_hash);
  });

  it('deletes a page and refuses to delete one that is not there', async () => {
    const { client, root } = await localClient();
    const deleted = await author(client, 'delete_page', { path: 'installation' });
    expect(deleted.outcome).toBe('published');
    expect(existsSync(join(root, 'docs/3.x/installation.md'))).toBe(false);
    const again = await author(client, 'delete_page', { path: 'installation' });
    expect(again.outcome).toBe('rejected');
  });

  it('patches navigation, chains on its revision hash and refuses a stale one', async () => {
    const { client } = await localClient();
    const added = await author(client, 'update_navigation', {
      patch: [{ op: 'move', path: 'queues', group: 'Getting Started', after: 'index' }],
    });
    expect(added.outcome).toBe('published');
    const listing = await client.callTool({ name: 'list_pages', arguments: {} });
    const groups = (listing.structuredContent as { groups: Array<{ label: string; pages: Array<{ path: string }> }> })
      .groups;
    expect(groups[0]?.pages.map((page) => page.path)).toEqual(['index', 'queues', 'installation']);
    const renamed = await author(client, 'update_navigation', {
      patch: [{ op: 'rename', group: 'Guides', to: 'Handbook' }],
      based_on: added.revision!.content_hash,
    });
    expect(renamed.outcome).toBe('published');
    const stale = await author(client, 'update_navigation', {
      patch: [{ op: 'remove', path: 'queues' }],
      based_on: added.revision!.content_hash,
    });
    expect(stale.outcome).toBe('conflicted');
    const broken = await author(client, 'update_navigation', {
      patch: [{ op: 'move', path: 'nowhere', group: 'Guides' }],
    });
    expect(broken.outcome).toBe('rejected');
  });

  it('starts from the derived navigation in a version without a navigation file', async () => {
    const { client, root } = await localClient();
    const result = await author(client, 'update_navigation', {
      version: '2.x',
      patch: [{ op: 'rename', path: 'queues', title: 'Old queues' }],
    });
    expect(result.outcome).toBe('published');
    const written = JSON.parse(readFileSync(join(root, 'docs/2.x/navigation.json'), 'utf8'));
    expect(JSON.stringify(written)).toContain('Old queues');
  });

  it('merge-patches the manifest and rejects keys that belong in the configuration', async () => {
    const { client, root } = await localClient();
    const renamed = await author(client, 'update_manifest', { patch: { name: 'Acme Handbook' } });
    expect(renamed.outcome).toBe('published');
    expect(JSON.parse(readFileSync(join(root, 'docs/kit.json'), 'utf8')).name).toBe('Acme Handbook');
    const pages = await client.callTool({ name: 'list_pages', arguments: {} });
    expect(textOf(pages)).toContain('docs 3.x');
    const refused = await author(client, 'update_manifest', { patch: { route: { prefix: 'x' } } });
    expect(refused.outcome).toBe('rejected');
    expect(refused.message).toContain('kit.config.ts');
    const same = await author(client, 'update_manifest', {
      patch: { name: 'Acme Handbook' },
      based_on: renamed.revision!.content_hash,
    });
    expect(same.outcome).toBe('unchanged');
  });

  it("writes the service's $schema when it changes a manifest without one, and leaves a current one alone", async () => {
    const root = writeFixtureFolder();
    const kit = createFixtureKit({ root });
    const client = await connectClient({ kit, scope: local, viewer: operator, schemaOrigin: 'https://docs.acme.dev' });
    await author(client, 'update_manifest', { set: 'api', patch: { description: 'The Acme API.' } });
    const api = readFileSync(join(root, 'api/kit.json'), 'utf8');
    expect(JSON.parse(api)).toEqual({
      $schema: 'https://docs.acme.dev/schemas/3.x/kit.json',
      name: 'Acme API',
      description: 'The Acme API.',
    });
    const other = await connectClient({ kit, scope: local, viewer: operator, origin: 'http://localhost:9999' });
    await author(other, 'update_manifest', { set: 'api', patch: { description: 'Changed.' } });
    expect(JSON.parse(readFileSync(join(root, 'api/kit.json'), 'utf8')).$schema).toBe(
      'https://docs.acme.dev/schemas/3.x/kit.json',
    );
  });

  it('writes into the set a call names and refuses an unknown version with the versions to use', async () => {
    const { client, root } = await localClient();
    const api = await author(client, 'write_page', { set: 'api', path: 'limits', body: '# Limits\n' });
    expect(api.outcome).toBe('published');
    expect(existsSync(join(root, 'api/limits.md'))).toBe(true);
    const wrong = await client.callTool({
      name: 'write_page',
      arguments: { path: 'x', body: '# X\n', version: '9.x' },
    });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/^version\.not_found: .*3\.x/);
  });

  it('reports what validation found in the written page only', async () => {
    const validate: ValidateDocs = async ({ set }) => ({
      set,
      ok: false,
      issues: [
        {
          rule: 'links.broken',
          severity: 'error',
          message: 'Link to "nowhere" is broken.',
          version: '3.x',
          locale: 'en',
          page: 'guides/linked',
        },
        {
          rule: 'links.broken',
          severity: 'error',
          message: 'Another page.',
          version: '3.x',
          locale: 'en',
          page: 'queues',
        },
      ],
    });
    const { client } = await localClient(validate);
    const result = await author(client, 'write_page', {
      path: 'guides/linked',
      body: '# Linked\n\n[x](/docs/nowhere)\n',
    });
    expect(result.validation).toMatchObject({ errors: 1, warnings: 0 });
    expect(result.validation?.issues.map((issue) => issue.message)).toEqual(['Link to "nowhere" is broken.']);
    expect(result.message).toContain('Validation found 1 error');
  });
});

describe('author tools on the web', () => {
  it('are never offered on a repository set, not even to a caller manageKit allows', async () => {
    const kit = createFixtureKit({ root: writeFixtureFolder() });
    const client = await connectClient({ kit, scope: { kind: 'web', set: 'docs' }, viewer: admin });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('write_page');
    const call = await client
      .callTool({ name: 'write_page', arguments: { path: 'x', body: '# X\n' } })
      .catch((caught: unknown) => caught);
    expect(call).toMatchObject({ code: -32602, data: { code: 'argument.invalid' } });
  });
});
