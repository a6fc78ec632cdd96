import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createRenderContext,
  createUrlLayout,
  normalizeManifest,
  type RenderContextInput,
  type RenderedPage,
  type SourcePage,
} from '@kit/core';
import { createRenderPool } from '@kit/node';
import { registerComponent } from '@kit/render';
import { createNodeRenderer } from '@kit/render/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempProject, writeFiles } from './__fixtures__/kit-binary.js';
import { cachedRenderer } from './validate/render-cache.js';

const context = (version: string): RenderContextInput => ({
  set: 'docs',
  config: { html_input: 'allow', snippets: { root: null } },
  sourceKind: 'repository',
  // 3.x is the default version: its links carry no version segment, the others' do.
  layout: createUrlLayout(
    'docs',
    normalizeManifest({ name: 'Fixture', versions: [...new Set(['3.x', '2.x', '1.x', version])] }, 'docs').manifest,
  ),
  version,
  locale: 'en',
  origin: 'https://docs.example.com',
  highlight: false,
});

const laravel = join(process.env.KIT_SHARED_DIR ?? resolve(repoRoot, 'tests', 'data'), 'corpora', 'laravel', '13.x');

function pageFromText(path: string, body: string, version: string): SourcePage {
  return {
    path,
    version,
    locale: 'en',
    frontmatter: {},
    body,
    title: path,
    contentHash: `sha256:${createHash('sha256').update(body).digest('hex')}`,
    bodyLine: 1,
    file: `${version}/${path}.md`,
    visibility: 'public',
    problems: [],
  };
}

const withoutHtml = (rendered: RenderedPage): RenderedPage => ({ ...rendered, html: '' });

const fixturePages: SourcePage[] = [
  pageFromText(
    'guide/routing',
    [
      '# Routing',
      '',
      '<a name="groups"></a>',
      '## Route groups',
      '',
      'See [setup](./setup.md#install), [home](/docs/{{version}}/index) and <Badge text="new" />.',
      '',
      '| a | b |',
      '| - | - |',
      '| [x](#groups) | www.example.com |',
      '',
      '<<< @/missing.php',
      '',
    ].join('\n'),
    '2.x',
  ),
  pageFromText('guide/setup', '# Setup\n\n## Install {#install}\n\n<Unknown />\n', '2.x'),
];

