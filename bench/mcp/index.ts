// MCP over HTTP: search_docs and read_page calls per second and p50/p95 latency through the web MCP
// endpoint, against the same DocSet functions behind a plain JSON route on the same server, in the
// same run. Goal: MCP at 0.8x or better of the plain route's calls per second.
//
//   npx tsx --conditions=kit-source bench/mcp/index.ts [--calls 400] [--rounds 5] [--concurrency 4]
//
// The reference server (apps/server) runs in this process with the Laravel set (KIT_LARAVEL=1) on
// 127.0.0.1 and a free port; every request goes over loopback. Loops are bounded by --calls.
//
// Both sides are alike wherever the protocol allows: the same fetch client and keep-alive pool, the
// same JSON request body, the app's compress middleware on both (checked below: the run stops if the
// two sides come back with different encodings), and the whole result of the call in the response (the
// plain route sends the DocSet result as is; MCP wraps it: read_page's text and meta, search_docs'
// results as structured content plus the text rendering every MCP client reads).
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Viewer } from '@kit/core';
import { createReferenceServer } from '../../apps/server/src/server.js';
import { LOOPBACK_HOSTS } from '../../packages/http-hono/src/loopback.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const calls = option('calls', 400);
const concurrency = option('concurrency', 4);
const rounds = option('rounds', 5);

const env: Record<string, string | undefined> = {};
for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('KIT_')) env[key] = value;
const reference = await createReferenceServer({
  env: { ...env, KIT_LARAVEL: '1', KIT_MCP_RATE_LIMIT: '1000000,1' },
  allowedHosts: [...LOOPBACK_HOSTS],
});
const laravel = reference.kit.set('laravel');

// The bench-only baseline: the same DocSet calls the tools make, as plain JSON.
const benchViewer = (ip: string | undefined): Viewer => ({ user: null, ip: ip ?? '127.0.0.1' });
reference.app.post('/_bench/search', async (c) => {
  const input = (await c.req.json()) as { query: string; limit?: number };
  return c.json(await laravel.search(input, benchViewer(undefined), 'http'));
});
reference.app.post('/_bench/read', async (c) => {
  const input = (await c.req.json()) as { path: string };
  return c.json(await laravel.readPage(input, benchViewer(undefined)));
});

const listener = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const started = serve({ fetch: reference.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
});
const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;

const queries = readFileSync(join(import.meta.dirname, '../../../shared/search/laravel-queries.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => (JSON.parse(line) as { query: string }).query);
const pages = (await laravel.listPages({}, { user: null })).groups.flatMap((group) =>
  group.pages.map((page) => page.path),
);

let rpcId = 0;
async function post(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}
function rpc(name: string, toolArgs: Record<string, unknown>) {
  return { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: toolArgs } };
}
async function tool(name: string, toolArgs: Record<string, unknown>): Promise<void> {
  const reply = (await post('/laravel/mcp', rpc(name, toolArgs))) as {
    result?: { isError?: boolean; content?: Array<{ text?: string }> };
  };
  if (!reply.result || reply.result.isError) throw new Error(`${name} failed: ${JSON.stringify(reply).slice(0, 300)}`);
}

/** Content-Encoding and JSON bytes (decoded) of one answer, to show both sides are compared alike. */
async function probe(path: string, body: unknown): Promise<{ encoding: string; bytes: number }> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { encoding: response.headers.get('content-encoding') ?? 'identity', bytes };
}

const workloads = {
  search_docs: {
    mcp: (i: number) => tool('search_docs', { query: queries[i % queries.length]!, limit: 8 }),
    plain: (i: number) => post('/_bench/search', { query: queries[i % queries.length]!, limit: 8 }),
    probe: (i: number) =>
      Promise.all([
        probe('/_bench/search', { query: queries[i % queries.length]!, limit: 8 }),
        probe('/laravel/mcp', rpc('search_docs', { query: queries[i % queries.length]!, limit: 8 })),
      ]),
  },
  read_page: {
    mcp: (i: number) => tool('read_page', { path: pages[i % pages.length]! }),
    plain: (i: number) => post('/_bench/read', { path: pages[i % pages.length]! }),
    probe: (i: number) =>
      Promise.all([
        probe('/_bench/read', { path: pages[i % pages.length]! }),
        probe('/laravel/mcp', rpc('read_page', { path: pages[i % pages.length]! })),
      ]),
  },
};

