import { normalizeSearchLimit } from '@kit/core/internal';
import { describe, expect, it } from 'vitest';
import { contractSections } from '../testing/index.js';
import { buildEngineIndex, type EngineInput } from './build.js';
import { decodeNumbers, deserializeIndex, encodeNumbers, serializeIndex } from './codec.js';
import { toSearchHits } from './hits.js';
import { DEFAULT_RANKING, rankSections } from './rank.js';
import { makeSnippet, SNIPPET_LENGTH } from './snippet.js';

const sections: EngineInput[] = [
  ...contractSections.public,
  {
    path: 'events',
    title: 'Events',
    heading: 'Queued event listeners',
    headingPath: ['Events', 'Queued event listeners'],
    text: 'Listeners may be queued so that slow work happens after the response.',
    url: '/docs/2.x/events#queued-event-listeners',
    markdownUrl: '/docs/2.x/events.md',
  },
];

describe('rankSections', () => {
  const index = buildEngineIndex(sections);
  const top = (query: string) =>
    rankSections(index, query, 8).hits.map((hit) => index.pages[index.sections[hit.section]!.page]!.path);

  it('ranks the page whose title and headings match first', () => {
    expect(top('queued event listeners')[0]).toBe('events');
  });

  it('opens a page by its title at the page, not at a section that repeats the word', () => {
    const page = (heading: string, text: string): EngineInput => ({
      path: 'navigation',
      title: 'Navigation',
      heading,
      // As Kit builds them: the page's own heading heads every path.
      headingPath: heading ? ['Navigation', heading] : ['Navigation'],
      text,
      url: `/docs/navigation${heading ? '#errors' : ''}`,
      markdownUrl: '/docs/navigation.md',
    });
    const titled = buildEngineIndex([
      ...sections,
      page('', 'Groups of pages in the sidebar.'),
      page('Errors', 'navigation.missing_page: the navigation names a page; navigation.orphan: navigation lacks it.'),
    ]);
    const [hit] = rankSections(titled, 'navigation', 8).hits;
    expect(titled.sections[hit!.section]!.heading).toBe('');
    const [errors] = rankSections(titled, 'navigation errors', 8).hits;
    expect(titled.sections[errors!.section]!.heading).toBe('Errors');
  });

  it('tolerates a one-letter typo and a swapped pair of letters', () => {
    expect(top('evnet listners')[0]).toBe('events');
  });

  it('matches the word being typed as a prefix', () => {
    expect(top('atomic loc')[0]).toBe('cache');
  });

  it('reaches a page written in the docs wording from an everyday phrasing', () => {
    const withLimits = buildEngineIndex([
      ...sections,
      {
        path: 'rate-limiting',
        title: 'Rate limiting',
        heading: '',
        headingPath: [],
        text: 'Define how many requests a client may send to the application.',
        url: '/docs/2.x/rate-limiting',
        markdownUrl: '/docs/2.x/rate-limiting.md',
      },
    ]);
    const paths = (query: string, related: number) =>
      rankSections(withLimits, query, 8, { ...DEFAULT_RANKING, related }).hits.map(
        (hit) => withLimits.pages[withLimits.sections[hit.section]!.page]!.path,
      );
    expect(paths('throttle clients', 0.6)[0]).toBe('rate-limiting');
    expect(paths('throttle ', 0.6)).toEqual(['rate-limiting']);
    expect(paths('throttle ', 0)).toEqual([]);
  });

  it('weighs a camelCase word of a question as one word, so the rest of the question still counts', () => {
    const withIdentifier = buildEngineIndex([
      {
        path: 'ci',
        title: 'Continuous integration',
        heading: 'GitHub Actions',
        headingPath: ['Continuous integration', 'GitHub Actions'],
        text: 'Run the test suite with GitHub Actions on every push to GitHub.',
        url: '/docs/2.x/ci#github-actions',
        markdownUrl: '/docs/2.x/ci.md',
      },
      {
        path: 'oauth',
        title: 'OAuth',
        heading: 'Providers',
        headingPath: ['OAuth', 'Providers'],
        text: 'Let users sign in through an OAuth provider such as GitHub or Google, then read their profile.',
        url: '/docs/2.x/oauth#providers',
        markdownUrl: '/docs/2.x/oauth.md',
      },
      {
        path: 'introduction',
        title: 'Introduction',
        heading: '',
        headingPath: [],
        text: 'A framework for web applications with routing, sessions and users.',
        url: '/docs/2.x/introduction',
        markdownUrl: '/docs/2.x/introduction.md',
      },
    ]);
    const hits = rankSections(withIdentifier, 'GitHub profile', 8).hits;
    expect(hits.map((hit) => withIdentifier.pages[withIdentifier.sections[hit.section]!.page]!.path)).toEqual([
      'oauth',
      'ci',
    ]);
  });

  it('moves a page the question names in its title up among the results after the first', () => {
    const page = (path: string, title: string, heading: string, text: string): EngineInput => ({
      path,
      title,
      heading,
      headingPath: heading ? [title, heading] : [],
      text,
      url: `/docs/2.x/${path}`,
      markdownUrl: `/docs/2.x/${path}.md`,
    });
    const testing = buildEngineIndex([
      page(
        'mail',
        'Mail',
        'Testing mailables',
        'Test that mail was sent without sending it: the mail fake records every mailable.',
      ),
      page(
        'notifications',
        'Notifications',
        'Testing',
        'Test that notifications were sent by mail without sending them, and assert on each mail.',
      ),
      page('mocking', 'Mocking', '', 'Replace a service with a mock in a test.'),
      page('introduction', 'Introduction', '', 'A framework for web applications.'),
    ]);
    const ranked = (query: string, titleCoverage: number) =>
      rankSections(testing, query, 8, { ...DEFAULT_RANKING, titleCoverage }).hits.map((hit) => ({
        path: testing.pages[testing.sections[hit.section]!.page]!.path,
        score: hit.score,
      }));
    const paths = (query: string, titleCoverage = DEFAULT_RANKING.titleCoverage) =>
      ranked(query, titleCoverage).map((hit) => hit.path);
    const question = 'test mail sent without sending mocking';
    expect(paths(question, 0)).toEqual(['mail', 'notifications', 'mocking']);
    expect(paths(question)).toEqual(['mail', 'mocking', 'notifications']);
    // The best match keeps its place and its lead, even over a page whose whole title the question has.
    const named = ranked('mock mail sent in a test', DEFAULT_RANKING.titleCoverage);
    expect(named.map((hit) => hit.path)).toEqual(['mocking', 'mail', 'notifications']);
    expect(named[0]!.score).toBeGreaterThanOrEqual(named[1]!.score);
  });

  it('returns each page once, with its best section', () => {
    const hits = rankSections(index, 'queues failed job retry', 8).hits;
    const paths = hits.map((hit) => index.sections[hit.section]!.page);
    expect(new Set(paths).size).toBe(paths.length);
    expect(index.sections[hits[0]!.section]!.heading).toBe('Retrying failed jobs');
  });
});

