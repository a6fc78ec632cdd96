import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { describe, expect, it } from 'vitest';
import { connectClient, fixtureKitFactory, guest, recordEvents, textOf } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const web = { kind: 'web', set: 'docs' } as const;

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
