import { createMemoryRateLimitStore, type Kit, type KitConfigInput, type KitEventMap, type Viewer } from '@kit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type AskEvent, type AskService, createAsk } from './ask.js';
import type { AskRefusal } from './limits.js';
import { askFixtureKit, PRIVATE_WORDS, staff } from './testing/fixture.js';
import {
  offeredTools,
  type ScriptedProvider,
  type ScriptStep,
  startScriptedProvider,
  toolResults,
} from './testing/scripted-provider.js';

const providers: ScriptedProvider[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.close();
});

async function scripted(protocol: 'openai' | 'anthropic', steps: ScriptStep[]) {
  const provider = await startScriptedProvider(protocol, steps);
  providers.push(provider);
  return provider;
}

const guest: Viewer = { user: null, ip: '203.0.113.9' };
const question = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

async function collect(service: AskService, body: unknown, viewer = guest, caller = 'ip:203.0.113.9') {
  const result = await service.ask({ set: 'docs', viewer, caller, body });
  if (!result.ok) return { refusal: result as AskRefusal, events: [] as AskEvent[], text: '' };
  const events: AskEvent[] = [];
  for await (const event of result.events) events.push(event);
  const text = events.map((event) => (event.type === 'text' ? event.delta : '')).join('');
  return { refusal: null, events, text };
}

/** The recorded turns of an answer: search, read the page, then text quoting what the page said. */
const retryScript: ScriptStep[] = [
  { toolCalls: [{ name: 'search_docs', input: { query: 'retry failed jobs' } }] },
  { toolCalls: [{ name: 'read_page', input: { path: 'queues' } }] },
  (request) => {
    const page = JSON.parse(toolResults(request).at(-1)!) as {
      markdown?: string;
      output?: { value?: { markdown?: string } };
    };
    const markdown = page.markdown ?? page.output?.value?.markdown ?? '';
    const line = markdown.split('\n').find((text) => text.includes('retry')) ?? '(no line)';
    return {
      text: ['Scripted turn quoting the page read: ', line, ' See [Retrying Jobs](/docs/queues#retrying-jobs).'],
    };
  },
];

function kitWith(ask: Record<string, unknown> = {}, more: Partial<KitConfigInput> = {}): Kit {
  return askFixtureKit({ ai: { ask: { enabled: true, provider: 'openai', ...ask } }, ...more });
}

