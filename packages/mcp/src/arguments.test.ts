import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { describe, expect, it } from 'vitest';
import type { AffectedPages, ValidateDocs } from './context.js';
import {
  connectClient,
  fixtureKitFactory,
  guest,
  recordEvents,
  textOf,
  writeFixtureFolder,
} from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const web = { kind: 'web', set: 'docs' } as const;
const local = { kind: 'local' } as const;
const operator = { user: null, local: true };
const validate: ValidateDocs = async () => ({ ok: true });
const affected: AffectedPages = async () => ({ changed: [], pages: [] });

/** A local server over a writable copy of the fixtures, offering every tool it can: read, author, validate, affected. */
function localClient() {
  return connectClient({
    kit: createFixtureKit({ root: writeFixtureFolder() }),
    scope: local,
    viewer: operator,
    validate,
    affected,
  });
}

async function refusalText(
  client: Awaited<ReturnType<typeof connectClient>>,
  name: string,
  args: Record<string, unknown>,
) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return textOf(result);
}

describe('the submit_feedback comment limit', () => {
  it('counts characters, not UTF-16 units: 2000 emoji are accepted and sent on whole', async () => {
    const kit = createFixtureKit();
    const feedback = recordEvents(kit, 'FeedbackSubmitted');
    const client = await connectClient({ kit, scope: web, viewer: guest });
    const comment = '😀'.repeat(2000);
    const result = await client.callTool({
      name: 'submit_feedback',
      arguments: { path: 'queues', helpful: false, comment },
    });
    expect(result.isError).toBeFalsy();
    expect(feedback.map((event) => event.comment)).toEqual([comment]);
  });

  it('refuses 2001 characters with the count, and sends nothing', async () => {
    const kit = createFixtureKit();
    const feedback = recordEvents(kit, 'FeedbackSubmitted');
    const client = await connectClient({ kit, scope: web, viewer: guest });
    for (const comment of ['😀'.repeat(2001), 'é'.repeat(2001)]) {
      const result = await client.callTool({
        name: 'submit_feedback',
        arguments: { path: 'queues', helpful: false, comment },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'argument.invalid: Invalid arguments for submit_feedback. `comment` must be at most 2000 characters (it has 2001): shorten it to what was wrong or missing.',
      );
    }
    expect(feedback).toEqual([]);
  });

  it('still asks for a string when comment is not one', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({
      name: 'submit_feedback',
      arguments: { path: 'queues', helpful: true, comment: 42 },
    });
    expect(textOf(result)).toBe(
      'argument.invalid: Invalid arguments for submit_feedback. `comment` must be a string: what was wrong or missing.',
    );
  });

  it('publishes the limit as maxLength, which JSON Schema counts in characters too', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const tool = (await client.listTools()).tools.find((each) => each.name === 'submit_feedback');
    expect(tool?.inputSchema.properties?.comment).toEqual({
      type: 'string',
      maxLength: 2000,
      description: 'What was wrong or missing, at most 2000 characters.',
    });
  });
});

describe('argument messages', () => {
  it('answers a list sent for a string with one sentence for that argument', async () => {
    // zod also runs the length check on a list (it has a length), which would add "must not be empty".
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    expect(await refusalText(client, 'read_page', { path: [], version: [] })).toBe(
      'argument.invalid: Invalid arguments for read_page. `path` must be a string: the page path ("routing", "index" for the landing page), its URL or its .md URL. `version` must be a string: a version id such as "3.x" or "2.x"; omit it for the default.',
    );
  });

  it('asks for at most 50 sections when more are listed', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const section = Array.from({ length: 51 }, (_, index) => `part-${index}`);
    expect(await refusalText(client, 'read_page', { path: 'queues', section })).toBe(
      'argument.invalid: Invalid arguments for read_page. `section` must list at most 50 sections: ask for fewer, or omit it for the whole page.',
    );
    expect(await refusalText(client, 'read_page', { path: 'queues', section: ['Priorities', 42] })).toBe(
      'argument.invalid: Invalid arguments for read_page. `section` must be a string or a list of strings: a heading text or anchor id of the page, e.g. "Retrying Jobs" or "retrying-jobs", or a list of them; omit it for the whole page.',
    );
  });

  it('asks once for patch operations as objects, however many are not', async () => {
    const client = await localClient();
    expect(await refusalText(client, 'update_navigation', { patch: ['remove old-page', 'add new-page', 42] })).toBe(
      'argument.invalid: Invalid arguments for update_navigation. `patch` must be a list of operations, each an object such as {"op": "remove", "path": "old-page"}.',
    );
  });

  it('names the affected_pages argument that is wrong and what to send', async () => {
    const client = await localClient();
    expect(await refusalText(client, 'affected_pages', { base: 42, head: '', drift: 'yes' })).toBe(
      'argument.invalid: Invalid arguments for affected_pages. `base` must be a string: a commit, branch or tag such as "main"; omit it for the default branch. `head` must not be empty: a commit, branch or tag; omit it for HEAD. `drift` must be true or false (a boolean, not a string).',
    );
  });
});

describe('published argument schemas', () => {
  // What an agent reads in tools/list. A change here (a zod or SDK upgrade, an edited argument)
  // shows in the diff of the snapshot; review it, then update it with `vitest -u`.
  it('stay as pinned for every tool of a local server and both prompts', async () => {
    const client = await localClient();
    const { tools } = await client.listTools();
    const { prompts } = await client.listPrompts();
    await expect(`${JSON.stringify({ tools, prompts }, null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/tools-list.local.json.snap',
    );
  });
});
