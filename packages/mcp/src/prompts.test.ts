import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { describe, expect, it } from 'vitest';
import { admin, connectClient, fixtureKitFactory, guest, refusal } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const web = { kind: 'web', set: 'docs' } as const;
const local = { kind: 'local' } as const;

describe('prompt errors', () => {
  it('refuse a foreign set on a web endpoint with set.foreign, in the message and in data.code', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    for (const name of ['write-docs-page', 'document-change']) {
      const error = await refusal(
        client.getPrompt({ name, arguments: { topic: 'retries', change: 'main..HEAD', set: 'api' } }),
      );
      expect(error.code).toBe(-32602);
      // The client puts one `MCP error -32602: ` in front of the message the server sent.
      expect(error.message).toMatch(/^MCP error -32602: set\.foreign: This endpoint serves only the set "docs"/);
      expect(error.data).toEqual({ code: 'set.foreign' });
    }
  });

  it('refuse an unknown set locally with set.not_found and the keys', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const error = await refusal(client.getPrompt({ name: 'write-docs-page', arguments: { topic: 'x', set: 'nope' } }));
    expect(error.message).toMatch(/^MCP error -32602: set\.not_found: .*docs, api/);
    expect(error.data).toEqual({ code: 'set.not_found' });
  });

  it('ask for a missing argument with argument.invalid, naming it', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const error = await refusal(client.getPrompt({ name: 'document-change', arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      'MCP error -32602: argument.invalid: Invalid arguments for prompt document-change. Send `change`: a summary, a diff or a commit range such as "main..HEAD".',
    );
    expect(error.data).toEqual({ code: 'argument.invalid' });
    const topic = await refusal(client.getPrompt({ name: 'write-docs-page', arguments: {} }));
    expect(topic.message).toContain('argument.invalid: Invalid arguments for prompt write-docs-page. Send `topic`');
  });

  it('answer an unknown prompt with argument.invalid and where to look', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const error = await refusal(client.getPrompt({ name: 'write-page', arguments: {} }));
    expect(error.message).toBe(
      'MCP error -32602: argument.invalid: There is no prompt "write-page" on this server. Call prompts/list to see the prompts.',
    );
    expect(error.data).toEqual({ code: 'argument.invalid' });
  });
});