describe('the validate render pool', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject();
  });
  afterAll(() => project.cleanup());

  it('renders on worker threads what the calling thread renders, in any order', async () => {
    // A slice of the Laravel docs when it is around: raw <a name> anchors, tables, long pages.
    const corpus = existsSync(laravel)
      ? readdirSync(laravel)
          .filter((name) => name.endsWith('.md'))
          .sort()
          .slice(0, 24)
          .map((name) => pageFromText(name.slice(0, -3), readFileSync(join(laravel, name), 'utf8'), '13.x'))
      : [];
    const pages = [...fixturePages, ...corpus];
    const renderer = createNodeRenderer();
    const pool = createRenderPool({ workers: 2, renderer, startAt: 0 });
    try {
      const pooled = await Promise.all(pages.map((page) => pool.renderPage(page, context(page.version))));
      for (const [index, page] of pages.entries()) {
        const inline = await renderer.render(page, createRenderContext(context(page.version)));
        expect(pooled[index], page.path).toEqual(withoutHtml(inline));
      }
      expect(pooled[1]?.problems.map((problem) => problem.rule)).toEqual(['components.unknown']);
    } finally {
      await pool.close();
    }
  });

  it('renders pages with the same Markdown in several versions together, each for its own version', async () => {
    const body = fixturePages[0]!.body;
    const versions = ['3.x', '2.x', '1.x'];
    const pages = [
      ...versions.map((version) => pageFromText('guide/routing', body, version)),
      fixturePages[1]!,
      pageFromText('guide/other', body, '2.x'),
    ];
    const renderer = createNodeRenderer();
    const pool = createRenderPool({ workers: 2, renderer, startAt: 0 });
    try {
      // Asked for at once, as validation asks: the pages sharing Markdown go to one worker together.
      const pooled = await Promise.all(pages.map((page) => pool.renderPage(page, context(page.version))));
      for (const [index, page] of pages.entries()) {
        const inline = await createNodeRenderer().render(page, createRenderContext(context(page.version)));
        expect(pooled[index], `${page.version}/${page.path}`).toEqual(withoutHtml(inline));
      }
      for (const [index, version] of versions.entries()) {
        // Links name the page's own version; the default version's carry none (one URL per page).
        expect(pooled[index]?.markdown).toContain(
          `[home](https://docs.example.com/docs${version === '3.x' ? '' : `/${version}`})`,
        );
      }
      expect(pooled[4]?.markdown).toBe(pooled[1]?.markdown.replace('guide/routing', 'guide/other'));
    } finally {
      await pool.close();
    }
  });

  it('renders on the calling thread with one job as the workers do, the HTML left out unless kept', async () => {
    const renderer = createNodeRenderer();
    const pool = createRenderPool({ workers: 0, renderer });
    const page = fixturePages[1]!;
    expect(pool.concurrency).toBe(1);
    const full = await renderer.render(page, createRenderContext(context('2.x')));
    expect(full.html).not.toBe('');
    expect(await pool.renderPage(page, context('2.x'))).toEqual(withoutHtml(full));
    const keeping = createRenderPool({ workers: 0, renderer, keepHtml: true });
    expect(await keeping.renderPage(page, context('2.x'))).toEqual(full);
  });

  describe('with a component the config registers', () => {
    beforeAll(async () => {
      const renderFrom = pathToFileURL(join(repoRoot, 'packages/render/src/index.ts')).href;
      await writeFiles(project.dir, {
        'kit.config.mjs': `import { registerComponent } from ${JSON.stringify(renderFrom)};
registerComponent('Badge', { html: (props) => \`<b>\${props.text}</b>\`, markdown: (props) => \`**\${props.text}**\` });
registerComponent('Boom', { html: () => { throw new Error('Boom cannot render'); }, markdown: () => '' });
registerComponent('Stuck', { html: () => { for (;;) {} }, markdown: () => '' });
export default {};
`,
      });
      // What loading that config did on this thread.
      registerComponent('Badge', { html: (props) => `<b>${props.text}</b>`, markdown: (props) => `**${props.text}**` });
      registerComponent('Boom', {
        html: () => {
          throw new Error('Boom cannot render');
        },
        markdown: () => '',
      });
      registerComponent('Stuck', {
        html: () => {
          throw new Error('Stuck renders on workers only');
        },
        markdown: () => '',
      });
    });

    it('has the workers load the config, so the component is known there too', async () => {
      const renderer = createNodeRenderer();
      const pool = createRenderPool({
        workers: 2,
        renderer,
        configFile: join(project.dir, 'kit.config.mjs'),
        startAt: 0,
      });
      try {
        const page = fixturePages[0]!;
        const pooled = await pool.renderPage(page, context('2.x'));
        expect(pooled.markdown).toContain('**new**');
        expect(pooled).toEqual(withoutHtml(await renderer.render(page, createRenderContext(context('2.x')))));
        // A page that fails to render fails the same way on a worker, and the pool keeps working.
        const broken = pageFromText('broken', '# Broken\n\n<Boom />\n', '2.x');
        await expect(pool.renderPage(broken, context('2.x'))).rejects.toThrow('Boom cannot render');
        await expect(renderer.render(broken, createRenderContext(context('2.x')))).rejects.toThrow(
          'Boom cannot render',
        );
        expect(await pool.renderPage(page, context('2.x'))).toEqual(pooled);
      } finally {
        await pool.close();
      }
    });

    it('reports a page still rendering at the deadline as too complex, and renders the next page', async () => {
      const renderer = createNodeRenderer();
      const pool = createRenderPool({
        workers: 1,
        renderer,
        configFile: join(project.dir, 'kit.config.mjs'),
        startAt: 0,
        deadlineMs: 1500,
      });
      try {
        // Through the on-disk cache kit validate uses: an answer cut short is not kept for the next run.
        const cacheDir = join(project.dir, 'render-cache');
        const cached = cachedRenderer(pool, cacheDir, { renderer });
        const stuck = await cached.renderPage(pageFromText('stuck', '# Stuck\n\n<Stuck />\n', '2.x'), context('2.x'));
        expect(
          existsSync(cacheDir)
            ? readdirSync(cacheDir, { recursive: true }).filter((name) => String(name).endsWith('.json'))
            : [],
        ).toEqual([]);
        expect(stuck.problems).toEqual([
          expect.objectContaining({
            rule: 'markdown.complexity',
            file: '2.x/stuck.md',
            message:
              'The page is too complex to render: it took longer than 1.5 seconds to render. It is shown as plain text.',
          }),
        ]);
        const page = fixturePages[1]!;
        expect(await pool.renderPage(page, context('2.x'))).toEqual(
          withoutHtml(await renderer.render(page, createRenderContext(context('2.x')))),
        );
      } finally {
        await pool.close();
      }
    });

    it('renders on the calling thread once a component is registered after the workers started', async () => {
      const renderer = createNodeRenderer();
      const pool = createRenderPool({
        workers: 1,
        renderer,
        configFile: join(project.dir, 'kit.config.mjs'),
        startAt: 0,
      });
      try {
        const late = pageFromText('late', '# Late\n\n<Late />\n', '2.x');
        const before = await pool.renderPage(late, context('2.x'));
        expect(before.problems.map((problem) => problem.rule)).toEqual(['components.unknown']);
        registerComponent('Late', { html: () => '<i>late</i>', markdown: () => '*late*' });
        const after = await pool.renderPage(late, context('2.x'));
        expect(after.problems).toEqual([]);
        expect(after.markdown).toContain('*late*');
      } finally {
        await pool.close();
      }
    });

    it('renders on the calling thread when the workers cannot register it', async () => {
      await writeFiles(project.dir, { 'other.config.mjs': 'export default {};\n' });
      const renderer = createNodeRenderer();
      const pool = createRenderPool({
        workers: 2,
        renderer,
        configFile: join(project.dir, 'other.config.mjs'),
        startAt: 0,
      });
      try {
        const page = fixturePages[0]!;
        const pooled = await Promise.all([
          pool.renderPage(page, context('2.x')),
          pool.renderPage(page, context('2.x')),
        ]);
        const inline = await renderer.render(page, createRenderContext(context('2.x')));
        expect(pooled.map((rendered) => rendered.problems)).toEqual([inline.problems, inline.problems]);
        expect(pooled[0]?.markdown).toContain('**new**');
      } finally {
        await pool.close();
      }
    });
  });
});