describe('several sections of one page', () => {
  const page = (heading: string, text: string, headingPath = ['Queues', heading]): EngineInput => ({
    path: 'queues',
    title: 'Queues',
    heading,
    headingPath,
    text,
    url: `/docs/2.x/queues#${heading.toLowerCase().replace(/\s+/g, '-')}`,
    markdownUrl: '/docs/2.x/queues.md',
  });
  const index = buildEngineIndex([
    ...contractSections.public.filter((section) => section.path !== 'queues'),
    page('', 'Queues run slow work in the background.', []),
    page('Specifying the queue', 'Dispatch a job to a specific queue with onQueue.'),
    page('Dealing with failed jobs', ''),
    page('Retrying failed jobs', 'Retry every failed job of a specific queue with queue:retry --queue.', [
      'Queues',
      'Dealing with failed jobs',
      'Retrying failed jobs',
    ]),
    page('Job batching', 'Batches group jobs; a batch can be cancelled.'),
  ]);
  const headingsOf = (hit: { heading: string | null; sections?: Array<{ heading: string | null }> }) => [
    hit.heading,
    ...(hit.sections ?? []).map((section) => section.heading),
  ];

  it('lists the other sections of a page that match with its best one', () => {
    const [hit] = toSearchHits(
      index,
      rankSections(index, 'retry failed jobs for a specific queue', 8, undefined, { sections: 3 }),
    );
    expect(hit!.path).toBe('queues');
    expect(headingsOf(hit!)).toContain('Retrying failed jobs');
    // A section that matches only through the page title is not listed.
    expect(headingsOf(hit!)).not.toContain('Job batching');
    for (const section of hit!.sections ?? []) expect(section.score).toBeLessThanOrEqual(hit!.score);
  });

  it('lists one section per page unless asked for more', () => {
    const [hit] = toSearchHits(index, rankSections(index, 'retry failed jobs for a specific queue', 8));
    expect(hit!.sections).toBeUndefined();
  });

  it('never answers an empty snippet: a section of only sub-headings shows its first subsection', () => {
    const hits = toSearchHits(index, rankSections(index, 'dealing', 8));
    expect(hits[0]!.heading).toBe('Dealing with failed jobs');
    expect(hits[0]!.snippet).toBe('Retry every failed job of a specific queue with queue:retry --queue.');
  });
});

