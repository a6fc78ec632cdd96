import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runStdioServer } from './stdio.js';
import { fixtureKitFactory, recordEvents } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });

function nextLine(stream: PassThrough): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end >= 0) {
        stream.off('data', onData);
        resolve(JSON.parse(buffered.slice(0, end)));
      }
    };
    stream.on('data', onData);
  });
}

describe('runStdioServer', () => {
  it('speaks newline-delimited JSON-RPC on stdin and stdout and stops when stdin ends', async () => {
    const kit = createFixtureKit();
    const calls = recordEvents(kit, 'McpToolCalled');
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const { closed } = await runStdioServer(kit, { stdin, stdout });

    const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const init = (await nextLine(stdout)) as {
      result: { instructions: string; serverInfo: { name: string; version: string } };
    };
    expect(init.result.serverInfo.name).toBe('kit');
    // The version a client sees is the installed package's, not a number kept by hand.
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(init.result.serverInfo.version).toBe(manifest.version);
    expect(init.result.instructions).toContain('`api`: Acme API');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    // The local admin sees the private 4.x version without signing in.
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read_page', arguments: { path: 'tokens', set: 'api' } },
    });
    const read = (await nextLine(stdout)) as { result: { content: Array<{ text: string }> } };
    expect(read.result.content[0]!.text).toContain('Create API tokens in settings.');
    expect(calls).toMatchObject([{ tool: 'read_page', transport: 'stdio', ok: true }]);

    // An unknown tool: one JSON-RPC error -32602, and nothing more for that id (the next line
    // answers the next request).
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'serch_docs', arguments: {} } });
    const unknown = (await nextLine(stdout)) as { id: number; error: { code: number; message: string } };
    expect(unknown).toMatchObject({ id: 3, error: { code: -32602 } });
    expect(unknown.error.message).toMatch(/^argument\.invalid: There is no tool "serch_docs"/);
    send({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
    expect(await nextLine(stdout)).toMatchObject({ id: 4, result: { tools: expect.any(Array) } });

    stdin.end();
    await closed;
  });
});