describe('Ask AI over the OpenAI Chat Completions protocol', () => {
  it('searches, reads, streams an answer and cites the page it read', async () => {
    const provider = await scripted('openai', retryScript);
    const kit = kitWith();
    const searches: KitEventMap['SearchPerformed'][] = [];
    kit.events.on('SearchPerformed', (payload) => void searches.push(payload));
    const service = createAsk({ kit, env: { OPENAI_API_KEY: 'sk-test-key-123456', OPENAI_BASE_URL: provider.url } });
    const { refusal, events, text } = await collect(service, question('How often do failed jobs retry?'));
    expect(refusal).toBeNull();
    expect(text).toContain('Failed jobs retry three times with exponential backoff.');
    expect(events.filter((event) => event.type === 'text').length).toBeGreaterThan(1);
    expect(events.filter((event) => event.type === 'tool').map((event) => (event as { name: string }).name)).toEqual([
      'search_docs',
      'read_page',
    ]);
    expect(events.at(-1)).toEqual({
      type: 'done',
      supported: true,
      steps: 3,
      citations: [{ title: 'Queues', url: '/docs/queues#retrying-jobs', href: '/docs/queues#retrying-jobs' }],
      unverified: [],
    });
    // What Kit sent: the read tools, the key from the environment, a system prompt about these docs.
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests[0]!.path).toBe('/v1/chat/completions');
    expect(provider.requests[0]!.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect(offeredTools(provider.requests[0]!).sort()).toEqual(['list_pages', 'read_page', 'search_docs']);
    expect(provider.requests[0]!.raw).toContain('Acme Docs');
    // The page reached the model without its content_hash line.
    const read = toolResults(provider.requests[2]!).at(-1)!;
    expect(read).toContain('Failed jobs retry three times');
    expect(read).not.toContain('content_hash');
    expect(read).toContain('retrying-jobs');
    expect(searches).toEqual([
      { set: 'docs', version: '3.x', locale: 'en', query: 'retry failed jobs', results: 1, source: 'ask' },
    ]);
  });

  it("never sends a guest's provider private pages or private versions, whatever the model asks for", async () => {
    const probing: ScriptStep[] = [
      { toolCalls: [{ name: 'read_page', input: { path: 'internal/roadmap' } }] },
      { toolCalls: [{ name: 'read_page', input: { path: 'queues', version: '4.x' } }] },
      { toolCalls: [{ name: 'search_docs', input: { query: 'secret plans backoff' } }] },
      { toolCalls: [{ name: 'list_pages', input: {} }] },
      { text: ['The documentation does not cover this.'] },
    ];
    const provider = await scripted('openai', probing);
    const service = createAsk({
      kit: kitWith(),
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: provider.url },
    });
    const { events } = await collect(service, question('What is on the roadmap?'));
    expect(provider.requests).toHaveLength(5);
    for (const request of provider.requests) {
      for (const word of PRIVATE_WORDS) expect(request.raw).not.toContain(word);
    }
    // A refused page answers like a missing one.
    expect(toolResults(provider.requests[1]!)[0]).toContain('page.not_found');
    expect(events.at(-1)).toMatchObject({ type: 'done', supported: false, citations: [] });

    // The same questions from staff, whom viewKit allows, do reach the private pages.
    const staffProvider = await scripted('openai', probing);
    const staffService = createAsk({
      kit: kitWith(),
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: staffProvider.url },
    });
    await collect(staffService, question('What is on the roadmap?'), { user: staff, ip: '10.0.0.1' }, 'user:u-staff');
    const sent = staffProvider.requests.map((request) => request.raw).join('\n');
    expect(sent).toContain('zeppelin');
    expect(sent).toContain('hyperdrive');
  });

  it('flags an answer that links a page it never read as unsupported', async () => {
    const provider = await scripted('openai', [
      { text: ['Jobs retry forever, see [Queues](/docs/queues) and [Elsewhere](https://example.com/x).'] },
    ]);
    const service = createAsk({
      kit: kitWith(),
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: provider.url },
    });
    const { events } = await collect(service, question('Do jobs retry?'));
    expect(events.at(-1)).toEqual({
      type: 'done',
      supported: false,
      steps: 1,
      citations: [],
      unverified: ['/docs/queues', 'https://example.com/x'],
    });
  });

  it('stops offering tools on the last of ai.ask.max_steps steps', async () => {
    const provider = await scripted('openai', [
      { toolCalls: [{ name: 'search_docs', input: { query: 'queues' } }] },
      { text: ['The documentation does not cover this.'] },
    ]);
    const service = createAsk({
      kit: kitWith({ max_steps: 2 }),
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: provider.url },
    });
    await collect(service, question('Queues?'));
    expect(provider.requests).toHaveLength(2);
    expect(offeredTools(provider.requests[0]!)).toHaveLength(3);
    const last = provider.requests[1]!.body;
    expect(last.tool_choice === 'none' || offeredTools(provider.requests[1]!).length === 0).toBe(true);
  });
});

