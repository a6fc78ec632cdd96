/**
 * What the author tools' secret scan (`findSecrets`: gitleaks' rules plus Kit's, after invisible
 * characters are removed and NFKC) costs, against bare micromark + GFM parsing of the same text,
 * measured in the same run: over the Laravel docs (297 pages, what a write of each page pays), and
 * over 1 MB bodies built to make the rules' bounded prefixes retry at every position (the largest
 * body the web MCP endpoint accepts). Run from the repository root:
 *
 *   npx tsx --conditions=kit-source bench/secrets/index.ts   (ROUNDS=n for more rounds; default 3)
 *
 * Medians are printed; the load average says how busy the (shared) machine was.
 */
import { loadavg } from 'node:os';
import { findSecrets } from '@kit/core/internal';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { LARAVEL_VERSIONS, laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';
import { median } from '../stats.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const pages = LARAVEL_VERSIONS.flatMap((version) => laravelPages(version)).map((page) => page.body);
const megabyte = 1024 * 1024;
const adversarial: Array<[string, string]> = [
  ['"key" repeated', 'key'.repeat(megabyte / 3)],
  ['"api" repeated', 'api'.repeat(megabyte / 3)],
  ['"secret" repeated', 'secret'.repeat(megabyte / 6)],
  // A separator every 79 characters: every position is near a keyword and a separator.
  ['"key"x26 "=" repeated', `${'key'.repeat(26)}=`.repeat(megabyte / 79)],
];

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const parse = (text: string) =>
  micromark(text, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });

// One scan first: the rules compile on first use, which a long-running server pays once.
findSecrets('warm up');
const corpus = { scan: [] as number[], parse: [] as number[] };
const hostile = new Map(adversarial.map(([name]) => [name, { scan: [] as number[], parse: [] as number[] }]));
for (let round = 0; round < rounds; round++) {
  corpus.parse.push(timed(() => pages.forEach(parse)));
  corpus.scan.push(timed(() => pages.forEach(findSecrets)));
  for (const [name, text] of adversarial) {
    hostile.get(name)!.parse.push(timed(() => parse(text)));
    hostile.get(name)!.scan.push(timed(() => findSecrets(text)));
  }
}

const characters = pages.reduce((sum, page) => sum + page.length, 0);
const line = (label: string, scan: number, parsed: number, size: number) =>
  console.log(
    `${label.padEnd(28)} scan ${scan.toFixed(0).padStart(6)} ms (${(((size / scan) * 1000) / megabyte).toFixed(1)} MB/s)   parse ${parsed.toFixed(0).padStart(6)} ms   scan/parse ${(scan / parsed).toFixed(2)}`,
  );
console.log(`secret scan, ${rounds} rounds, medians; load average ${loadavg()[0]!.toFixed(2)}`);
line(`Laravel docs (${pages.length} pages)`, median(corpus.scan), median(corpus.parse), characters);
for (const [name, text] of adversarial) {
  const times = hostile.get(name)!;
  line(`1 MB of ${name}`, median(times.scan), median(times.parse), text.length);
}
