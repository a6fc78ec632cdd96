import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthorToolResult } from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { connectClient, fixtureKitFactory, textOf, writeFixtureFolder } from './testing/fixtures.js';

// write_asset and delete_asset on the local server over a repository set: the file is written in
// the working tree, under the same rules as on a database set.
const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_BASE64, 'base64');

async function localClient(): Promise<{ client: Client; root: string }> {
  const root = writeFixtureFolder();
  const kit = createFixtureKit({ root });
  return { client: await connectClient({ kit, scope: { kind: 'local' }, viewer: { user: null, local: true } }), root };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<AuthorToolResult> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, textOf(result)).not.toBe(true);
  return result.structuredContent as unknown as AuthorToolResult;
}

describe('write_asset and delete_asset on a repository set (local server)', () => {
  it('write the file beside the pages of the version, served at its page URL space', async () => {
    const { client, root } = await localClient();
    const result = await call(client, 'write_asset', {
      path: 'images/flow.png',
      content: `data:image/png;base64,${PNG_BASE64}`,
      summary: 'Flow diagram',
    });
    expect(result.outcome).toBe('published');
    expect(result.message).toContain('/docs/images/flow.png');
    expect(readFileSync(join(root, 'docs/3.x/images/flow.png'))).toEqual(PNG);
    expect(result.revision).toMatchObject({ kind: 'asset', path: '3.x/images/flow.png' });

    const again = await call(client, 'write_asset', { path: 'images/flow.png', content: PNG_BASE64 });
    expect(again.outcome).toBe('unchanged');
    expect(again.revision?.content_hash).toBe(result.revision?.content_hash);

    const arabic = await call(client, 'write_asset', { path: 'images/flow.png', locale: 'ar', content: PNG_BASE64 });
    expect(arabic.outcome).toBe('published');
    expect(existsSync(join(root, 'docs/3.x/ar/images/flow.png'))).toBe(true);

    const brand = await call(client, 'write_asset', { path: '/brand/logo.png', content: PNG_BASE64 });
    expect(brand.outcome).toBe('published');
    expect(existsSync(join(root, 'docs/brand/logo.png'))).toBe(true);
  });

  it('refuses a stale based_on, and deletes only with the hash of what is there', async () => {
    const { client, root } = await localClient();
    const first = await call(client, 'write_asset', { path: 'guide.pdf', content: btoa('%PDF-1.7\n%%EOF\n') });
    expect(first.outcome).toBe('published');
    const stale = await call(client, 'write_asset', {
      path: 'guide.pdf',
      content: btoa('%PDF-1.7\nnew\n%%EOF\n'),
      based_on: `sha256:${'0'.repeat(64)}`,
    });
    expect(stale.outcome).toBe('conflicted');
    expect(stale.revision?.content_hash).toBe(first.revision?.content_hash);
    expect(readFileSync(join(root, 'docs/3.x/guide.pdf'), 'utf8')).toBe('%PDF-1.7\n%%EOF\n');

    const staleDelete = await call(client, 'delete_asset', { path: 'guide.pdf', based_on: `sha256:${'1'.repeat(64)}` });
    expect(staleDelete.outcome).toBe('conflicted');
    const deleted = await call(client, 'delete_asset', { path: 'guide.pdf', based_on: first.revision!.content_hash });
    expect(deleted.outcome).toBe('published');
    expect(existsSync(join(root, 'docs/3.x/guide.pdf'))).toBe(false);
    const missing = await call(client, 'delete_asset', { path: 'guide.pdf' });
    expect(missing.outcome).toBe('rejected');
  });

  it.each([
    [
      'a path that climbs out of the set',
      { path: '../../outside.png', content: PNG_BASE64 },
      'not a plain relative path',
    ],
    ['a page file', { path: 'installation.md', content: btoa('# Hacked\n') }, 'Markdown files are pages'],
    ['an environment file', { path: '/.env', content: btoa('KEY=1\n') }, 'secrets'],
    ['an HTML page', { path: 'evil.html', content: btoa('<script>alert(1)</script>') }, '.html file'],
    ['an SVG with script', { path: 'x.svg', content: btoa('<svg><script>alert(1)</script></svg>') }, '<script>'],
    ['a mislabelled type', { path: 'x.png', content: `data:image/png;base64,${btoa('<html></html>')}` }, 'not a PNG'],
    [
      'a secret in a text file',
      { path: 'notes.txt', content: btoa('aws_access_key_id = AKIAZ3MSJV4WWNK6TQ7H\n') },
      'AWS',
    ],
    ['content that is not base64', { path: 'x.png', content: 'not base64!' }, 'not base64'],
  ])('rejects %s and writes nothing', async (_what, args, message) => {
    const { client, root } = await localClient();
    const before = readFileSync(join(root, 'docs/3.x/installation.md'), 'utf8');
    const result = await call(client, 'write_asset', args);
    expect(result.outcome).toBe('rejected');
    expect(result.message).toContain(message);
    expect(readFileSync(join(root, 'docs/3.x/installation.md'), 'utf8')).toBe(before);
    expect(existsSync(join(root, 'outside.png'))).toBe(false);
    expect(existsSync(join(root, 'docs/.env'))).toBe(false);
  });

  it('never writes through a link that leads outside the set folder', async () => {
    const { client, root } = await localClient();
    const outside = join(tmpdir(), `kit-outside-${process.pid}-${Date.now()}`);
    writeFileSync(outside, 'keep');
    symlinkSync(outside, join(root, 'docs/3.x/linked.png'));
    const result = await call(client, 'write_asset', { path: 'linked.png', content: PNG_BASE64 });
    expect(result.outcome).toBe('rejected');
    expect(readFileSync(outside, 'utf8')).toBe('keep');
  });
});