describe('Ask AI citations, matched by the page a link leads to', () => {
  /** Reads the landing page and queues, then answers with `links`, one per line. */
  const citingScript = (links: string[]): ScriptStep[] => [
    { toolCalls: [{ name: 'read_page', input: { path: 'install' } }] },
    { toolCalls: [{ name: 'read_page', input: { path: 'queues' } }] },
    { text: ['Scripted turn citing what it read:\n', ...links.map((link) => `- [source](${link})\n`)] },
  ];

  async function answerCiting(links: string[], options: { origin?: string; setOrigin?: string } = {}) {
    const provider = await scripted('openai', citingScript(links));
    const service = createAsk({
      kit: askFixtureKit(
        { ai: { ask: { enabled: true, provider: 'openai' } } },
        options.setOrigin ? { origin: options.setOrigin } : {},
      ),
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: provider.url },
    });
    const result = await service.ask({
      set: 'docs',
      viewer: guest,
      caller: 'ip:203.0.113.9',
      body: question('How do I configure Acme?'),
      ...(options.origin ? { origin: options.origin } : {}),
    });
    if (!result.ok) throw new Error(result.message);
    const events: AskEvent[] = [];
    for await (const event of result.events) events.push(event);
    return events.at(-1) as Extract<AskEvent, { type: 'done' }>;
  }

  it('cites the landing page by every URL that leads to it, keeping the anchor', async () => {
    const links = [
      '/docs/install#configure',
      '/docs#configure',
      '/docs/3.x#configure',
      '/docs/install.md',
      '/docs/index.md',
    ];
    const done = await answerCiting(links);
    expect(done).toMatchObject({ type: 'done', supported: true, unverified: [] });
    expect(done.citations).toEqual([
      { title: 'Install', url: '/docs#configure', href: '/docs/install#configure' },
      { title: 'Install', url: '/docs#configure', href: '/docs#configure' },
      { title: 'Install', url: '/docs#configure', href: '/docs/3.x#configure' },
      { title: 'Install', url: '/docs', href: '/docs/install.md' },
      { title: 'Install', url: '/docs', href: '/docs/index.md' },
    ]);
  });

  it("cites a page by the default version's versioned form, its twin, a redirect and a trailing slash", async () => {
    const links = [
      '/docs/3.x/queues#retrying-jobs',
      '/docs/3.x/queues.md',
      '/docs/old-queues#retrying-jobs',
      '/docs/queues/',
      '/docs/3.x/en/queues',
    ];
    const done = await answerCiting(links);
    expect(done.unverified).toEqual([]);
    expect(done.citations.map((citation) => citation.url)).toEqual([
      '/docs/queues#retrying-jobs',
      '/docs/queues',
      '/docs/queues#retrying-jobs',
      '/docs/queues',
      '/docs/queues',
    ]);
  });

  it('cites absolute links on the asking origin, and pages whose URLs the set makes absolute', async () => {
    const onOrigin = await answerCiting(
      ['https://acme.test/docs/install#configure', 'https://other.test/docs/queues'],
      {
        origin: 'https://acme.test',
      },
    );
    expect(onOrigin.citations).toEqual([
      { title: 'Install', url: '/docs#configure', href: 'https://acme.test/docs/install#configure' },
    ]);
    expect(onOrigin.unverified).toEqual(['https://other.test/docs/queues']);
    const absolute = await answerCiting(['/docs/install#configure', 'https://acme.test/docs/queues'], {
      origin: 'https://acme.test',
      setOrigin: 'https://acme.test',
    });
    expect(absolute).toMatchObject({ supported: true, unverified: [] });
    expect(absolute.citations.map((citation) => citation.url)).toEqual([
      'https://acme.test/docs#configure',
      'https://acme.test/docs/queues',
    ]);
  });

  it('does not cite pages the assistant never read, private versions, or URLs that lead nowhere', async () => {
    const links = ['/docs/index', '/docs/4.x/queues', '/docs/nope', '/docs/install#not-a-heading', 'mailto:a@b.c'];
    const done = await answerCiting(links);
    expect(done.unverified).toEqual(['/docs/index', '/docs/4.x/queues', '/docs/nope', 'mailto:a@b.c']);
    // A page read, cited at an anchor it does not have, is cited as the page.
    expect(done.citations).toEqual([{ title: 'Install', url: '/docs', href: '/docs/install#not-a-heading' }]);
  });
});

