import { randomUUID } from 'node:crypto';
import { type ScriptedProvider, type ScriptStep, startScriptedProvider, toolResults } from '@kit/ai/testing';
import type { KitConfigInput } from '@kit/core';
import { createRedisRateLimitStore } from '@kit/node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createKitApp, type KitAppOptions } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const redisUrl = process.env.KIT_TEST_REDIS_URL;

const providers: ScriptedProvider[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.close();
});
const stores: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

async function scripted(steps: ScriptStep[]) {
  const provider = await startScriptedProvider('openai', steps);
  providers.push(provider);
  return provider;
}

const answerScript: ScriptStep[] = [
  { toolCalls: [{ name: 'search_docs', input: { query: 'retry' } }] },
  { toolCalls: [{ name: 'read_page', input: { path: 'queues', section: 'Retrying Jobs' } }] },
  (request) => ({
    text: [
      'Scripted turn: ',
      (JSON.parse(toolResults(request).at(-1)!) as { markdown: string }).markdown.split('\n')[2]!,
      ' [Queues](/docs/queues#retrying-jobs)',
    ],
  }),
];

function app(
  provider: ScriptedProvider,
  ask: Record<string, unknown> = {},
  more: Partial<KitAppOptions> = {},
  config: Partial<KitConfigInput> = {},
) {
  return createKitApp({
    kit: fixtureKit({ ai: { ask: { enabled: true, provider: 'openai', ...ask } }, ...config }),
    cacheDir: null,
    ask: { env: { OPENAI_API_KEY: 'sk-http-test', OPENAI_BASE_URL: provider.url }, log: () => undefined },
    ...more,
  });
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }) as const;

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

function events(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
}

describe('POST /{prefix}/_kit/ask', () => {
  it('streams the answer as server-sent events, ending with the citations', async () => {
    const provider = await scripted(answerScript);
    const response = await app(provider).request('http://localhost/docs/_kit/ask', post(ask('How do retries work?')));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const received = events(await response.text());
    const text = received.map((event) => (event.type === 'text' ? event.delta : '')).join('');
    expect(text).toBe(
      'Scripted turn: Failed jobs retry three times with exponential backoff. [Queues](/docs/queues#retrying-jobs)',
    );
    expect(received.at(-1)).toEqual({
      type: 'done',
      supported: true,
      steps: 3,
      citations: [{ title: 'Queues', url: '/docs/queues#retrying-jobs', href: '/docs/queues#retrying-jobs' }],
      unverified: [],
    });
  });

  it('answers an agent that does not read streams with the whole answer as JSON', async () => {
    const provider = await scripted(answerScript);
    const response = await app(provider).request(
      'http://localhost/docs/_kit/ask',
      post(ask('How do retries work?'), { Accept: 'application/json' }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      answer: expect.stringContaining('Failed jobs retry three times'),
      supported: true,
      citations: [{ url: '/docs/queues#retrying-jobs' }],
    });
  });

  it('uses the reader version and locale for its tools', async () => {
    const provider = await scripted([
      { toolCalls: [{ name: 'read_page', input: { path: 'queues' } }] },
      { text: ['[Old](/docs/2.x/queues)'] },
    ]);
    const response = await app(provider).request(
      'http://localhost/docs/_kit/ask',
      post(ask('Retries?', { version: '2.x' }), { Accept: 'application/json' }),
    );
    expect(toolResults(provider.requests[1]!)[0]).toContain('Old queues retry once.');
    expect(await response.json()).toMatchObject({ citations: [{ url: '/docs/2.x/queues' }] });
  });

  it('refuses with JSON errors that name the problem, before calling the provider', async () => {
    const provider = await scripted([]);
    const kitApp = app(provider, { max_question_length: 5 });
    const long = await kitApp.request('http://localhost/docs/_kit/ask', post(ask('123456')));
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      error: 'ask.limit',
      limit: 'ai.ask.max_question_length',
      message: 'The question is 6 characters long; ai.ask.max_question_length allows 5. Shorten it.',
    });
    const notJson = await kitApp.request(
      'http://localhost/docs/_kit/ask',
      post('messages', { 'Content-Type': 'text/plain' }),
    );
    expect(notJson.status).toBe(415);
    const broken = await kitApp.request('http://localhost/docs/_kit/ask', post('{"messages":'));
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toBe('ask.invalid');
    // The body is bounded before it is read: a huge upload is cut off, not parsed.
    const huge = await kitApp.request('http://localhost/docs/_kit/ask', post(ask('x'.repeat(2_000_000))));
    expect(huge.status).toBe(413);
    expect((await huge.json()).message).toMatch(/ai\.ask\.max_question_length and ai\.ask\.max_history_length/);
    expect(provider.requests).toHaveLength(0);
  });

  it('is not there when ai.ask.enabled is off, and asks a guest of an auth set to sign in', async () => {
    const provider = await scripted([]);
    const off = await app(provider, { enabled: false }).request('http://localhost/docs/_kit/ask', post(ask('hi')));
    expect(off.status).toBe(404);
    expect((await off.json()).error).toBe('ask.disabled');
    const auth = await createKitApp({
      kit: fixtureKit({
        ai: { ask: { enabled: true } },
        sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, access: { mode: 'auth' } } },
      }),
      cacheDir: null,
    }).request('http://localhost/docs/_kit/ask', post(ask('hi')));
    expect(auth.status).toBe(401);
  });

  it('lets only readers the askKit gate allows ask', async () => {
    const provider = await scripted([{ text: ['Scripted reply.'] }]);
    const gated = app(
      provider,
      {},
      {},
      {
        gates: {
          viewKit: (user) => (user as { role?: string } | null)?.role === 'staff',
          askKit: (user) => (user as { role?: string } | null)?.role === 'staff',
        },
      },
    );
    const guest = await gated.request('http://localhost/docs/_kit/ask', post(ask('hi')));
    expect(guest.status).toBe(403);
    expect(await guest.json()).toEqual({
      error: 'ask.forbidden',
      message: 'Your account may not use Ask AI on these docs.',
    });
    const staff = await gated.request(
      'http://localhost/docs/_kit/ask',
      post(ask('hi'), { Authorization: 'Bearer staff' }),
    );
    expect(events(await staff.text())[0]).toEqual({ type: 'text', delta: 'Scripted reply.' });
  });
});

