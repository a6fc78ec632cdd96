import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/resolve.js';
import { type MemoryPage, memorySource, substringSearch } from '../docset/__fixtures__/doubles.js';
import { createDocSet } from '../docset/docset.js';
import { createRenderContext } from '../docset/render-context.js';
import type { SourcePage } from '../model/types.js';
import type { PageRenderer, RenderedPage } from '../ports/renderer.js';
import { type RenderContextInput, type ValidationRenderer, validateDocSet } from './validate.js';

/** Renders just enough for validation: Markdown links and `<a href>` tags with their lines, headings and `<a name>` anchors. */
function linkRenderer(): PageRenderer {
  return {
    async render(page: SourcePage): Promise<RenderedPage> {
      const links: RenderedPage['links'] = [];
      const anchors: string[] = [];
      page.body.split('\n').forEach((line, index) => {
        for (const match of line.matchAll(/\]\(([^)\s]+)\)/g))
          links.push({ href: match[1]!, line: page.bodyLine + index });
        for (const match of line.matchAll(/<a href="([^"]+)"/g))
          links.push({ href: match[1]!, line: page.bodyLine + index });
        for (const match of line.matchAll(/<a name="([^"]+)"><\/a>/g)) anchors.push(match[1]!);
        const heading = /^#{1,6}\s+(.+)$/.exec(line);
        if (heading) anchors.push(heading[1]!.toLowerCase().replace(/\s+/g, '-'));
      });
      const sections = [{ heading: '', headingPath: [], depth: 0, text: page.body }];
      return { html: '', toc: [], markdown: page.body, sections, anchors, links, problems: [] };
    },
  };
}

function docSetWith(
  pages: MemoryPage[],
  options: {
    manifest?: Record<string, unknown>;
    navigation?: Array<{ version: string; locale: string; nav: unknown }>;
    kind?: 'repository' | 'database';
    set?: Record<string, unknown>;
  } = {},
) {
  const config = resolveConfig({ sets: { docs: options.set ?? {} } }, { env: {}, root: '/project' });
  const source = memorySource({
    manifest: options.manifest ?? { name: 'Acme', versions: ['2.x', '1.x'] },
    pages,
    ...(options.navigation ? { navigation: options.navigation } : {}),
  });
  const sourceOfKind = options.kind === 'database' ? { ...source, kind: 'database' as const } : source;
  // The double reports one unreadable folder; validation passes source problems through as they are.
  sourceOfKind.problems = async () => [];
  return createDocSet({
    config: config.sets.docs!,
    source: sourceOfKind,
    renderer: linkRenderer(),
    search: substringSearch(),
  });
}

const page = (version: string, path: string, body: string, frontmatter?: Record<string, unknown>): MemoryPage => ({
  version,
  locale: 'en',
  path,
  body,
  ...(frontmatter ? { frontmatter } : {}),
});

