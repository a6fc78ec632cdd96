import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveNavigation, labelFromFolder } from './derive.js';
import { navigationPages } from './pages.js';
import { normalizeNavigation, normalizeNavPath, parseNavigation } from './parse.js';

describe('parseNavigation', () => {
  it('reads every Laravel navigation file without problems', () => {
    for (const version of ['13.x', '12.x', '11.x']) {
      const { navigation, problems } = parseNavigation(
        readFileSync(`${process.env.KIT_SHARED_DIR}/corpora/laravel/${version}/navigation.json`, 'utf8'),
      );
      expect(problems).toEqual([]);
      expect(navigation && 'groups' in navigation && navigation.groups.length).toBeGreaterThan(5);
    }
  });

  it('reads all four entry forms and tabs', () => {
    const text = JSON.stringify({
      tabs: [
        {
          label: 'Guides',
          groups: [
            {
              label: 'Start',
              pages: [
                'index',
                { path: 'configuration', title: 'Config' },
                { label: 'Advanced', pages: ['advanced/caching'] },
                { label: 'API', href: 'https://example.com/api' },
              ],
            },
          ],
        },
      ],
    });
    expect(parseNavigation(text)).toEqual({ navigation: JSON.parse(text), problems: [] });
  });

  it('reports invalid JSON with line and column and gives no navigation', () => {
    const { navigation, problems } = parseNavigation('{\n  "groups": [\n    { "label": "A", "pages": [] },\n  ]\n}');
    expect(navigation).toBeNull();
    expect(problems).toMatchObject([
      { rule: 'navigation.schema', severity: 'error', line: 3, column: 34, file: 'navigation.json' },
    ]);
    expect(problems[0]!.message).toContain('derived from the folders');
  });

  it('keeps valid entries, drops invalid ones and reports each with its line', () => {
    const text =
      '{\n  "groups": [\n    { "label": "A", "pages": ["a", 4, { "path": "b", "titel": "B" }] },\n    { "label": "", "pages": [] }\n  ]\n}';
    const { navigation, problems } = parseNavigation(text, '3.x/navigation.json');
    expect(navigation).toEqual({ groups: [{ label: 'A', pages: ['a', { path: 'b' }] }] });
    expect(problems.map((p) => [p.rule, p.line, p.file])).toEqual([
      ['navigation.schema', 3, '3.x/navigation.json'],
      ['navigation.schema', 3, '3.x/navigation.json'],
      ['navigation.schema', 4, '3.x/navigation.json'],
    ]);
    expect(problems[1]!.message).toBe(
      '`groups[0].pages[2]` has an unknown key `titel`; allowed keys: `path`, `title`.',
    );
    expect(problems[1]!.fix).toBe('Rename `titel` to `title`.');
  });

  it('writes page paths in canonical form and reports the written form', () => {
    const { navigation, problems } = normalizeNavigation({
      groups: [{ label: 'A', pages: ['/intro.md', { path: 'guide/setup.md' }] }],
    });
    expect(navigation).toEqual({ groups: [{ label: 'A', pages: ['intro', { path: 'guide/setup' }] }] });
    expect(problems).toHaveLength(2);
  });

  it('accepts page paths with spaces inside, as a repository serves getting started.md', () => {
    const { navigation, problems } = normalizeNavigation({
      groups: [{ label: 'A', pages: ['getting started', { path: 'guides/first steps', title: 'First' }] }],
    });
    expect(problems).toEqual([]);
    expect(navigation).toEqual({
      groups: [{ label: 'A', pages: ['getting started', { path: 'guides/first steps', title: 'First' }] }],
    });
  });

  it('refuses page paths no page can have, naming the path and what a page path looks like', () => {
    const { navigation, problems } = normalizeNavigation({
      groups: [{ label: 'A', pages: ['a//b', 'a\\b', ' padded ', '../up'] }],
    });
    // " padded " is kept in canonical form, like "/intro.md"; the others name no page and are left out.
    expect(navigation).toEqual({ groups: [{ label: 'A', pages: ['padded'] }] });
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining('`groups[0].pages[0]` must be a page path'),
      expect.stringContaining('`groups[0].pages[1]` must be a page path'),
      expect.stringContaining('`groups[0].pages[2]` must be a page path'),
      expect.stringContaining('`groups[0].pages[3]` must be a page path'),
    ]);
    expect(problems[0]!.message).toContain('spaces inside are fine');
  });

  it('leaves out external links that are not safe', () => {
    const { navigation, problems } = normalizeNavigation({
      groups: [{ label: 'A', pages: [{ label: 'X', href: 'javascript:alert(1)' }] }],
    });
    expect(navigation).toEqual({ groups: [{ label: 'A', pages: [] }] });
    expect(problems).toHaveLength(1);
  });

  it('uses the tabs of a file that has both groups and tabs and says so once', () => {
    const { navigation, problems } = normalizeNavigation({ groups: [], tabs: [{ label: 'T', groups: [] }] });
    expect(navigation).toEqual({ tabs: [{ label: 'T', groups: [] }] });
    expect(problems.map((p) => p.message)).toEqual([
      'navigation.json has both `groups` and `tabs`; a navigation file has one or the other. The tabs are used.',
    ]);
  });

  it('gives no navigation for a file with neither groups nor tabs', () => {
    const { navigation, problems } = parseNavigation('{"pages": []}');
    expect(navigation).toBeNull();
    expect(problems.map((p) => p.message)).toContain('The document is missing the required key `groups`.');
  });
});

