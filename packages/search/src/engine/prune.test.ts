import { describe, expect, it } from 'vitest';
import { buildEngineIndex, type EngineInput } from './build.js';
import { seededRandom } from './random.js';
import { DEFAULT_RANKING, type RankStats, rankSections } from './rank.js';

const VOCABULARY = (
  'route queue cache event listener model relation eager load migration schema seed factory mail notify ' +
  'broadcast channel token session cookie request response middleware validate rule upload storage disk ' +
  'encrypt hash password verify policy gate job batch retry fail schedule command prompt console test mock ' +
  'fake assert database query join select insert update delete restore collection helper config environment'
).split(' ');

/** How a generated corpus is made: word skew, copies of earlier pages, and the size of each part. */
interface CorpusShape {
  /** Exponent of the word pick: higher favours the first words of the vocabulary more. */
  skew: number;
  /** Pages after this one may be copies of earlier ones, each with `copyChance`. */
  copiesAfter: number;
  copyChance: number;
  /** Exponent of the copied page's pick: above 1, copies cluster on a few originals. */
  copyCluster: number;
  titleWords: number;
  descriptionChance: number;
  descriptionWords: number;
  sectionCount: (next: () => number) => number;
  textWords: { least: number; spread: number };
}

/** Pages of random vocabulary words shaped by `shape`, numbered `page-N`, with one URL per section. */
function generatedPages(pageCount: number, seed: number, shape: CorpusShape): EngineInput[] {
  const next = seededRandom(seed);
  const pick = () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** shape.skew)]!;
  const words = (count: number) => Array.from({ length: count }, pick).join(' ');
  const originals: EngineInput[][] = [];
  for (let page = 0; page < pageCount; page++) {
    if (page > shape.copiesAfter && next() < shape.copyChance) {
      originals.push(originals[Math.floor(next() ** shape.copyCluster * originals.length)]!);
      continue;
    }
    const title = words(1 + Math.floor(next() * shape.titleWords));
    const description = next() < shape.descriptionChance ? words(shape.descriptionWords) : null;
    const sectionCount = shape.sectionCount(next);
    originals.push(
      Array.from({ length: sectionCount }, (_, section) => {
        const heading = section === 0 ? '' : words(1 + Math.floor(next() * 3));
        return {
          path: '',
          title,
          heading,
          headingPath: heading ? [title, heading] : [],
          description,
          text: words(shape.textWords.least + Math.floor(next() * shape.textWords.spread)),
          url: '',
          markdownUrl: '',
        };
      }),
    );
  }
  return originals.flatMap((sections, page) =>
    sections.map((section, n) => ({
      ...section,
      path: `page-${page}`,
      url: `/docs/page-${page}#s${n}`,
      markdownUrl: `/docs/page-${page}.md`,
    })),
  );
}

/** Pages with a Zipf-like word distribution, some of them copies of others (equal scores, tie-breaks). */
function generatedCorpus(pageCount: number, seed: number): EngineInput[] {
  return generatedPages(pageCount, seed, {
    skew: 2.2,
    copiesAfter: 4,
    copyChance: 0.2,
    copyCluster: 1,
    titleWords: 2,
    descriptionChance: 0.5,
    descriptionWords: 6,
    sectionCount: (next) => 1 + Math.floor(next() * 8),
    textWords: { least: 5, spread: 60 },
  });
}

function generatedQueries(count: number, seed: number): string[] {
  const next = seededRandom(seed);
  const word = () => {
    const chosen = VOCABULARY[Math.floor(next() * VOCABULARY.length)]!;
    const roll = next();
    if (roll < 0.1) return chosen.slice(0, 3 + Math.floor(next() * 2)); // being typed
    if (roll < 0.2) return chosen.slice(0, 1) + chosen.slice(2); // a dropped letter
    if (roll < 0.3) {
      // a camelCase identifier: its parts are alternatives of one word
      const other = VOCABULARY[Math.floor(next() * VOCABULARY.length)]!;
      return chosen + other[0]!.toUpperCase() + other.slice(1);
    }
    return chosen;
  };
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 6) }, word).join(' '));
}