describe('validateDocSet', () => {
  it('accepts every link shape the corpus uses and reports only the broken ones', async () => {
    const docSet = docSetWith(
      [
        page('2.x', 'index', '# Home\n'),
        page(
          '2.x',
          'guide/routing',
          [
            '# Routing',
            '<a name="route-groups"></a>',
            '[versioned](/docs/{{version}}/guide/routing#route-groups)',
            '[twin](/docs/2.x/guide/routing.md)',
            '[relative](./setup.md)',
            '[up](../index.md)',
            '[here](#routing)',
            '[older](/docs/1.x/legacy)',
            '[other app route](/blog/post)',
            '[site](https://example.com/x)',
            '[typo](./setpu.md)',
            '[no anchor](/docs/{{version}}/guide/setup#nope)',
            '[script](javascript:alert(1))',
            '[moved](/docs/{{version}}/old-page)',
          ].join('\n'),
        ),
        page('2.x', 'guide/setup', '# Setup\n'),
        page('1.x', 'index', '# Home\n'),
        page('1.x', 'legacy', '# Legacy\n'),
      ],
      {
        manifest: {
          name: 'Acme',
          versions: ['2.x', '1.x'],
          redirects: [{ from: '/docs/old-page', to: '/docs/guide/setup' }],
        },
      },
    );

    const report = await validateDocSet({ docSet, renderer: linkRenderer() });
    const found = report.issues.map((issue) => [issue.rule, issue.line, issue.version]);
    expect(found).toEqual([
      ['links.broken', 14, '2.x'],
      ['links.unsafe', 16, '2.x'],
      ['links.anchor', 15, '2.x'],
    ]);
    expect(report.issues[0]).toMatchObject({ file: '2.x/guide/routing.md', page: 'guide/routing', set: 'docs' });
    expect(report.issues[0]!.fix).toContain('guide/setup');
    expect(report).toMatchObject({ ok: false, set: 'docs', version: null, summary: { errors: 2, warnings: 1 } });
  });

  it('reports navigation entries without pages and pages in no navigation, but not the landing page', async () => {
    const docSet = docSetWith(
      [page('2.x', 'index', '# Home'), page('2.x', 'listed', '# Listed'), page('2.x', 'lonely', '# Lonely')],
      {
        manifest: { name: 'Acme', versions: ['2.x'] },
        navigation: [
          { version: '2.x', locale: 'en', nav: { groups: [{ label: 'Start', pages: ['listed', 'lisetd'] }] } },
        ],
      },
    );
    const report = await validateDocSet({ docSet, renderer: linkRenderer() });
    expect(report.issues.map((issue) => [issue.rule, issue.severity, issue.page ?? null])).toEqual([
      ['navigation.missing_page', 'error', null],
      ['navigation.orphan', 'warning', 'lonely'],
    ]);
    expect(report.issues[0]).toMatchObject({ file: '2.x/navigation.json', line: 1 });
    expect(report.issues[0]!.fix).toContain('"listed"');
  });

  it('warns about a page of the default version at mcp.web.path, and not when the endpoint is off', async () => {
    const pages = [page('2.x', 'index', '# Home'), page('2.x', 'mcp', '# MCP'), page('1.x', 'mcp', '# MCP')];
    const manifest = { name: 'Acme', versions: ['2.x', '1.x'] };
    const report = await validateDocSet({ docSet: docSetWith(pages, { manifest }), renderer: linkRenderer() });
    const atEndpoint = report.issues.filter((issue) => issue.rule === 'mcp.path_page');
    expect(atEndpoint.map((issue) => [issue.severity, issue.version, issue.page])).toEqual([['warning', '2.x', 'mcp']]);
    expect(atEndpoint[0]!.message).toContain('/docs/mcp');
    expect(atEndpoint[0]!.fix).toContain('mcp.web.path');
    const off = await validateDocSet({
      docSet: docSetWith(pages, { manifest, set: { mcp: { web: { enabled: false } } } }),
      renderer: linkRenderer(),
    });
    expect(off.issues.some((issue) => issue.rule === 'mcp.path_page')).toBe(false);
  });

  it('warns about manifest integrations on a database set only', async () => {
    const manifest = { name: 'Acme', integrations: { analytics: { ga4: { measurementId: 'G-123' } } } };
    const database = await validateDocSet({
      docSet: docSetWith([page('current', 'index', '# Home')], { manifest, kind: 'database' }),
      renderer: linkRenderer(),
    });
    expect(database.issues.map((issue) => issue.rule)).toEqual(['manifest.integrations']);
    const repository = await validateDocSet({
      docSet: docSetWith([page('current', 'index', '# Home')], { manifest }),
      renderer: linkRenderer(),
    });
    expect(repository.issues).toEqual([]);
  });

  it('warns when agent Markdown is over the budget and when the browser index is too big', async () => {
    const docSet = docSetWith(
      [
        page('current', 'index', `# Home\n${'word '.repeat(100)}`),
        page('current', 'secret', '# Secret', { visibility: 'private' }),
      ],
      { manifest: { name: 'Acme' }, set: { agents: { markdown_budget: 100 } } },
    );
    const measured: string[][] = [];
    const report = await validateDocSet({
      docSet,
      renderer: linkRenderer(),
      searchBudget: async (_scope, sections) => {
        measured.push(sections.map((section) => section.path));
        return { gzipBytes: 400 * 1024, budgetKb: 300 };
      },
    });
    expect(report.issues.map((issue) => [issue.rule, issue.page ?? null])).toEqual([
      ['search.budget', null],
      ['markdown.size', 'index'],
    ]);
    // The budget is measured over what a guest may search: the private page is not shipped.
    expect(measured.flat().every((path) => path === 'index')).toBe(true);
  });

  it('checks one version when asked and names the versions when the one asked for is unknown', async () => {
    const docSet = docSetWith([
      page('2.x', 'index', '[gone](./nothing.md)'),
      page('1.x', 'index', '[gone](./nothing.md)'),
    ]);
    const report = await validateDocSet({ docSet, renderer: linkRenderer(), version: '1.x' });
    expect(report.version).toBe('1.x');
    expect(report.issues.map((issue) => issue.version)).toEqual(['1.x']);
    await expect(validateDocSet({ docSet, version: '9.x' })).rejects.toThrow(/no version "9.x".*2\.x, 1\.x/);
  });

  it('warns about a declared locale a version has no pages in, naming the folder to create', async () => {
    const pages: MemoryPage[] = [
      { version: '2.x', locale: 'en', path: 'index', body: '# Home\n' },
      { version: '2.x', locale: 'ar', path: 'index', body: '# الرئيسية\n' },
      { version: '1.x', locale: 'en', path: 'index', body: '# Old\n' },
    ];
    const manifest = { name: 'Acme', versions: ['2.x', '1.x'], locales: ['en', 'ar'] };
    const report = await validateDocSet({ docSet: docSetWith(pages, { manifest }), renderer: linkRenderer() });
    const missing = report.issues.filter((issue) => issue.rule === 'locales.missing');
    expect(missing).toEqual([
      expect.objectContaining({
        severity: 'warning',
        version: '1.x',
        locale: 'ar',
        file: 'kit.json',
        message: expect.stringContaining('version 1.x has no ar pages (folder 1.x/ar/)'),
        fix: expect.stringContaining('Create the folder 1.x/ar/'),
      }),
    ]);
    expect(report.ok).toBe(true);

    const database = await validateDocSet({
      docSet: docSetWith(pages, { manifest, kind: 'database' }),
      renderer: linkRenderer(),
    });
    expect(database.issues.find((issue) => issue.rule === 'locales.missing')?.fix).toContain(
      'Add ar pages to version 1.x',
    );

    const translated = await validateDocSet({
      docSet: docSetWith([...pages, { version: '1.x', locale: 'ar', path: 'index', body: '# قديم\n' }], { manifest }),
      renderer: linkRenderer(),
    });
    expect(translated.issues.filter((issue) => issue.rule === 'locales.missing')).toEqual([]);
  });

  it('reports a missing manifest as a warning and a misspelled key with its rename', async () => {
    const missing = await validateDocSet({
      docSet: (() => {
        const docSet = docSetWith([page('current', 'index', '# Home')]);
        docSet.source.readManifest = async () => null;
        return docSet;
      })(),
      renderer: linkRenderer(),
    });
    expect(missing.issues.map((issue) => [issue.rule, issue.severity])).toEqual([['manifest.schema', 'warning']]);
    expect(missing.ok).toBe(true);

    const typo = await validateDocSet({
      docSet: docSetWith([page('current', 'index', '# Home')], { manifest: { name: 'Acme', descripton: 'x' } }),
      renderer: linkRenderer(),
    });
    expect(typo.issues).toMatchObject([
      { rule: 'manifest.schema', severity: 'warning', fix: expect.stringContaining('description') },
    ]);
  });

  it('reads pages through the doc set when no renderer is given', async () => {
    const docSet = docSetWith([page('current', 'index', '[gone](./nothing.md)')], { manifest: { name: 'Acme' } });
    const report = await validateDocSet({ docSet });
    expect(report.issues.map((issue) => issue.rule)).toEqual(['links.broken']);
  });

  it('gives a renderer that renders several pages at once every page ahead, and reports the same', async () => {
    const pages = [
      page('2.x', 'index', '# Home\n[setup](./setup.md#install)\n[gone](./nothing.md)'),
      page('2.x', 'setup', '# Setup\n<a name="install"></a>\n[home](./index.md#nope)'),
      page('1.x', 'index', '# Home\n[legacy](./legacy.md#old)'),
      page('1.x', 'legacy', '# Legacy\n[typo](./legacyy.md)'),
    ];
    const serial = await validateDocSet({ docSet: docSetWith(pages), renderer: linkRenderer() });

    // Renders come back only when the test says so: validation must ask for all of them first.
    const asked: string[] = [];
    const release: Array<() => void> = [];
    const inner = linkRenderer();
    const concurrent: ValidationRenderer = {
      concurrency: 2,
      renderPage(source: SourcePage, context: RenderContextInput) {
        asked.push(`${source.version}/${source.path}`);
        return new Promise((resolve) => {
          release.push(() => resolve(inner.render(source, createRenderContext(context))));
        });
      },
    };
    const running = validateDocSet({ docSet: docSetWith(pages), renderer: concurrent });
    await expect.poll(() => asked.length).toBe(4);
    for (const resolve of release.reverse()) resolve();
    expect(await running).toEqual(serial);
    expect(serial.issues.map((issue) => issue.rule).sort()).toEqual([
      'links.anchor',
      'links.anchor',
      'links.broken',
      'links.broken',
    ]);
  });

  it('reports components in the manifest inserts that are not registered, on the manifest', async () => {
    const manifest = {
      name: 'Acme',
      inserts: { footer: ['Hello', 'Nope'], 'article.after': ['Missing'] },
    };
    const docSet = docSetWith([page('current', 'index', '# Home')], { manifest });
    docSet.source.readManifest = async () => ({ text: JSON.stringify(manifest, null, 2), file: 'kit.json' });
    const report = await validateDocSet({ docSet, renderer: linkRenderer(), components: ['Hello'] });
    expect(report.issues.map((issue) => [issue.rule, issue.severity, issue.file, issue.line])).toEqual([
      ['components.unknown', 'warning', 'kit.json', 6],
      ['components.unknown', 'warning', 'kit.json', 9],
    ]);
    expect(report.issues[0]!.message).toBe(
      'Insert point "footer" lists the component "Nope", which is not registered, so it is left out of every page.',
    );
    expect(report.issues[1]!.fix).toContain("registerComponent('Missing'");
    expect(report.issues[1]!.fix).toContain('inserts.article.after');
    // Without the registered names there is nothing to check against.
    expect((await validateDocSet({ docSet, renderer: linkRenderer() })).issues).toEqual([]);
  });

  it('says what readers get for an unsafe link under each html_input', async () => {
    const body = [
      '# Home',
      'Text <a href="javascript:alert(4)">run</a> here.',
      '[markdown](javascript:alert(6))',
      '<a href="&#106;avascript:alert(7)">encoded</a>',
    ].join('\n');
    const unsafe = async (options: Parameters<typeof docSetWith>[1]) => {
      const report = await validateDocSet({
        docSet: docSetWith([page('current', 'index', body)], { manifest: { name: 'Acme' }, ...options }),
        renderer: linkRenderer(),
      });
      return report.issues.map((issue) => [issue.rule, issue.line, issue.message]);
    };

    const allowed = await unsafe({ set: { html_input: 'allow' } });
    expect(allowed.map(([rule, line]) => [rule, line])).toEqual([
      ['links.unsafe', 5],
      ['links.unsafe', 6],
      ['links.unsafe', 7],
    ]);
    expect(allowed[0]![2]).toContain("html_input is 'allow', so the page serves it as written");
    expect(allowed[1]![2]).toContain('it is left out of the page');
    expect(allowed[2]![2]).toContain('serves it as written');

    const escaped = await unsafe({});
    expect(escaped[0]![2]).toContain("html_input is 'escape', so the page shows the tag as text");
    expect(escaped[1]![2]).toContain('it is left out of the page');

    const database = await unsafe({ kind: 'database' });
    expect(database[0]![2]).toContain('which a database set escapes');
  });

  it('fails with the error of a page that cannot be rendered when rendering ahead', async () => {
    const failing: ValidationRenderer = {
      concurrency: 4,
      async renderPage(source: SourcePage) {
        throw new Error(`cannot render ${source.path}`);
      },
    };
    const docSet = docSetWith([page('2.x', 'index', '# Home'), page('2.x', 'other', '# Other')]);
    await expect(validateDocSet({ docSet, renderer: failing })).rejects.toThrow('cannot render');
  });

  it('reports the files the source cannot read and checks no page until they can be read', async () => {
    const docSet = docSetWith([page('2.x', 'index', '# Home\n\n[Setup](/docs/2.x/setup)')]);
    const unreadable = {
      rule: 'source.read',
      severity: 'error' as const,
      message: 'The file 2.x/setup.md cannot be read (EACCES: permission denied).',
      file: '2.x/setup.md',
      fix: 'Give the server read permission on 2.x/setup.md (e.g. chmod a+rX), or move it out of the set folder.',
    };
    docSet.source.problems = async () => [unreadable];
    docSet.source.listPages = async () => {
      throw new Error('a source that cannot read a page fails its listing');
    };
    const report = await validateDocSet({ docSet });
    expect(report.ok).toBe(false);
    expect(report.issues).toEqual([expect.objectContaining({ ...unreadable, set: 'docs' })]);
  });
});

