import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildReaderAssets } from '@kit/render/assets';
import { describe, expect, it } from 'vitest';

const guide = readFileSync(join(import.meta.dirname, '../../../apps/site/guides/reader-site.md'), 'utf8').replace(
  /\s+/g,
  ' ',
);

/** The sizes the reader-site guide states, in bytes (1 KB = 1024 bytes). */
function claimed(pattern: RegExp): { raw: number; gzipped: number } {
  const match = pattern.exec(guide);
  if (!match) throw new Error(`The reader-site guide no longer states ${pattern}; update this test with it.`);
  return { raw: Number(match[1]) * 1024, gzipped: Number(match[2]) * 1024 };
}

describe('the sizes the reader-site guide states', () => {
  it('hold for the script every page loads, and the client search engine and Ask AI panel it fetches later', async () => {
    // Built as the HTTP app builds it, with the client search engine as a chunk.
    const assets = await buildReaderAssets({
      clientSearch: { module: '@kit/search/client', resolveDir: import.meta.dirname },
    });
    const script = claimed(/A small script \(under (\d+) KB, under (\d+) KB gzipped\)/);
    expect(assets.js.body.length).toBeLessThan(script.raw);
    expect(gzipSync(assets.js.body).length).toBeLessThan(script.gzipped);
    const engine = claimed(/search engine \(under (\d+) KB, under (\d+) KB gzipped\)/);
    const isAsk = (chunk: { modules: string[] }) => chunk.modules.some((module) => module.endsWith('client/ask.ts'));
    const search = assets.chunks.filter((chunk) => !isAsk(chunk));
    expect(search).toHaveLength(1);
    expect(search[0]!.body.length).toBeLessThan(engine.raw);
    expect(gzipSync(search[0]!.body).length).toBeLessThan(engine.gzipped);
    const ask = claimed(/Ask AI panel \(under (\d+) KB, under (\d+) KB gzipped\)/);
    const panel = assets.chunks.filter(isAsk);
    expect(panel).toHaveLength(1);
    expect(panel[0]!.body.length).toBeLessThan(ask.raw);
    expect(gzipSync(panel[0]!.body).length).toBeLessThan(ask.gzipped);
  });
});