interface Measure {
  perSecond: number;
  p50: number;
  p95: number;
  /** CPU time of this process (client and server) per call: steadier than wall time on a busy machine. */
  cpuMs: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** `calls` calls, `concurrency` at a time, each worker taking the next index. */
async function measure(run: (i: number) => Promise<unknown>): Promise<Measure> {
  for (let i = 0; i < 20; i++) await run(i); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        const index = next++;
        const start = performance.now();
        await run(index);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const elapsed = performance.now() - began;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    perSecond: (calls / elapsed) * 1000,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    cpuMs: (cpu.user + cpu.system) / 1000 / calls,
  };
}

const best = (measures: Measure[]): Measure => measures.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const median = (values: number[]) => percentile(values, 50);
/** The median round of each figure taken on its own (not one round's figures). */
const medianOf = (measures: Measure[]): Measure => ({
  perSecond: median(measures.map((m) => m.perSecond)),
  p50: median(measures.map((m) => m.p50)),
  p95: median(measures.map((m) => m.p95)),
  cpuMs: median(measures.map((m) => m.cpuMs)),
});
const fmt = (m: Measure) =>
  `${m.perSecond.toFixed(0).padStart(6)}/s  p50 ${m.p50.toFixed(2).padStart(6)} ms  p95 ${m.p95.toFixed(2).padStart(6)} ms  cpu ${m.cpuMs.toFixed(2)} ms/call`;

console.log(
  `MCP over HTTP vs a plain JSON route, Laravel 13.x (${pages.length} pages, ${queries.length} queries); ` +
    `${calls} calls x ${rounds} rounds, concurrency ${concurrency}, node ${process.version}`,
);
const ratios: Record<string, number> = {};
for (const [name, workload] of Object.entries(workloads)) {
  let plainBytes = 0;
  let mcpBytes = 0;
  const encodings = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const [plainAnswer, mcpAnswer] = await workload.probe(i);
    plainBytes += plainAnswer.bytes / 20;
    mcpBytes += mcpAnswer.bytes / 20;
    encodings.add(`${plainAnswer.encoding} / ${mcpAnswer.encoding}`);
    if (plainAnswer.encoding !== mcpAnswer.encoding) {
      throw new Error(
        `${name}: the plain route answered ${plainAnswer.encoding}, MCP ${mcpAnswer.encoding}; not comparable.`,
      );
    }
  }
  const mcp: Measure[] = [];
  const plain: Measure[] = [];
  // Interleaved rounds so drift on a shared machine hits both sides alike.
  for (let round = 0; round < rounds; round++) {
    plain.push(await measure(workload.plain));
    mcp.push(await measure(workload.mcp));
  }
  const [bestMcp, bestPlain, medianMcp, medianPlain] = [best(mcp), best(plain), medianOf(mcp), medianOf(plain)];
  ratios[name] = bestMcp.perSecond / bestPlain.perSecond;
  const cpuRatio = Math.min(...plain.map((x) => x.cpuMs)) / Math.min(...mcp.map((x) => x.cpuMs));
  console.log(
    `${name}: ${[...encodings].join(', ')} on both sides; answers of ${plainBytes.toFixed(0)} (plain) and ${mcpBytes.toFixed(0)} (MCP) bytes of JSON on average`,
  );
  console.log(`  best of ${rounds}    plain JSON ${fmt(bestPlain)}`);
  console.log(
    `                MCP        ${fmt(bestMcp)}   ${ratios[name]!.toFixed(2)}x calls/s, ${cpuRatio.toFixed(2)}x calls per CPU-second`,
  );
  console.log(`  median       plain JSON ${fmt(medianPlain)}`);
  console.log(
    `                MCP        ${fmt(medianMcp)}   ${(medianMcp.perSecond / medianPlain.perSecond).toFixed(2)}x calls/s, ${(medianPlain.cpuMs / medianMcp.cpuMs).toFixed(2)}x calls per CPU-second`,
  );
}

await new Promise<void>((resolve) => listener.close(() => resolve()));
await reference.close();
const below = Object.entries(ratios).filter(([, ratio]) => ratio < 0.8);
console.log(
  below.length === 0
    ? 'goal met (0.80x calls/s, best of rounds)'
    : `below goal (0.80x calls/s, best of rounds): ${below.map(([name]) => name).join(', ')}`,
);