describe('the no-match threshold', () => {
  const index = buildEngineIndex(sections);
  const count = (query: string, minCoverage = DEFAULT_RANKING.minCoverage) =>
    rankSections(index, query, 8, { ...DEFAULT_RANKING, minCoverage, minHitCoverage: minCoverage / 2 }).hits.length;

  it('answers nothing for a random token, an everyday question or another field', () => {
    for (const query of ['xK9qvT2mLp8RzW4nB7cY', 'how do I bake a chocolate cake', 'kubernetes pod autoscaling yaml']) {
      expect(count(query), query).toBe(0);
    }
  });

  it('still answers a question with a word the docs do not use, and typos', () => {
    expect(count('retry my failed jobs please')).toBeGreaterThan(0);
    expect(count('queus')).toBeGreaterThan(0);
  });

  it('answers a stray word of a nonsense query when the threshold is off', () => {
    expect(count('colorless green ideas sleep stop furiously', 0)).toBeGreaterThan(0);
    expect(count('colorless green ideas sleep stop furiously')).toBe(0);
  });
});

describe('client index codec', () => {
  it('round-trips numbers of any size', () => {
    const values = [0, 1, 31, 32, 1023, 1024, 65535, 4294967295];
    expect(decodeNumbers(encodeNumbers(values))).toEqual(values);
  });

  it('ranks a deserialized index exactly like the index it came from', () => {
    const index = buildEngineIndex(sections);
    const copy = deserializeIndex(JSON.parse(JSON.stringify(serializeIndex(index, 400))));
    for (const query of ['queued listeners', 'route parameters', 'atomic lock', 'evnet']) {
      expect(rankSections(copy, query, 8).hits).toEqual(rankSections(index, query, 8).hits);
    }
    expect(copy.sections.map((section) => section.url)).toEqual(index.sections.map((section) => section.url));
  });

  it('refuses data that is not a client index', () => {
    expect(() => deserializeIndex({ format: 'other' } as never)).toThrow(/client search index/);
  });
});

describe('makeSnippet', () => {
  it('centres a bounded plain-text window on the matched words', () => {
    const text = `${'Filler words about nothing in particular. '.repeat(20)}Atomic locks let one worker hold a lock. ${'More filler. '.repeat(20)}`;
    const snippet = makeSnippet(text, new Set(['atom', 'lock']));
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_LENGTH);
    expect(snippet).toContain('Atomic locks');
    expect(snippet.startsWith('…')).toBe(true);
  });

  it('centres hits found through the index word forms exactly as tokenizing does', () => {
    const text = `${'Filler words about nothing in particular. '.repeat(20)}Retrying failed jobs: a failed job is retried. ${'More filler. '.repeat(20)}`;
    const index = buildEngineIndex([{ ...sections[0]!, text }]);
    const outcome = rankSections(index, 'retry failed job', 8);
    const [hit] = toSearchHits(index, outcome);
    expect(hit!.snippet).toBe(makeSnippet(text, outcome.matchedTerms));
    expect(hit!.snippet).toContain('Retrying failed jobs');
  });

  it('finds whole words only, next to accented letters and in texts whose lowercase is longer', () => {
    const filler = 'Filler words about nothing in particular. '.repeat(20);
    const texts = [
      // `jobé` is not the word `job`: matched inside such words, the first line would win the window.
      `${filler}Retryé failedé jobé stay unmatched. ${filler}Retry a failed JOB here. ${filler}`,
      // `İ` lowercases to two characters, which would shift positions found in the lowercase.
      `${'İ '.repeat(60)}${filler}Retrying failed jobs: a failed job is retried. ${filler}`,
    ];
    for (const text of texts) {
      const index = buildEngineIndex([{ ...sections[0]!, text }]);
      const outcome = rankSections(index, 'retry failed job', 8);
      const [hit] = toSearchHits(index, outcome);
      expect(hit!.snippet).toBe(makeSnippet(text, outcome.matchedTerms));
      expect(hit!.snippet).toMatch(/Retry(ing)? a? ?failed/);
    }
  });

  it('returns a short text whole', () => {
    expect(makeSnippet('  Short\n text. ', new Set())).toBe('Short text.');
  });
});

describe('normalizeSearchLimit', () => {
  it('defaults to 8 and accepts 1 to 20', () => {
    expect(normalizeSearchLimit(undefined)).toBe(8);
    expect(normalizeSearchLimit(1)).toBe(1);
    expect(normalizeSearchLimit(20)).toBe(20);
  });

  it('refuses other limits with a message naming the range', () => {
    expect(() => normalizeSearchLimit(21)).toThrowErrorMatchingInlineSnapshot(
      `[KitError: Search limit must be a whole number from 1 to 20, got 21. Omit it for 8 results.]`,
    );
  });
});