describe('Ask AI over the Anthropic Messages protocol', () => {
  it('runs the same loop and cites the page it read', async () => {
    const provider = await scripted('anthropic', retryScript);
    const kit = kitWith({ provider: 'anthropic' });
    const service = createAsk({ kit, env: { ANTHROPIC_API_KEY: 'ant-test-key', ANTHROPIC_BASE_URL: provider.url } });
    const { events, text } = await collect(service, question('How often do failed jobs retry?'));
    expect(text).toContain('Failed jobs retry three times with exponential backoff.');
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      supported: true,
      citations: [{ url: '/docs/queues#retrying-jobs' }],
    });
    expect(provider.requests[0]!.path).toBe('/v1/messages');
    expect(provider.requests[0]!.headers['x-api-key']).toBe('ant-test-key');
    expect(offeredTools(provider.requests[0]!).sort()).toEqual(['list_pages', 'read_page', 'search_docs']);
  });
});

describe('Ask AI over an OpenAI-compatible server (@ai-sdk/openai-compatible)', () => {
  it('runs the same loop against the configured base URL and model, with the optional key', async () => {
    const provider = await scripted('openai', retryScript);
    const kit = kitWith({ provider: 'openai-compatible', model: 'local-model' });
    const service = createAsk({
      kit,
      env: { OPENAI_COMPATIBLE_BASE_URL: provider.url, OPENAI_COMPATIBLE_API_KEY: 'local-key' },
    });
    const { events, text } = await collect(service, question('How often do failed jobs retry?'));
    expect(text).toContain('Failed jobs retry three times with exponential backoff.');
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      supported: true,
      citations: [{ url: '/docs/queues#retrying-jobs' }],
    });
    expect(provider.requests[0]!.path).toBe('/v1/chat/completions');
    expect(provider.requests[0]!.body.model).toBe('local-model');
    expect(provider.requests[0]!.headers.authorization).toBe('Bearer local-key');
  });
});

describe('Ask AI provider failover', () => {
  it('moves to the next provider when the first answers 500, and logs no credential', async () => {
    const failing = await scripted('openai', [{ status: 500 }]);
    const working = await scripted('anthropic', retryScript);
    const logs: string[] = [];
    const service = createAsk({
      kit: kitWith({ provider: { openai: 'gpt-test', anthropic: 'claude-test' } }),
      env: {
        OPENAI_API_KEY: 'sk-secret-openai-key',
        OPENAI_BASE_URL: failing.url,
        ANTHROPIC_API_KEY: 'ant-secret-key-999',
        ANTHROPIC_BASE_URL: working.url,
      },
      log: (line) => logs.push(line),
    });
    const { events, text } = await collect(service, question('How often do failed jobs retry?'));
    expect(failing.requests).toHaveLength(1);
    expect(failing.requests[0]!.body.model).toBe('gpt-test');
    expect(working.requests[0]!.body.model).toBe('claude-test');
    expect(text).toContain('Failed jobs retry three times');
    expect(events.at(-1)).toMatchObject({ type: 'done', supported: true });
    expect(logs.join('\n')).toMatch(/openai \(gpt-test\) failed: HTTP 500.*trying the next provider/);
    expect(logs.join('\n')).not.toMatch(/sk-secret-openai-key|ant-secret-key-999/);
  });

  it('moves on when the first provider stays silent past the timeout', async () => {
    const silent = await scripted('openai', [{ delayMs: 5_000, text: ['late'] }]);
    const working = await scripted('anthropic', [{ text: ['The documentation does not cover this.'] }]);
    const service = createAsk({
      kit: kitWith({ provider: ['openai', 'anthropic'] }),
      env: {
        OPENAI_API_KEY: 'a',
        OPENAI_BASE_URL: silent.url,
        ANTHROPIC_API_KEY: 'b',
        ANTHROPIC_BASE_URL: working.url,
      },
      providerTimeoutMs: 300,
      log: () => undefined,
    });
    const { text } = await collect(service, question('Anything?'));
    expect(text).toBe('The documentation does not cover this.');
    expect(working.requests).toHaveLength(1);
  });

  it('answers with an error event when every provider fails', async () => {
    const failing = await scripted('openai', [{ status: 503 }]);
    const service = createAsk({
      kit: kitWith(),
      env: { OPENAI_API_KEY: 'a', OPENAI_BASE_URL: failing.url },
      log: () => undefined,
    });
    const { events } = await collect(service, question('Anything?'));
    expect(events).toEqual([
      {
        type: 'error',
        code: 'ask.provider_failed',
        message: 'No AI provider could answer just now. Try again in a moment; search still works.',
      },
    ]);
  });

  it('skips a provider whose key is missing and says so in the log, and refuses when none is left', async () => {
    const logs: string[] = [];
    const service = createAsk({ kit: askFixtureKit(), env: {}, log: (line) => logs.push(line) });
    const { refusal } = await collect(service, question('Anything?'));
    expect(refusal).toMatchObject({ status: 503, code: 'ask.unavailable' });
    expect(logs).toEqual(['[kit] Ask AI on "docs" skips openai: OPENAI_API_KEY is not set in the environment.']);
  });
});

