/**
 * The check after an author tool's `write_page` on a copy of Laravel 12.x (99 pages): focused on
 * the written page (what the author tools do) against a check of the whole version (what they did
 * before), measured in the same run, on the same kit, after the same writes. Both give the same
 * `validation` (packages/cli/src/validate/focused.test.ts); here only the time differs.
 *
 *   npx tsx --conditions=kit-source bench/validate/after-write.ts   (WRITES=n; default 15)
 *
 * The kit is loaded as `kit mcp` loads it (watching, the kit's renderer with its memory cache) and
 * the version is validated once before timing, as a server that has answered a first check has.
 * Each write changes a page (pages taken in turn, a line appended); after it the check runs once
 * focused and once whole, in alternating order.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuthorCall, writePageTool } from '@kit/core/internal';
import { validatorFor } from '../../packages/cli/src/validate/validate.js';
import { loadKit } from '../../packages/node/src/load-kit.js';
import { LARAVEL_ROOT, laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';
import { median, summary } from '../stats.js';

const writes = Number(process.env.WRITES ?? 15);
const version = '12.x';
const project = await mkdtemp(join(tmpdir(), 'kit-bench-after-write-'));
await cp(join(LARAVEL_ROOT, version), join(project, 'laravel', version), { recursive: true });
await cp(join(LARAVEL_ROOT, 'kit.json'), join(project, 'laravel', 'kit.json'));
await writeFile(
  join(project, 'kit.config.mjs'),
  "export default { sets: { laravel: { route: { prefix: 'laravel', link_prefix: 'docs' }, source: { path: 'laravel' }, html_input: 'allow', search: { driver: 'server' } } } };\n",
);

const kit = await loadKit({ cwd: project, git: false, watch: true, diskCache: false });
const validate = validatorFor(kit);
const times = { focused: [] as number[], whole: [] as number[], write: [] as number[] };
const loads: number[] = [];
try {
  const manifest = await kit.set().manifest();
  if (!manifest.versions.some((entry) => entry.id === version)) throw new Error(`The copy has no version ${version}.`);
  await validate({ set: 'laravel', version });
  const paths = laravelPages(version).map((page) => page.path);
  for (let round = 0; round < writes; round++) {
    const path = paths[(round * 7) % paths.length]!;
    const page = await kit.set().source.getPage(version, 'en', path);
    if (!page) throw new Error(`No page ${path}.`);
    let checks = 0;
    const call: AuthorCall = {
      viewer: { user: null, local: true },
      channel: 'local',
      // The tool's own check is left out of the timing: each check is timed below, on the written state.
      validate: async () => {
        checks += 1;
        return { issues: [] };
      },
    };
    const writeStart = performance.now();
    const result = await writePageTool(
      kit.set(),
      { version, path, body: `${page.body.trimEnd()}\n\nEdited in round ${round}.\n` },
      call,
    );
    times.write.push(performance.now() - writeStart);
    if (result.outcome !== 'published' || checks !== 1) throw new Error(`write_page ${path}: ${result.message}`);
    const focused = async () => {
      const start = performance.now();
      await validate({ set: 'laravel', version, pages: [path] });
      times.focused.push(performance.now() - start);
    };
    const whole = async () => {
      const start = performance.now();
      await validate({ set: 'laravel', version });
      times.whole.push(performance.now() - start);
    };
    if (round % 2 === 0) {
      await focused();
      await whole();
    } else {
      await whole();
      await focused();
    }
    loads.push(loadavg()[0] as number);
  }
} finally {
  await kit.close();
  await rm(project, { recursive: true, force: true });
}

const focusedMs = median(times.focused);
const wholeMs = median(times.whole);
console.log(
  `check after write_page, Laravel ${version} (${laravelPages(version).length} pages), ${writes} writes, medians; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`,
);
summary({
  bench: 'validate/after-write',
  measure: `check after write_page, Laravel ${version}`,
  value: `${focusedMs.toFixed(1)} ms`,
  baseline: `whole version ${wholeMs.toFixed(1)} ms`,
  ratio: `${(focusedMs / wholeMs).toFixed(3)}x`,
  goal: '-',
});
console.log(`write itself (no check):  ${median(times.write).toFixed(1)} ms`);
console.log(`whole version checked:    ${wholeMs.toFixed(1)} ms`);
console.log(
  `only what it can affect:  ${focusedMs.toFixed(1)} ms = ${(focusedMs / wholeMs).toFixed(3)}x the whole check`,
);