describe.skipIf(!redisUrl)('Ask AI limits shared through Redis', () => {
  function sharedStore() {
    const store = createRedisRateLimitStore({ url: redisUrl!, keyPrefix: `kit:test:ask:${randomUUID()}:` });
    stores.push(store);
    return store;
  }

  it('answers 429 with Retry-After once a reader used ai.ask.rate_limit, on either app', async () => {
    const provider = await scripted([{ text: ['a'] }, { text: ['b'] }, { text: ['c'] }]);
    const store = sharedStore();
    const first = app(provider, { rate_limit: '3,1' }, { rateLimitStore: store });
    const second = app(provider, { rate_limit: '3,1' }, { rateLimitStore: store });
    const statuses = [];
    for (const [i, kitApp] of [first, second, first].entries()) {
      const response = await kitApp.request('http://localhost/docs/_kit/ask', post(ask(`q${i}`)));
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([200, 200, 200]);
    for (const kitApp of [first, second]) {
      const refused = await kitApp.request('http://localhost/docs/_kit/ask', post(ask('again')));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await refused.json()).error).toBe('rate_limited');
    }
    expect(provider.requests).toHaveLength(3);
  });

  it('stops answers at the daily budget across apps and answers again the next day', async () => {
    let clock = Date.UTC(2026, 10, 26, 20, 0, 0);
    const provider = await scripted([{ text: ['a'] }, { text: ['b'] }, { text: ['c'] }]);
    const store = sharedStore();
    const options = {
      rateLimitStore: store,
      ask: { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: provider.url }, now: () => clock },
    };
    const first = app(provider, { daily_budget: 2 }, options);
    const second = app(provider, { daily_budget: 2 }, options);
    const reader = (n: number) => ({ 'X-Forwarded-For': `198.51.100.${n}` });
    // Each answer read to its end: a stream left unread may call the provider after the next one.
    const one = await first.request('http://localhost/docs/_kit/ask', post(ask('1'), reader(1)));
    expect(one.status).toBe(200);
    expect(events(await one.text())[0]).toEqual({ type: 'text', delta: 'a' });
    const two = await second.request('http://localhost/docs/_kit/ask', post(ask('2'), reader(2)));
    expect(two.status).toBe(200);
    expect(events(await two.text())[0]).toEqual({ type: 'text', delta: 'b' });
    const spent = await first.request('http://localhost/docs/_kit/ask', post(ask('3'), reader(3)));
    expect(spent.status).toBe(429);
    expect(spent.headers.get('retry-after')).toBe(String(4 * 3600));
    expect(await spent.json()).toEqual({
      error: 'ask.daily_budget',
      message:
        'Ask AI has given all 2 answers these docs allow today (ai.ask.daily_budget). Try again tomorrow; search still works.',
    });
    clock += 5 * 3600_000;
    const tomorrow = await second.request('http://localhost/docs/_kit/ask', post(ask('4'), reader(3)));
    expect(tomorrow.status).toBe(200);
    expect(events(await tomorrow.text())[0]).toEqual({ type: 'text', delta: 'c' });
  });
});
