// MCP over HTTP: search_docs and read_page calls per second and p50/p95 latency through the web MCP
// endpoint, against the same DocSet functions behind a plain JSON route on the same server, in the
// same run. Goal: MCP at 0.8x or better of the plain route's calls per second.
//
//   npx tsx --conditions=kit-source bench/mcp/index.ts [--calls 400] [--concurrency 4]
//
// The reference server (apps/server) runs in this process with the Laravel set (KIT_LARAVEL=1) on
// 127.0.0.1 and a free port; every request goes over loopback. Loops are bounded by --calls.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Viewer } from '@kit/core';
import { createReferenceServer, LOOPBACK_HOSTS } from '../../apps/server/src/server.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const calls = option('calls', 400);
const concurrency = option('concurrency', 4);
const rounds = option('rounds', 3);

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
async function tool(name: string, toolArgs: Record<string, unknown>): Promise<void> {
  const reply = (await post('/laravel/mcp', {
    jsonrpc: '2.0',
    id: ++rpcId,
    method: 'tools/call',
    params: { name, arguments: toolArgs },
  })) as { result?: { isError?: boolean; content?: Array<{ text?: string }> } };
  if (!reply.result || reply.result.isError) throw new Error(`${name} failed: ${JSON.stringify(reply).slice(0, 300)}`);
}

const workloads = {
  search_docs: {
    mcp: (i: number) => tool('search_docs', { query: queries[i % queries.length]!, limit: 8 }),
    plain: (i: number) => post('/_bench/search', { query: queries[i % queries.length]!, limit: 8 }),
  },
  read_page: {
    mcp: (i: number) => tool('read_page', { path: pages[i % pages.length]! }),
    plain: (i: number) => post('/_bench/read', { path: pages[i % pages.length]! }),
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
const fmt = (m: Measure) =>
  `${m.perSecond.toFixed(0).padStart(6)}/s  p50 ${m.p50.toFixed(2).padStart(6)} ms  p95 ${m.p95.toFixed(2).padStart(6)} ms  cpu ${m.cpuMs.toFixed(2)} ms/call`;

console.log(
  `MCP over HTTP vs a plain JSON route, Laravel 13.x (${pages.length} pages, ${queries.length} queries); ` +
    `${calls} calls x ${rounds} rounds, concurrency ${concurrency}, node ${process.version}`,
);
const ratios: Record<string, number> = {};
for (const [name, workload] of Object.entries(workloads)) {
  const mcp: Measure[] = [];
  const plain: Measure[] = [];
  // Interleaved rounds so drift on a shared machine hits both sides alike; best round of each.
  for (let round = 0; round < rounds; round++) {
    plain.push(await measure(workload.plain));
    mcp.push(await measure(workload.mcp));
  }
  const m = best(mcp);
  const p = best(plain);
  ratios[name] = m.perSecond / p.perSecond;
  const cpuRatio = Math.min(...plain.map((x) => x.cpuMs)) / Math.min(...mcp.map((x) => x.cpuMs));
  console.log(`${name.padEnd(12)} plain JSON ${fmt(p)}`);
  console.log(
    `${''.padEnd(12)} MCP        ${fmt(m)}   ratio ${ratios[name]!.toFixed(2)}x calls/s, ${cpuRatio.toFixed(2)}x calls per CPU-second (goal 0.80x)`,
  );
}

await new Promise<void>((resolve) => listener.close(() => resolve()));
await reference.close();
const below = Object.entries(ratios).filter(([, ratio]) => ratio < 0.8);
console.log(below.length === 0 ? 'goal met' : `below goal: ${below.map(([name]) => name).join(', ')}`);
