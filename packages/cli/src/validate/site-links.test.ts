import { loadKit } from '@kit/node';
import { describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProjects } from '../__fixtures__/kit-binary.js';

interface Issue {
  rule: string;
  set?: string;
  page?: string;
  message: string;
  fix?: string;
}

const project = tempProjects('kit-site-links-');

/** Two sets of one site: Kit-like docs at /docs, and docs written for /docs mounted at /laravel. */
function siteFiles(laravelRoute: Record<string, unknown>): Record<string, string> {
  return {
    'kit.config.json': JSON.stringify({
      sets: {
        docs: { source: { path: 'docs' } },
        laravel: { route: laravelRoute, source: { path: 'laravel' } },
      },
    }),
    'docs/kit.json': '{ "name": "Docs", "description": "Docs." }',
    'docs/index.md': '# Home\n\n[Laravel routing](/laravel/routing) and [a page Laravel lacks](/laravel/nowhere).\n',
    'laravel/kit.json': JSON.stringify({
      name: 'Laravel',
      description: 'Laravel.',
      versions: ['13.x'],
      landing: 'installation',
    }),
    'laravel/13.x/installation.md': '# Installation\n\nSee [routing](/docs/{{version}}/routing#groups).\n',
    'laravel/13.x/routing.md': '# Routing\n\n<a name="groups"></a>\n## Groups\n',
  };
}

async function validate(dir: string, ...args: string[]): Promise<{ code: number | null; issues: Issue[] }> {
  const run = await runKitHere(['validate', '--json', '--jobs', '1', '--no-cache', ...args], { cwd: dir });
  return { code: run.code, issues: (JSON.parse(run.stdout) as { issues: Issue[] }).issues };
}

const linkIssues = (issues: Issue[]) => issues.filter((issue) => issue.rule.startsWith('links.'));

describe('kit validate and links between the sets of one config', () => {
  it('checks a link into another set against its pages, also when --set picks one set', async () => {
    const dir = await project(siteFiles({ prefix: 'laravel', link_prefix: 'docs' }));
    const { code, issues } = await validate(dir, '--set', 'docs');
    expect(linkIssues(issues)).toEqual([
      expect.objectContaining({
        rule: 'links.broken',
        set: 'docs',
        page: 'index',
        message:
          'The link "/laravel/nowhere" leads to /laravel/nowhere, in the doc set mounted at /laravel, which has no page there, so readers get a 404.',
      }),
    ]);
    expect(code).toBe(1);
  });

  it('reports links written for another mount with the route.link_prefix fix, and passes them once it is set', async () => {
    const unset = await validate(await project(siteFiles({ prefix: 'laravel' })), '--set', 'laravel');
    expect(linkIssues(unset.issues)).toEqual([
      expect.objectContaining({
        rule: 'links.broken',
        message:
          'The link "/docs/{{version}}/routing#groups" leads to /docs/13.x/routing, in the doc set mounted at /docs, which has no page there, so readers get a 404.',
        fix: 'This set has the page "routing". If the pages were written for a site that mounts this set at /docs, set sets.laravel.route.link_prefix: \'docs\' in kit.config.ts; otherwise link to /laravel/{{version}}/routing.',
      }),
    ]);

    const fixed = await validate(
      await project(siteFiles({ prefix: 'laravel', link_prefix: 'docs' })),
      '--set',
      'laravel',
    );
    expect(linkIssues(fixed.issues)).toEqual([]);
  });

  it('reads a raw <a href> tag as served, as written: link_prefix does not move it, so it is checked where it leads', async () => {
    const files = siteFiles({ prefix: 'laravel', link_prefix: 'docs' });
    const config = JSON.parse(files['kit.config.json']!) as { sets: Record<string, Record<string, unknown>> };
    config.sets.laravel!.html_input = 'allow';
    files['kit.config.json'] = JSON.stringify(config);
    files['laravel/13.x/installation.md'] =
      '# Installation\n\nSee [routing](/docs/{{version}}/routing#groups) and <a href="/docs/13.x/routing">routing</a>.\n';
    const { issues } = await validate(await project(files), '--set', 'laravel');
    expect(linkIssues(issues)).toEqual([
      expect.objectContaining({
        rule: 'links.broken',
        message:
          'The link "/docs/13.x/routing" leads to /docs/13.x/routing, in the doc set mounted at /docs, which has no page there, so readers get a 404.',
      }),
    ]);
  });

  it.each([
    { route: { prefix: 'docs/laravel', link_prefix: 'docs' }, served: '/docs/laravel' },
    { route: { prefix: 'laravel', link_prefix: '' }, served: '/laravel' },
  ])(
    'serves a link already written with the set prefix as written in the HTML, the agent Markdown and kit validate ($route)',
    async ({ route, served }) => {
      const written = route.link_prefix === '' ? '' : `/${route.link_prefix}`;
      const files = siteFiles(route);
      delete files['docs/kit.json'];
      delete files['docs/index.md'];
      files['kit.config.json'] = JSON.stringify({ sets: { laravel: { route, source: { path: 'laravel' } } } });
      files['laravel/13.x/installation.md'] = [
        '# Installation',
        '',
        `[mount](${written}/{{version}}/routing#groups)`,
        `[served](${served}/{{version}}/routing#groups)`,
        `[gone](${served}/{{version}}/gone)`,
        '',
      ].join('\n');
      const dir = await project(files);

      const kit = await loadKit({ cwd: dir, git: false, origin: 'https://example.com' });
      try {
        const view = await kit.set('laravel').getPage({ path: 'installation' }, { user: null });
        const hrefs = [...view!.rendered.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
        // 13.x is the default version: a page is linked under its one URL, without the segment.
        expect(hrefs).toEqual([`${served}/routing#groups`, `${served}/routing#groups`, `${served}/gone`]);
        expect(view!.agentMarkdown).toContain(`[served](https://example.com${served}/routing#groups)`);
        expect(view!.agentMarkdown).toContain(`[mount](https://example.com${served}/routing#groups)`);
      } finally {
        await kit.close();
      }

      const { issues } = await validate(dir);
      expect(linkIssues(issues)).toEqual([
        expect.objectContaining({
          rule: 'links.broken',
          message: `The link "${served}/{{version}}/gone" points at "gone", which is not a page of version 13.x of the docs.`,
        }),
      ]);
    },
  );
});