/**
 * Documentation-like pages: some long (more sections than the 32 buckets a page's sections are
 * grouped in), common words spread over many sections, titles whose words count in every section,
 * and many exact copies, clustered on a few originals as versioned documentation repeats its pages
 * (equal scores at the threshold, decided by the earlier section).
 */
function longPageCorpus(pageCount: number, seed: number): EngineInput[] {
  return generatedPages(pageCount, seed, {
    skew: 1.6,
    copiesAfter: 8,
    copyChance: 0.35,
    copyCluster: 3,
    titleWords: 3,
    descriptionChance: 0.3,
    descriptionWords: 8,
    sectionCount: (next) => (next() < 0.3 ? 33 + Math.floor(next() * 60) : 1 + Math.floor(next() * 20)),
    textWords: { least: 3, spread: 40 },
  });
}

describe('pruned ranking', () => {
  it('returns exactly the top pages and scores of exhaustive scoring on a generated corpus', () => {
    const index = buildEngineIndex(generatedCorpus(400, 7));
    let compared = 0;
    for (const query of generatedQueries(150, 11)) {
      for (const limit of [1, 3, 8, 20]) {
        const pruned = rankSections(index, query, limit);
        const exhaustive = rankSections(index, query, limit, DEFAULT_RANKING, { exhaustive: true });
        expect(pruned.hits, `${query} (limit ${limit})`).toEqual(exhaustive.hits);
        expect(pruned.matchedTerms).toEqual(exhaustive.matchedTerms);
        compared += pruned.hits.length;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('agrees with exhaustive scoring under other weights too', () => {
    const index = buildEngineIndex(generatedCorpus(150, 3));
    const params = { ...DEFAULT_RANKING, title: 9, page: 1.5, spread: 0.5, bBody: 0.3, k1: 2 };
    for (const query of generatedQueries(60, 5)) {
      expect(rankSections(index, query, 8, params).hits).toEqual(
        rankSections(index, query, 8, params, { exhaustive: true }).hits,
      );
    }
  });

  it('returns exactly what scoring every page returns on long, repeated pages and long questions', () => {
    const index = buildEngineIndex(longPageCorpus(700, 23));
    const queries = [
      ...generatedQueries(120, 29),
      // Long questions of common words: the bounds of long pages are far above their scores.
      ...Array.from({ length: 30 }, (_, n) => VOCABULARY.slice(n % 20, (n % 20) + 6 + (n % 5)).join(' ')),
      // More words than are tracked per page, and more index terms than presence bits.
      VOCABULARY.slice(0, 40).join(' '),
      'rou que cac eve lis mod rel loa mig sch see fac',
    ];
    const work: RankStats = { candidates: 0, scored: 0, completed: 0 };
    let compared = 0;
    for (const query of queries) {
      for (const limit of [1, 5, 20]) {
        const stats: RankStats = { candidates: 0, scored: 0, completed: 0 };
        const pruned = rankSections(index, query, limit, DEFAULT_RANKING, { stats });
        const exhaustive = rankSections(index, query, limit, DEFAULT_RANKING, { exhaustive: true });
        expect(pruned.hits, `${query} (limit ${limit})`).toEqual(exhaustive.hits);
        compared += pruned.hits.length;
        work.candidates += stats.candidates;
        work.scored += stats.scored;
        work.completed += stats.completed;
      }
    }
    expect(compared).toBeGreaterThan(3000);
    // The comparison is worth something only if pruning skipped most of the work.
    expect(work.completed).toBeLessThan(work.scored);
    expect(work.scored * 3).toBeLessThan(work.candidates);
  });

  it('breaks equal scores of identical pages towards the earlier page', () => {
    const page = (n: number): EngineInput => ({
      path: `copy-${n}`,
      title: 'Queues',
      heading: '',
      headingPath: [],
      text: 'Retry a failed job from the queue.',
      url: `/docs/copy-${n}`,
      markdownUrl: `/docs/copy-${n}.md`,
    });
    const index = buildEngineIndex([0, 1, 2, 3, 4, 5].map(page));
    const hits = rankSections(index, 'retry failed job', 3).hits;
    expect(hits.map((hit) => hit.section)).toEqual([0, 1, 2]);
    expect(new Set(hits.map((hit) => hit.score)).size).toBe(1);
  });
});