describe('normalizeNavPath', () => {
  it.each([
    ['intro', 'intro'],
    [' /guide/intro.md ', 'guide/intro'],
    ['guide/', 'guide'],
    ['', undefined],
    ['../secret', undefined],
    ['a/./b', undefined],
    ['has space', 'has space'],
    [' getting started.md ', 'getting started'],
    ['guides/first steps.MD', 'guides/first steps'],
    ['a//b', undefined],
    ['a\\b', undefined],
    [42, undefined],
  ])('normalizes %j to %j', (input, expected) => expect(normalizeNavPath(input)).toBe(expected));
});

describe('deriveNavigation', () => {
  const pages = [
    { path: 'guides/zeta', title: 'Zeta' },
    { path: 'installation', title: 'Installation' },
    { path: 'guides/advanced/caching', title: 'Caching' },
    { path: 'guides/index', title: 'Guides overview' },
    { path: 'index', title: 'Welcome' },
    { path: 'api-reference/10-errors', title: 'Errors' },
    { path: 'api-reference/2-auth', title: 'Auth' },
    { path: 'guides/alpha', title: '' },
  ];

  it('puts index first, then pages, then folders as groups labelled from their names', () => {
    expect(deriveNavigation(pages)).toEqual({
      groups: [
        {
          label: 'Overview',
          pages: [
            { path: 'index', title: 'Welcome' },
            { path: 'installation', title: 'Installation' },
          ],
        },
        {
          label: 'Api Reference',
          pages: [
            { path: 'api-reference/2-auth', title: 'Auth' },
            { path: 'api-reference/10-errors', title: 'Errors' },
          ],
        },
        {
          label: 'Guides',
          pages: [
            { path: 'guides/index', title: 'Guides overview' },
            'guides/alpha',
            { path: 'guides/zeta', title: 'Zeta' },
            { label: 'Advanced', pages: [{ path: 'guides/advanced/caching', title: 'Caching' }] },
          ],
        },
      ],
    });
  });

  it('gives the same navigation whatever order the pages come in', () => {
    expect(deriveNavigation([...pages].reverse())).toEqual(deriveNavigation(pages));
  });

  it('derives a valid navigation file', () => {
    expect(normalizeNavigation(deriveNavigation(pages)).problems).toEqual([]);
  });

  it('gives no groups for no pages and no root group when every page sits in a folder', () => {
    expect(deriveNavigation([])).toEqual({ groups: [] });
    expect(deriveNavigation([{ path: 'a/b', title: 'B' }]).groups.map((g) => g.label)).toEqual(['A']);
  });

  it('lists pages whose file names have spaces, in a file that validates', () => {
    const derived = deriveNavigation([
      { path: 'index', title: 'Home' },
      { path: 'getting started', title: 'Getting started' },
      { path: 'user guides/first steps', title: 'First steps' },
    ]);
    expect(derived).toEqual({
      groups: [
        {
          label: 'Overview',
          pages: [
            { path: 'index', title: 'Home' },
            { path: 'getting started', title: 'Getting started' },
          ],
        },
        { label: 'User Guides', pages: [{ path: 'user guides/first steps', title: 'First steps' }] },
      ],
    });
    expect(normalizeNavigation(derived).problems).toEqual([]);
  });

  it('labels folders in title case', () => {
    expect(labelFromFolder('getting-started')).toBe('Getting Started');
    expect(labelFromFolder('api_reference')).toBe('Api Reference');
  });
});

describe('navigationPages', () => {
  it('flattens groups, nested groups and tabs in reading order', () => {
    expect(
      navigationPages({
        tabs: [
          {
            label: 'Guides',
            groups: [
              {
                label: 'Start',
                pages: [
                  'index',
                  { label: 'More', pages: [{ path: 'deep', title: 'Deep' }] },
                  { label: 'X', href: 'https://x.dev' },
                ],
              },
            ],
          },
          { label: 'API', groups: [{ label: 'Reference', pages: ['api', 'index'] }] },
        ],
      }),
    ).toEqual([
      { path: 'index', group: 'Start', tab: 'Guides', labels: ['Start'] },
      { path: 'deep', title: 'Deep', group: 'Start', tab: 'Guides', labels: ['Start', 'More'] },
      { path: 'api', group: 'Reference', tab: 'API', labels: ['Reference'] },
    ]);
  });

  it('lists every page of the Laravel navigation once', () => {
    const { navigation } = parseNavigation(
      readFileSync(`${process.env.KIT_SHARED_DIR}/corpora/laravel/13.x/navigation.json`, 'utf8'),
    );
    const pages = navigationPages(navigation!);
    expect(new Set(pages.map((p) => p.path)).size).toBe(pages.length);
    expect(pages[0]).toEqual({ path: 'releases', title: 'Release Notes', group: 'Prologue', labels: ['Prologue'] });
  });
});
