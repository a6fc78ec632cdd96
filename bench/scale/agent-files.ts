/**
 * One split `llms-full.txt` file of a large set, built alone, against its baseline measured in the
 * same run: building every file of the version and picking that one (what serving a split file
 * cost before issue #34). Also times the index and a sitemap part, and checks that the file built
 * alone has the baseline's bytes. Drives the core builders on a watched repository set generated
 * from the Laravel corpus (bench/scale/generate.ts); no build needed:
 *
 *   npx tsx --conditions=kit-source bench/scale/agent-files.ts [--pages 10000] [--rounds 5]
 *
 * The first request after a start learns the page lengths (a split file reads pages only until the
 * total passes the limit; the index reads every page once); later requests read only their own pages.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLlmsFullTxt, createDocSet, createEvents, type KitConfigInput, resolveConfig } from '@kit/core';
import { buildLlmsFullTxtFile, buildSitemapFile } from '@kit/core/internal';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { median, summary } from '../stats.js';
import { generateScaleSet } from './generate.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1]! : fallback;
};
const pages = Number(option('pages', '10000'));
const rounds = Number(option('rounds', '5'));
const root = join(tmpdir(), `kit-bench-agent-files-${pages}`);
if (!existsSync(join(root, 'docs/kit.json'))) await generateScaleSet(root, pages, 'realistic');

const config = resolveConfig({ sets: { docs: { source: { path: 'docs' } } } } as KitConfigInput, { root, env: {} });
const setConfig = config.sets.docs!;
const source = createFsSource({ root: setConfig.source.path, setKey: setConfig.key, watch: true });
/** A doc set over the generated folder, with nothing remembered yet. */
const newDocSet = () =>
  createDocSet({
    config: setConfig,
    source,
    renderer: createRenderer(),
    search: createServerSearch(),
    events: createEvents(),
    gates: config.gates,
  });
const set = newDocSet();
const guest = { user: null };
const origin = 'https://docs.test';

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 1000 ? 3 : 1)} s`;

await set.visiblePages({}, guest);
const baseline = await timed(() => buildLlmsFullTxt(set, guest, { origin }));
const files = baseline.value.files;
const picked = files[Math.floor(files.length / 2)]!;
const name = picked.path.slice(picked.path.indexOf('/llms-full/') + '/llms-full/'.length);

// A fresh set, so the first request knows no page length, as after a start.
const fresh = newDocSet();
await fresh.visiblePages({}, guest);
const first = await timed(() => buildLlmsFullTxtFile(fresh, guest, { origin, file: name }));
const indexFirst = await timed(() => buildLlmsFullTxtFile(fresh, guest, { origin }));
const alone: number[] = [];
const index: number[] = [];
const sitemap: number[] = [];
for (let round = 0; round < rounds; round++) {
  alone.push((await timed(() => buildLlmsFullTxtFile(fresh, guest, { origin, file: name }))).ms);
  index.push((await timed(() => buildLlmsFullTxtFile(fresh, guest, { origin }))).ms);
  sitemap.push((await timed(() => buildSitemapFile(fresh, { origin, name: 'sitemap-2.xml', maxUrls: 1000 }))).ms);
}
const same = first.value.file?.text === picked.text && indexFirst.value.file?.text === files[0]!.text;

console.log(`${pages} pages, ${files.length} llms-full files; file ${name} (${picked.text.length} characters)`);
console.log(`baseline, every file then one: ${seconds(baseline.ms)}`);
console.log(`one file alone, first request:  ${seconds(first.ms)}`);
console.log(
  `one file alone, p50:            ${seconds(median(alone))} (${(baseline.ms / median(alone)).toFixed(0)}x faster)`,
);
console.log(`index, first request:           ${seconds(indexFirst.ms)}`);
console.log(`index, p50:                     ${seconds(median(index))}`);
console.log(`sitemap-2.xml (1,000 URLs), p50: ${seconds(median(sitemap))}`);
console.log(`same bytes as the baseline:     ${same ? 'yes' : 'NO'}`);
summary({
  bench: 'agent-files',
  measure: `one split llms-full.txt file, ${pages} pages`,
  value: seconds(median(alone)),
  baseline: `every file, then one ${seconds(baseline.ms)}`,
  ratio: `${(median(alone) / baseline.ms).toFixed(4)}x`,
  goal: '<= 1 s',
});
if (!same) process.exitCode = 1;
process.exit();