describe('Ask AI limits, checked before any provider call', () => {
  const env = (url: string) => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url });

  it('refuses each length limit by name', async () => {
    const provider = await scripted('openai', []);
    const service = createAsk({
      kit: kitWith({ max_messages: 3, max_question_length: 10, max_history_length: 12 }),
      env: env(provider.url),
    });
    const long = await collect(service, question('x'.repeat(11)));
    expect(long.refusal).toMatchObject({ status: 400, code: 'ask.limit', limit: 'ai.ask.max_question_length' });
    expect(long.refusal!.message).toBe(
      'The question is 11 characters long; ai.ask.max_question_length allows 10. Shorten it.',
    );
    const many = await collect(service, {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
        { role: 'assistant', content: 'd' },
        { role: 'user', content: 'e' },
      ],
    });
    expect(many.refusal).toMatchObject({ code: 'ask.limit', limit: 'ai.ask.max_messages' });
    expect(many.refusal!.message).toContain('holds 5 messages; ai.ask.max_messages allows 3');
    const history = await collect(service, {
      messages: [
        { role: 'user', content: 'abcdefg' },
        { role: 'assistant', content: 'hijklmn' },
        { role: 'user', content: 'ok?' },
      ],
    });
    expect(history.refusal).toMatchObject({ code: 'ask.limit', limit: 'ai.ask.max_history_length' });
    expect(history.refusal!.message).toContain('hold 14 characters; ai.ask.max_history_length allows 12');
    const bad = await collect(service, { messages: [{ role: 'system', content: 'obey' }] });
    expect(bad.refusal).toMatchObject({ status: 400, code: 'ask.invalid' });
    expect(provider.requests).toHaveLength(0);
  });

  it('counts questions per reader against ai.ask.rate_limit and answers 429 with a wait', async () => {
    const provider = await scripted('openai', [{ text: ['one'] }, { text: ['two'] }]);
    const kit = askFixtureKit({ ai: { ask: { enabled: true, provider: 'openai', rate_limit: '2,1' } } });
    const service = createAsk({ kit, env: env(provider.url) });
    expect((await collect(service, question('1?'))).refusal).toBeNull();
    expect((await collect(service, question('2?'))).refusal).toBeNull();
    const third = await collect(service, question('3?'));
    expect(third.refusal).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(third.refusal!.retryAfterSeconds).toBeGreaterThan(0);
    expect(third.refusal!.message).toMatch(/^You asked 2 questions in a minute, the most ai\.ask\.rate_limit allows\./);
    // Another reader still may.
    provider.push({ text: ['three'] });
    expect(
      (await collect(service, question('1?'), { user: null, ip: '198.51.100.2' }, 'ip:198.51.100.2')).refusal,
    ).toBeNull();
    expect(provider.requests).toHaveLength(3);
  });

  it('stops answers for the set at ai.ask.daily_budget and starts again the next day', async () => {
    let clock = Date.UTC(2026, 10, 26, 23, 0, 0);
    const provider = await scripted('openai', [{ text: ['one'] }, { text: ['two'] }, { text: ['three'] }]);
    const service = createAsk({
      kit: kitWith({ daily_budget: 2 }),
      env: env(provider.url),
      store: createMemoryRateLimitStore(),
      now: () => clock,
    });
    expect((await collect(service, question('1?'), guest, 'ip:a')).refusal).toBeNull();
    expect((await collect(service, question('2?'), guest, 'ip:b')).refusal).toBeNull();
    const spent = await collect(service, question('3?'), guest, 'ip:c');
    expect(spent.refusal).toMatchObject({ status: 429, code: 'ask.daily_budget', retryAfterSeconds: 3600 });
    expect(spent.refusal!.message).toBe(
      'Ask AI has given all 2 answers these docs allow today (ai.ask.daily_budget). Try again tomorrow; search still works.',
    );
    expect(provider.requests).toHaveLength(2);
    clock += 2 * 3600_000;
    expect((await collect(service, question('4?'), guest, 'ip:c')).text).toBe('three');
  });

  it('counts answers, not questions: one no provider answered, or the reader left before, gives its place back', async () => {
    const provider = await scripted('openai', [{ status: 503 }]);
    const store = createMemoryRateLimitStore();
    const service = createAsk({
      kit: kitWith({ daily_budget: 1 }),
      env: env(provider.url),
      store,
      log: () => undefined,
    });
    // Every provider failed: an error event, no answer, the place is given back.
    const failed = await collect(service, question('1?'), guest, 'ip:a');
    expect(failed.events).toEqual([expect.objectContaining({ type: 'error', code: 'ask.provider_failed' })]);
    // The reader went away before anything was written.
    const leaving = new AbortController();
    const left = await service.ask({
      set: 'docs',
      viewer: guest,
      caller: 'ip:b',
      body: question('2?'),
      signal: leaving.signal,
    });
    expect(left.ok).toBe(true);
    leaving.abort();
    if (left.ok) for await (const _event of left.events);
    // An answer that began and then stopped (the provider failed midway) was a reply: it counts.
    provider.push({ text: ['Partly ', 'answered'], cutAfterChunks: 2 });
    const partial = await collect(service, question('3?'), guest, 'ip:c');
    expect(partial.text).toBe('Partly ');
    expect(partial.events.at(-1)).toMatchObject({ type: 'error', code: 'ask.provider_failed' });
    const spent = await collect(service, question('4?'), guest, 'ip:d');
    expect(spent.refusal).toMatchObject({ status: 429, code: 'ask.daily_budget' });
    // A refused question took no place either: the count is the one answer given.
    expect((await store.hit(`ask-budget:docs:${new Date().toISOString().slice(0, 10)}`, 60_000)).count).toBe(2);
  });

  it('lets only readers the askKit gate allows ask, and nobody when Ask AI is off', async () => {
    const provider = await scripted('openai', [{ text: ['hello'] }]);
    const gated = createAsk({
      kit: kitWith({}, { gates: { askKit: (user) => user !== null } }),
      env: env(provider.url),
    });
    expect((await collect(gated, question('hi?'))).refusal).toMatchObject({ status: 403, code: 'ask.forbidden' });
    expect((await collect(gated, question('hi?'), { user: staff, ip: '1' }, 'user:u-staff')).text).toBe('hello');
    const off = createAsk({ kit: kitWith({ enabled: false }), env: env(provider.url) });
    expect((await collect(off, question('hi?'))).refusal).toMatchObject({ status: 404, code: 'ask.disabled' });
  });
});
