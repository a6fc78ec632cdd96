/**
 * Ask AI's own cost: time from question to first token and per step, with a scripted provider
 * (the test-only server that speaks OpenAI's Chat Completions streaming protocol), against the
 * same work done directly in the same run: the same search and read calls on the DocSet, and the
 * same provider requests (the exact bodies Kit sent) posted with fetch. What is left is Kit's
 * overhead per step: the AI SDK's loop, tool schemas, the limits, the citation check.
 *
 *   KIT_SHARED_DIR=/work/shared npx tsx --conditions=kit-source bench/ask/index.ts [--questions 20] [--rounds 3]
 *
 * Each question runs three steps, as a real answer does: search_docs, read_page of the first hit,
 * then the answer text (streamed in 20 pieces). The docs are the Laravel 13.x corpus.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { createAsk } from '@kit/ai';
import { type ScriptStep, startScriptedProvider, toolResults } from '@kit/ai/testing';
import { createDocSet, createEvents, createKit, createMemoryRateLimitStore, resolveConfig } from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { streamText } from 'ai';
import { LARAVEL_ROOT, readQueries } from '../search-quality/corpus.js';
import { median } from '../stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const questionCount = option('questions', 20);
const rounds = option('rounds', 3);

const config = resolveConfig(
  {
    default: 'laravel',
    sets: {
      laravel: {
        route: { prefix: 'docs' },
        source: { path: LARAVEL_ROOT },
        search: { driver: 'server' },
        html_input: 'allow',
      },
    },
    // The limits read at the top level only; the bench asks far more than a reader would.
    ai: { ask: { enabled: true, provider: 'openai', rate_limit: '100000,1', daily_budget: null } },
  },
  { root: process.cwd(), env: {} },
);
const events = createEvents();
const kit = createKit({
  config,
  events,
  sets: Object.values(config.sets).map((setConfig) =>
    createDocSet({
      config: setConfig,
      source: createFsSource({ root: setConfig.source.path, setKey: setConfig.key, git: false }),
      renderer: createRenderer(),
      search: createServerSearch(),
      events,
      gates: config.gates,
    }),
  ),
});
const set = kit.set('laravel');
const viewer = { user: null, ip: '127.0.0.1' };
const questions = readQueries()
  .filter((query) => query.version === '13.x')
  .slice(0, questionCount)
  .map((query) => query.query);

const provider = await startScriptedProvider('openai');
const answerPieces = Array.from({ length: 20 }, (_, i) => `piece ${i} `);
const script = (question: string): ScriptStep[] => [
  { toolCalls: [{ name: 'search_docs', input: { query: question } }] },
  (request) => {
    const found = JSON.parse(toolResults(request).at(-1)!) as { results: Array<{ path: string }> };
    return { toolCalls: [{ name: 'read_page', input: { path: found.results[0]?.path ?? 'index' } }] };
  },
  { text: answerPieces },
];
const service = createAsk({
  kit,
  store: createMemoryRateLimitStore(),
  env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: provider.url },
  log: (line) => console.error(line),
});

interface Timing {
  firstToken: number;
  steps: number[];
  total: number;
}

async function askOnce(question: string): Promise<Timing> {
  provider.push(...script(question));
  const start = performance.now();
  const result = await service.ask({
    set: 'laravel',
    viewer,
    caller: 'ip:127.0.0.1',
    body: { messages: [{ role: 'user', content: question }], version: '13.x' },
  });
  if (!result.ok) throw new Error(result.message);
  let firstToken = Number.NaN;
  const steps: number[] = [];
  let last = start;
  for await (const event of result.events) {
    const now = performance.now();
    if (event.type === 'text' && Number.isNaN(firstToken)) firstToken = now - start;
    if (event.type === 'step') {
      steps.push(now - last);
      last = now;
    }
    if (event.type === 'error') throw new Error(event.message);
  }
  return { firstToken, steps, total: performance.now() - start };
}

/** The same work without Kit's loop: the DocSet calls, and the same provider requests by fetch. */
async function directOnce(
  question: string,
  bodies: string[],
): Promise<{ search: number; read: number; provider: number[] }> {
  let begin = performance.now();
  const found = await set.search({ query: question, version: '13.x', limit: 8 }, viewer, 'ask');
  const search = performance.now() - begin;
  begin = performance.now();
  await set.readPage({ path: found.results[0]?.path ?? 'index', version: '13.x' }, viewer);
  const read = performance.now() - begin;
  const calls: number[] = [];
  // The provider requests Kit sent for this question, replayed as they were.
  provider.push(...script(question));
  for (const body of bodies) {
    begin = performance.now();
    const response = await fetch(`${provider.url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer bench' },
      body,
    });
    await response.text();
    calls.push(performance.now() - begin);
  }
  provider.clear();
  return { search, read, provider: calls };
}

// Warm-up: the renderer, the search index and the AI SDK's code paths.
async function measure(question: string) {
  const sent = provider.requests.length;
  const timing = await askOnce(question);
  const bodies = provider.requests.slice(sent).map((request) => request.raw);
  return { timing, direct: await directOnce(question, bodies) };
}

// The first search builds the index (rendering every page); pages then render and highlight in the
// background for a while. One pass over every question lets that settle before anything is timed.
for (const question of questions) await measure(question);

const asked: Timing[] = [];
const direct: Array<{ search: number; read: number; provider: number[] }> = [];
for (let round = 0; round < rounds; round++) {
  for (const question of questions) {
    const measured = await measure(question);
    asked.push(measured.timing);
    direct.push(measured.direct);
  }
}

// The AI SDK alone: one streamText call answering text, against the same request by fetch. What
// the SDK itself costs per step, so Kit's share can be told apart from it.
const bare = createOpenAI({ apiKey: 'bench', baseURL: provider.url }).chat('bench');
const sdkCalls: number[] = [];
const fetchCalls: number[] = [];
for (let i = 0; i < 10 + questions.length * rounds; i++) {
  provider.push({ text: answerPieces });
  let begin = performance.now();
  for await (const _part of streamText({ model: bare, prompt: questions[i % questions.length]!, maxRetries: 0 })
    .fullStream) {
    // drained
  }
  const sdk = performance.now() - begin;
  provider.push({ text: answerPieces });
  begin = performance.now();
  await (
    await fetch(`${provider.url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer bench' },
      body: provider.requests.at(-1)!.raw,
    })
  ).text();
  if (i >= 10) {
    sdkCalls.push(sdk);
    fetchCalls.push(performance.now() - begin);
  }
}
const sdkOverhead = median(sdkCalls) - median(fetchCalls);

