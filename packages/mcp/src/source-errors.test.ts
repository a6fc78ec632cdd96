import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { connectClient, fixtureKitFactory, guest, refusal, textOf, writeFixtureFolder } from './testing/fixtures.js';

// A set with a page file the server cannot read: the tools that need the version's pages fail
// with source.error. The local server (whose operator owns the files) names the file; the web
// endpoint logs it and tells the agent no file name (the page may be private).

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const root = writeFixtureFolder();
// Over 2 GiB (sparse): Node.js refuses to read it, whoever runs the test.
truncateSync(join(root, 'docs/3.x/internal/roadmap.md'), 3 * 1024 ** 3);

describe('MCP on a set with a page file the server cannot read', () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  afterEach(() => logged.mockClear());
  afterAll(() => logged.mockRestore());
  const loggedText = () => logged.mock.calls.map((call) => call.map(String).join(' ')).join('\n');

  it('names the file to the local operator', async () => {
    const client = await connectClient({ kit: createFixtureKit({ root }), scope: { kind: 'local' }, viewer: guest });
    const result = await client.callTool({ name: 'list_pages', arguments: { set: 'docs' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^source\.error: Reading the "docs" docs failed: the file 3\.x\/internal\/roadmap\.md/,
    );
    const read = await refusal(client.readResource({ uri: 'docs://docs/3.x/internal/roadmap' }));
    expect(read.code).toBe(-32603);
    expect(read.message).toContain('3.x/internal/roadmap.md cannot be read');
  });

  it('logs the file on the web and tells the agent only that the server cannot read its files', async () => {
    const client = await connectClient({
      kit: createFixtureKit({ root }),
      scope: { kind: 'web', set: 'docs' },
      viewer: guest,
    });
    const result = await client.callTool({ name: 'list_pages', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^source\.error: The docs server cannot read some of its files right now/);
    expect(textOf(result)).not.toContain('roadmap');
    expect(loggedText()).toContain('3.x/internal/roadmap.md cannot be read');

    logged.mockClear();
    const read = await refusal(client.readResource({ uri: 'docs://docs/3.x/internal/roadmap' }));
    expect(read.code).toBe(-32603);
    expect(read.message).toMatch(/source\.error: The docs server cannot read some of its files/);
    expect(read.message).not.toContain('roadmap.md');
    expect(loggedText()).toContain('3.x/internal/roadmap.md cannot be read');
  });
});