describe('validateDocSet with the other sets of the site', () => {
  /** The sets of one site config, each a memory source rendered by `linkRenderer`. */
  function siteWith(
    sets: Record<string, { pages: MemoryPage[]; manifest: Record<string, unknown>; route: Record<string, unknown> }>,
  ) {
    const written = Object.fromEntries(Object.entries(sets).map(([key, set]) => [key, { route: set.route }]));
    const config = resolveConfig({ sets: written }, { env: {}, root: '/project' });
    return Object.fromEntries(
      Object.entries(sets).map(([key, set]) => {
        const source = memorySource({ manifest: set.manifest, pages: set.pages });
        source.problems = async () => [];
        const docSet = createDocSet({
          config: config.sets[key]!,
          source,
          renderer: linkRenderer(),
          search: substringSearch(),
        });
        return [key, docSet];
      }),
    );
  }

  const linksOf = (report: Awaited<ReturnType<typeof validateDocSet>>) =>
    report.issues.filter((issue) => issue.rule.startsWith('links.')).map((issue) => [issue.line, issue.message]);

  it('passes a link to a page of another set and reports one to a page that set does not have', async () => {
    const site = siteWith({
      docs: {
        route: { prefix: 'docs' },
        manifest: { name: 'Guides', versions: ['2.x', '1.x'] },
        pages: [
          page(
            '2.x',
            'index',
            [
              '# Home',
              '[api page](/api/reference/auth#tokens)',
              '[api twin](/api/reference/auth.md)',
              '[api moved](/api/old-auth)',
              '[api missing](/api/reference/gone)',
              '[app route](/pricing)',
              '[no set](/blog/{{version}}/post)',
            ].join('\n'),
          ),
        ],
      },
      api: {
        route: { prefix: 'api' },
        manifest: { name: 'API', redirects: [{ from: '/api/old-auth', to: '/api/reference/auth' }] },
        pages: [page('current', 'index', '# API\n'), page('current', 'reference/auth', '# Auth\n')],
      },
    });
    const sets = Object.values(site);

    const report = await validateDocSet({ docSet: site.docs!, renderer: linkRenderer(), site: sets });
    expect(linksOf(report)).toEqual([
      [
        8,
        'The link "/api/reference/gone" leads to /api/reference/gone, in the doc set mounted at /api, which has no page there, so readers get a 404.',
      ],
      [
        10,
        'The link "/blog/{{version}}/post" leads to /blog/2.x/post, a path no doc set of this site serves, so readers get a 404.',
      ],
    ]);
    expect(report.issues.every((issue) => issue.rule === 'links.broken' && issue.severity === 'error')).toBe(true);
    expect(report.issues[0]!.fix).toBe(
      'Point the link at a page of the doc set mounted at /api, or at a page of this set (/docs/...).',
    );

    // Without the site's sets, a path outside the set may be the application's: nothing is reported.
    expect(linksOf(await validateDocSet({ docSet: site.docs!, renderer: linkRenderer() }))).toEqual([]);
  });

  it("checks a path under a set nested in this set's prefix against the nested set", async () => {
    const site = siteWith({
      docs: {
        route: { prefix: 'docs' },
        manifest: { name: 'Guides' },
        pages: [
          page('current', 'index', '# Home\n[nested ok](/docs/api/auth)\n[nested missing](/docs/api/gone)\n'),
          // A page of docs at the nested path does not answer it: the site routes /docs/api to the api set.
          page('current', 'api/gone', '# Shadowed\n'),
        ],
      },
      api: {
        route: { prefix: 'docs/api' },
        manifest: { name: 'API' },
        pages: [page('current', 'index', '# API\n'), page('current', 'auth', '# Auth\n')],
      },
    });

    const report = await validateDocSet({ docSet: site.docs!, renderer: linkRenderer(), site: Object.values(site) });
    expect(linksOf(report)).toEqual([
      [
        6,
        'The link "/docs/api/gone" leads to /docs/api/gone, in the doc set mounted at /docs/api, which has no page there, so readers get a 404.',
      ],
    ]);
  });

  it('suggests route.link_prefix for links written for another mount, and checks them as its own once set', async () => {
    const laravelPages = [
      page(
        '13.x',
        'installation',
        '# Installation\n[routing](/docs/{{version}}/routing#groups)\n[gone](/docs/{{version}}/gone)\n',
      ),
      page('13.x', 'routing', '# Routing\n<a name="groups"></a>\n'),
    ];
    const kit = { route: { prefix: 'docs' }, manifest: { name: 'Kit' }, pages: [page('current', 'index', '# Kit\n')] };
    const laravelManifest = { name: 'Laravel', versions: ['13.x'], landing: 'installation' };

    const before = siteWith({
      docs: kit,
      laravel: { route: { prefix: 'laravel' }, manifest: laravelManifest, pages: laravelPages },
    });
    const unset = await validateDocSet({
      docSet: before.laravel!,
      renderer: linkRenderer(),
      site: Object.values(before),
    });
    expect(unset.issues.map((issue) => [issue.rule, issue.line])).toEqual([
      ['links.broken', 5],
      ['links.broken', 6],
    ]);
    expect(unset.issues[0]!.message).toContain('leads to /docs/13.x/routing, in the doc set mounted at /docs');
    expect(unset.issues[0]!.fix).toBe(
      'This set has the page "routing". If the pages were written for a site that mounts this set at /docs, set sets.laravel.route.link_prefix: \'docs\' in kit.config.ts; otherwise link to /laravel/{{version}}/routing.',
    );
    expect(unset.issues[1]!.fix).toBe(
      'Point the link at a page of the doc set mounted at /docs, or at a page of this set (/laravel/...).',
    );

    const after = siteWith({
      docs: kit,
      laravel: { route: { prefix: 'laravel', link_prefix: 'docs' }, manifest: laravelManifest, pages: laravelPages },
    });
    const fixed = await validateDocSet({
      docSet: after.laravel!,
      renderer: linkRenderer(),
      site: Object.values(after),
    });
    expect(fixed.issues.map((issue) => [issue.rule, issue.line, issue.message])).toEqual([
      [
        'links.broken',
        6,
        'The link "/docs/{{version}}/gone" points at "gone", which is not a page of version 13.x of the docs.',
      ],
    ]);
  });
});

describe('validateDocSet link messages', () => {
  it('names an unversioned single-locale set plainly as "the docs"', async () => {
    const docSet = docSetWith([page('current', 'index', '# Home\n[gone](./nowhere.md)\n')], {
      manifest: { name: 'Acme' },
    });
    const report = await validateDocSet({ docSet, renderer: linkRenderer() });
    expect(report.issues.map((issue) => issue.message)).toEqual([
      'The link "./nowhere.md" points at "nowhere", which is not a page of the docs.',
    ]);
  });

  it('names the version and the locale of a versioned set in several languages', async () => {
    const docSet = docSetWith(
      [
        { version: '2.x', locale: 'en', path: 'index', body: '# Home\n' },
        { version: '2.x', locale: 'fr', path: 'index', body: '# Accueil\n[gone](./nowhere.md)\n' },
      ],
      { manifest: { name: 'Acme', versions: ['2.x'], locales: ['en', 'fr'] } },
    );
    const report = await validateDocSet({ docSet, renderer: linkRenderer() });
    expect(report.issues.map((issue) => issue.message)).toContain(
      'The link "./nowhere.md" points at "nowhere", which is not a page of version 2.x of the fr docs.',
    );
  });
});