const ms = (value: number) => `${value.toFixed(2)} ms`;
const firstToken = median(asked.map((timing) => timing.firstToken));
const total = median(asked.map((timing) => timing.total));
const stepMedians = [0, 1, 2].map((index) => median(asked.map((timing) => timing.steps[index] ?? Number.NaN)));
const search = median(direct.map((entry) => entry.search));
const read = median(direct.map((entry) => entry.read));
const providerCalls = [0, 1, 2].map((index) => median(direct.map((entry) => entry.provider[index] ?? Number.NaN)));
const directFirstToken = search + read + providerCalls[0]! + providerCalls[1]! + providerCalls[2]!;
const directTotal = directFirstToken;
const overheadPerStep = (total - directTotal) / 3;

console.log(
  `Ask AI over ${questions.length} Laravel 13.x questions × ${rounds} rounds, scripted OpenAI-protocol provider`,
);
console.log('');
console.log('| measure | Ask AI | same calls made directly | ratio |');
console.log('| --- | --- | --- | --- |');
console.log(
  `| question → first token | ${ms(firstToken)} | ${ms(directFirstToken)} | ${(firstToken / directFirstToken).toFixed(2)}x |`,
);
console.log(
  `| step 1: search_docs | ${ms(stepMedians[0]!)} | ${ms(providerCalls[0]! + search)} (provider ${ms(providerCalls[0]!)} + search ${ms(search)}) | ${(stepMedians[0]! / (providerCalls[0]! + search)).toFixed(2)}x |`,
);
console.log(
  `| step 2: read_page | ${ms(stepMedians[1]!)} | ${ms(providerCalls[1]! + read)} (provider ${ms(providerCalls[1]!)} + read ${ms(read)}) | ${(stepMedians[1]! / (providerCalls[1]! + read)).toFixed(2)}x |`,
);
console.log(
  `| step 3: answer text | ${ms(stepMedians[2]!)} | ${ms(providerCalls[2]!)} (provider) | ${(stepMedians[2]! / providerCalls[2]!).toFixed(2)}x |`,
);
console.log(`| whole answer | ${ms(total)} | ${ms(directTotal)} | ${(total / directTotal).toFixed(2)}x |`);
console.log('');
console.log(`Overhead per step (whole answer minus the direct calls, over 3 steps): ${ms(overheadPerStep)}`);
console.log(
  `of which the AI SDK's own per call (streamText ${ms(median(sdkCalls))} vs fetch ${ms(median(fetchCalls))} for the same request): ${ms(sdkOverhead)}`,
);
console.log(`Kit's own overhead per step (the rest): ${ms(overheadPerStep - sdkOverhead)}`);

await provider.close();
await kit.close();
