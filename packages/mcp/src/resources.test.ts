import type { Kit } from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { handleMcpHttpRequest } from './http.js';
import { docsPageUri } from './resources.js';
import { admin, connectClient, fixtureKitFactory, guest, refusal } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const web = { kind: 'web', set: 'docs' } as const;

/** A kit whose `docs` set fails to read any page with a plain (non-Kit) error. */
function brokenKit(): Kit {
  const kit = createFixtureKit();
  const docs = kit.set('docs');
  docs.readPage = async () => {
    throw new Error('connect ECONNREFUSED 10.0.0.5:5432 (user kit_reader)');
  };
  return kit;
}

describe('docsPageUri', () => {
  it('puts a non-default locale in front of the path and encodes each segment', () => {
    expect(docsPageUri({ set: 'docs', version: '3.x', locale: 'ar', path: 'intro' })).toBe('docs://docs/3.x/ar/intro');
    expect(docsPageUri({ set: 'docs', version: 'current', locale: undefined, path: 'guides/my page' })).toBe(
      'docs://docs/current/guides/my%20page',
    );
  });

  it('builds URIs the docs-page template reads back', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: { kind: 'local' }, viewer: guest });
    const uri = docsPageUri({ set: 'docs', version: '3.x', locale: 'ar', path: 'intro' });
    const page = await client.readResource({ uri });
    expect(page.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
  });
});

describe('docs-page resource errors', () => {
  it('lead with the stable code and carry it in data.code, like tool errors', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    // The client puts one `MCP error -32602: ` in front of the message the server sent.
    const missing = await refusal(client.readResource({ uri: 'docs://docs/3.x/nope' }));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toMatch(/^MCP error -32602: page\.not_found: No page "nope" in version 3\.x/);
    expect(missing.data).toEqual({ code: 'page.not_found' });
    const foreign = await refusal(client.readResource({ uri: 'docs://api/current/tokens' }));
    expect(foreign.message).toMatch(/^MCP error -32602: set\.foreign: This endpoint serves only the set "docs"/);
    expect(foreign.data).toEqual({ code: 'set.foreign' });
    const version = await refusal(client.readResource({ uri: 'docs://docs/9.x/queues' }));
    expect(version.data).toEqual({ code: 'version.not_found' });
  });

  it('send the code first on the wire of the web endpoint', async () => {
    const response = await handleMcpHttpRequest(
      new Request('http://127.0.0.1/docs/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'resources/read',
          params: { uri: 'docs://docs/3.x/nope' },
        }),
      }),
      { kit: createFixtureKit(), set: 'docs', viewer: guest },
    );
    const body = (await response.json()) as { id: number; error: { code: number; message: string; data: unknown } };
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^page\.not_found: No page "nope"/);
    expect(body.error.data).toEqual({ code: 'page.not_found' });
  });

  it('refuse a URI outside the template with argument.invalid and the template to use', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    for (const uri of ['docs://docs', 'https://example.com/docs/queues']) {
      const error = await refusal(client.readResource({ uri }));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(`argument.invalid: "${uri}" is not a docs page URI.`);
      expect(error.message).toContain('docs://{set}/{version}/{path}');
      expect(error.data).toEqual({ code: 'argument.invalid' });
    }
    const notUri = await refusal(
      client.request({ method: 'resources/read', params: { uri: 'queues' } }, ReadResourceResultSchema),
    );
    expect(notUri.code).toBe(-32602);
    expect(notUri.message).toMatch(/^MCP error -32602: argument\.invalid: The uri is not a URI\. Send docs:\/\//);
    expect(notUri.data).toEqual({ code: 'argument.invalid' });
  });

  it('answer a server fault with internal, and keep its details off the web', async () => {
    const onWeb = await connectClient({ kit: brokenKit(), scope: web, viewer: guest });
    const webError = await refusal(onWeb.readResource({ uri: 'docs://docs/3.x/queues' }));
    expect(webError.code).toBe(-32603);
    expect(webError.message).toBe('MCP error -32603: internal: The docs server failed to read the page. Try again.');
    expect(webError.data).toEqual({ code: 'internal' });

    const locally = await connectClient({ kit: brokenKit(), scope: { kind: 'local' }, viewer: admin });
    const localError = await refusal(locally.readResource({ uri: 'docs://docs/3.x/queues' }));
    expect(localError.message).toContain('internal: The docs server failed to read the page (connect ECONNREFUSED');
  });
});
