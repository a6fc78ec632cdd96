import { describe, expect, it } from 'vitest';
import { buildEngineIndex, type EngineInput } from './build.js';
import { deserializeIndex, serializeIndex } from './codec.js';
import { seededRandom } from './random.js';
import { DEFAULT_RANKING, rankSections } from './rank.js';
import { buildSemanticModel, MIN_MODEL_SECTIONS } from './semantic.js';

/** Each page's subject, as the words its sections are written in. */
const SUBJECTS: Record<string, string> = {
  queues: 'queue job worker dispatch batch delay attempts backoff connection horizon payload',
  mail: 'mail mailable recipient inbox markdown template attachment smtp preview sender',
  cache: 'cache store key value lock expire redis memcached tags remember forever',
  routing: 'route parameter controller middleware prefix name group url verb binding',
  billing: 'invoice subscription customer payment plan charge trial checkout coupon price',
};
/** Words every page uses. */
const COMMON = 'use example method class return data default option value application'.split(' ');

function page(path: string, sections: string[][]): EngineInput[] {
  return sections.map(([heading, text], at) => ({
    path,
    title: path[0]!.toUpperCase() + path.slice(1),
    heading: heading!,
    headingPath: heading ? [path, heading] : [],
    text: text!,
    url: `/docs/${path}${at ? `#s${at}` : ''}`,
    markdownUrl: `/docs/${path}.md`,
  }));
}

/** Pages of 24 sections each, every section a mix of its page's subject words and common words. */
function corpus(extra: Record<string, string[][]> = {}): EngineInput[] {
  const next = seededRandom(7);
  const pick = (words: string[], count: number) =>
    Array.from({ length: count }, () => words[Math.floor(next() * words.length)]!).join(' ');
  const inputs: EngineInput[] = [];
  for (const [path, subject] of Object.entries(SUBJECTS)) {
    const words = subject.split(' ');
    const sections = Array.from({ length: 24 }, (_, at) => [
      at === 0 ? '' : pick(words, 2),
      `${pick(words, 12)} ${pick(COMMON, 4)}.`,
    ]);
    inputs.push(...page(path, [...sections, ...(extra[path] ?? [])]));
  }
  return inputs;
}

describe('semantic model', () => {
  it('places a word near the pages written in it', () => {
    const index = buildEngineIndex(corpus());
    const model = buildSemanticModel(index);
    const closeness = (word: string, path: string) => {
      const term = index.termId.get(word)!;
      const page = index.pages.findIndex((entry) => entry.path === path);
      let dot = 0;
      for (let c = 0; c < model.dims; c++) {
        dot += model.termVectors[term * model.dims + c]! * model.pageVectors[page * model.dims + c]!;
      }
      return dot;
    };
    expect(closeness('worker', 'queues')).toBeGreaterThan(closeness('worker', 'billing'));
    expect(closeness('coupon', 'billing')).toBeGreaterThan(closeness('coupon', 'queues'));
  });

  it('is the same model for a client index rebuilt from its serialized form', () => {
    const index = buildEngineIndex(corpus());
    const copy = deserializeIndex(JSON.parse(JSON.stringify(serializeIndex(index, 40))));
    const [a, b] = [buildSemanticModel(index), buildSemanticModel(copy)];
    expect(b.termVectors).toEqual(a.termVectors);
    expect(b.pageVectors).toEqual(a.pageVectors);
    expect(a.pageVectors.some((value) => value !== 0)).toBe(true);
  });

  it('leaves a small index to the word ranking alone', () => {
    const index = buildEngineIndex(corpus().slice(0, MIN_MODEL_SECTIONS - 1));
    expect(buildSemanticModel(index).pageVectors.every((value) => value === 0)).toBe(true);
  });
});

describe('semantic reranking', () => {
  // A question in the queue page's words, which the billing page happens to use in one sentence.
  const index = buildEngineIndex(
    corpus({
      billing: [['Charges', 'Restart failed jobs of the customer.']],
      queues: [['Failures', 'A worker may retry a job that failed.']],
    }),
  );
  const top = (semantic: number) =>
    rankSections(index, 'restart failed worker jobs after backoff', 3, { ...DEFAULT_RANKING, semantic }).hits.map(
      (hit) => index.pages[index.sectionPage[hit.section]!]!.path,
    );

  it('ranks first the page whose subject the question is about, over a passing mention', () => {
    expect(top(DEFAULT_RANKING.semantic)[0]).toBe('queues');
  });

  it('is what moved it: the words alone rank the passing mention first', () => {
    expect(top(0)[0]).toBe('billing');
  });
});
