import type { AuthorToolResult } from '@kit/core';
import {
  type AuthorCall,
  deletePageTool,
  movePageTool,
  updateManifestTool,
  updateNavigationTool,
  writePageTool,
} from '@kit/core/internal';
import { type LoadedKit, loadKit } from '@kit/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempProject, writeFiles } from '../__fixtures__/kit-binary.js';
import { validatorFor } from './validate.js';

const projects: Array<{ cleanup: () => Promise<void> }> = [];
afterEach(async () => {
  for (const project of projects.splice(0)) await project.cleanup();
});

const files = {
  'kit.config.mjs': "export default { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } };\n",
  'docs/kit.json': JSON.stringify({ name: 'Docs', versions: ['2.x', '1.x'] }),
  'docs/2.x/navigation.json': JSON.stringify({
    groups: [{ label: 'Start', pages: ['index', 'queues', 'routing', 'gone'] }],
  }),
  'docs/2.x/index.md':
    '# Home\n\nSee [queues](./queues.md#retrying) and [routing](/docs/{{version}}/routing#groups).\n',
  'docs/2.x/queues.md': '# Queues\n\n## Retrying\n\nFailed jobs retry. Back to [home](./index.md).\n',
  'docs/2.x/routing.md': '# Routing\n\n## Groups\n\nSee [queues](queues.md#missing) and [nowhere](./nowhere.md).\n',
  'docs/2.x/orphan.md': '# Orphan\n\nNot in any group. Links to [routing](./routing.md#groups).\n',
  'docs/1.x/index.md': '# Home\n\nOld [queues](./queues.md).\n',
};

/** A kit over a fresh copy of the project, whose author calls validate with or without the page focus. */
async function kitWith(focused: boolean): Promise<{ kit: LoadedKit; call: AuthorCall; asked: string[][] }> {
  const project = await tempProject('kit-focused-');
  projects.push(project);
  await writeFiles(project.dir, files);
  const kit = await loadKit({ cwd: project.dir, git: false, watch: true });
  const validate = validatorFor(kit);
  const asked: string[][] = [];
  const call: AuthorCall = {
    viewer: { user: null, local: true },
    channel: 'local',
    validate: async (input) => {
      if (input.pages) asked.push([...input.pages]);
      const { pages, ...whole } = input;
      return (await validate(focused ? input : whole)) as never;
    },
  };
  return { kit, call, asked };
}

type Write = (kit: LoadedKit, call: AuthorCall) => Promise<AuthorToolResult>;

const writes: Array<[string, Write]> = [
  [
    'rewrites a page, dropping the anchor others link to and adding a broken link',
    (kit, call) =>
      writePageTool(
        kit.set(),
        { version: '2.x', path: 'queues', body: '# Queues\n\nNo more sections. See [x](./missing-page.md#a).\n' },
        call,
      ),
  ],
  [
    'creates a page in no group',
    (kit, call) =>
      writePageTool(
        kit.set(),
        { version: '2.x', path: 'gone', body: '# Gone\n\nBack [home](./index.md#nothing) and [up](../index.md).\n' },
        call,
      ),
  ],
  [
    'rewrites a page of the other version',
    (kit, call) =>
      writePageTool(kit.set(), { version: '1.x', path: 'index', body: '# Home\n\n[r](./routing.md)\n' }, call),
  ],
  [
    'replaces the navigation with entries that have no page',
    (kit, call) =>
      updateNavigationTool(
        kit.set(),
        { version: '2.x', tree: { groups: [{ label: 'Start', pages: ['index', 'queue', 'routing'] }] } },
        call,
      ),
  ],
  [
    'patches the manifest with a redirect loop and one a page shadows',
    (kit, call) =>
      updateManifestTool(
        kit.set(),
        {
          patch: {
            redirects: [
              { from: '/docs/a', to: '/docs/b' },
              { from: '/docs/b', to: '/docs/a' },
              { from: '/docs/queues', to: '/docs/routing' },
            ],
          },
        },
        call,
      ),
  ],
  [
    'moves a page others link to',
    (kit, call) => movePageTool(kit.set(), { version: '2.x', from: 'routing', to: 'guide/routing' }, call),
  ],
  ['deletes a page others link to', (kit, call) => deletePageTool(kit.set(), { version: '2.x', path: 'queues' }, call)],
];

describe('validation after an author tool change', () => {
  it('reports, for every change of a sequence, what a check of the whole version reports', async () => {
    const focused = await kitWith(true);
    const full = await kitWith(false);
    const found: number[] = [];
    try {
      for (const [what, write] of writes) {
        const quick = await write(focused.kit, focused.call);
        const whole = await write(full.kit, full.call);
        expect(quick.outcome, `${what}: ${quick.message}`).toBe('published');
        expect(quick.validation, what).toEqual(whole.validation);
        found.push(whole.validation?.issues.length ?? 0);
      }
      // Not vacuous: the changes were found to have problems, and the focus was used.
      expect(focused.asked).toEqual([['queues'], ['gone'], ['index'], [], []]);
      expect(
        found.every((count) => count > 0),
        `issues found per change: ${found.join(', ')}`,
      ).toBe(true);
    } finally {
      await focused.kit.close();
      await full.kit.close();
    }
  });

  it('renders only the changed page (and the pages its links point into) after a write_page', async () => {
    const { kit, call } = await kitWith(true);
    try {
      await kit.set().listPages({ version: '2.x' }, { user: null });
      const render = vi.spyOn(kit.renderer, 'render');
      const result = await writePageTool(
        kit.set(),
        { version: '2.x', path: 'orphan', body: '# Orphan\n\nLinks to [routing](./routing.md#nope).\n' },
        call,
      );
      const rendered = render.mock.calls.map(([page]) => page.path).sort();
      expect([...new Set(rendered)]).toEqual(['orphan', 'routing']);
      expect(result.validation?.issues.map((issue) => issue.rule).sort()).toEqual([
        'links.anchor',
        'navigation.orphan',
      ]);
    } finally {
      await kit.close();
    }
  });
});
