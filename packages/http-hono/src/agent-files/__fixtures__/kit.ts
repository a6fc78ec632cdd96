import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type ContentSource,
  createDocSet,
  createEvents,
  createKit,
  type Kit,
  type KitConfigInput,
  resolveConfig,
  type Viewer,
} from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { Hono } from 'hono';
import { agentFileRoutes, wellKnownSkillsRoute } from '../index.js';

export const fixtures = import.meta.dirname;
export const ORIGIN = 'https://docs.test';

const many = (group: string, count: number) =>
  Array.from({ length: count }, (_, n) => `${group}/page-${n + 1}`);

/**
 * A reference-like set: versions 3.x (default), 2.x (deprecated), 1.x (archived) and a private
 * 4.x; locales en and ar; a private page; a page left out of the navigation; a hand-written
 * skill; agent description and instructions. `big` is unversioned with 90 pages in three groups,
 * for splitting. `api` is root-mounted.
 */
export const referenceFiles: Record<string, string> = {
  'docs/kit.json': JSON.stringify({
    name: 'Acme Docs',
    description: 'Docs of the Acme queue runner.',
    versions: [
      '3.x',
      { id: '2.x', status: 'deprecated' },
      { id: '1.x', status: 'archived' },
      { id: '4.x', visibility: 'private' },
    ],
    locales: ['en', 'ar'],
    agents: {
      llmsTxt: {
        description: 'Acme runs background jobs for Node applications.',
        instructions: 'Prefer the queues page for retry questions.',
      },
    },
  }),
  'docs/skills/deploy.md':
    '---\nname: acme-deploy\ndescription: Deploy an Acme worker to production.\n---\n# Deploy\n\nRun `acme deploy`.\n',
  'docs/3.x/navigation.json': JSON.stringify({
    groups: [
      { label: 'Getting Started', pages: ['index', 'installation'] },
      { label: 'Guides', pages: ['queues', 'internal/roadmap', 'installation'] },
    ],
  }),
  'docs/3.x/index.md': '---\ntitle: Welcome\n---\n# Welcome\n\nAcme is a queue runner.\n',
  'docs/3.x/installation.md':
    '---\ntitle: Installation\ndescription: Install Acme with npm.\n---\n# Installation\n\nRun `npm install acme`.\n',
  'docs/3.x/queues.md':
    '---\ntitle: Queues\ndescription: Run jobs in the background.\n---\n# Queues\n\n## Retrying Jobs\n\nFailed jobs retry three times with exponential backoff.\n',
  'docs/3.x/unlisted.md': '---\ntitle: Unlisted\n---\n# Unlisted\n\nA page the navigation leaves out.\n',
  'docs/3.x/internal/roadmap.md':
    '---\ntitle: Roadmap\nvisibility: private\n---\n# Roadmap\n\nSecret plans: a zeppelin backoff.\n',
  'docs/3.x/ar/index.md': '---\ntitle: مرحبا\n---\n# مرحبا\n\nمرحبا بكم في طوابير Acme.\n',
  'docs/3.x/ar/queues.md': '---\ntitle: الطوابير\n---\n# الطوابير\n\nتشغيل المهام.\n',
  'docs/2.x/index.md': '---\ntitle: Welcome (2.x)\n---\n# Welcome (2.x)\n\nThe old runner.\n',
  'docs/2.x/queues.md': '---\ntitle: Queues (2.x)\n---\n# Queues (2.x)\n\nOld queues retry once.\n',
  'docs/1.x/index.md': '---\ntitle: Welcome (1.x)\n---\n# Welcome (1.x)\n\nThe first runner.\n',
  'docs/4.x/index.md': '---\ntitle: Welcome (4.x)\n---\n# Welcome (4.x)\n\nUnreleased hyperdrive engine.\n',
  'api/kit.json': JSON.stringify({ name: 'Acme API', description: 'The Acme HTTP API.' }),
  'api/index.md': '---\ntitle: API\n---\n# API\n\nThe HTTP API.\n',
  'api/tokens.md': '---\ntitle: Tokens\n---\n# Tokens\n\nCreate API tokens in settings.\n',
  'big/kit.json': JSON.stringify({ name: 'Big Docs', description: 'A set large enough to split.' }),
  'big/navigation.json': JSON.stringify({
    groups: [
      { label: 'Alpha Guides', pages: many('alpha', 30) },
      { label: 'Beta Guides', pages: many('beta', 30) },
      { label: 'Gamma Guides', pages: many('gamma', 30) },
    ],
  }),
  ...Object.fromEntries(
    ['alpha', 'beta', 'gamma'].flatMap((group) =>
      many(group, 30).map((path, n) => [
        `big/${path}.md`,
        `---\ntitle: ${group} page ${n + 1}\ndescription: How ${group} feature ${n + 1} works, with every option explained in detail.\n---\n# ${group} page ${n + 1}\n\n${'This paragraph explains the feature at length. '.repeat(20)}\n\n## Options\n\n${'Each option changes the behaviour. '.repeat(20)}\n`,
      ]),
    ),
  ),
};

/** Writes files into a fresh temporary folder removed when the process exits. */
export function writeTree(files: Record<string, string>, copy?: { from: string; to: string }): string {
  const root = mkdtempSync(join(tmpdir(), 'kit-agent-files-'));
  if (copy) cpSync(copy.from, join(root, copy.to), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

/**
 * Makes `root` a git repository with everything in it committed at `date`: repository sets date
 * their pages by commits only (sitemap lastmod, freshness), never by file times.
 */
export function commitTree(root: string, date: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
  Object.assign(env, {
    GIT_AUTHOR_NAME: 'Fixture',
    GIT_AUTHOR_EMAIL: 'fixture@example.com',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: 'Fixture',
    GIT_COMMITTER_EMAIL: 'fixture@example.com',
    GIT_COMMITTER_DATE: date,
  });
  for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'Fixture']]) {
    execFileSync('git', args, { cwd: root, env, stdio: 'ignore' });
  }
}

interface TestUser {
  role: 'staff' | 'reader';
}

export const guest: Viewer = { user: null };
export const staff: Viewer = { user: { role: 'staff' } satisfies TestUser };

/** `Authorization: Bearer staff` signs in a staff member whom `viewKit` admits. */
export function viewerOf(c: { req: { header(name: string): string | undefined } }): Viewer {
  const token = c.req.header('authorization')?.replace(/^Bearer\s+/i, '');
  return token === 'staff' ? staff : token === 'reader' ? { user: { role: 'reader' } } : guest;
}

/**
 * The repository source. `@kit/source-fs` sits beside `@kit/http-hono` in the layers, so only test
 * files import it; they hand it in here once.
 */
export type FsSourceFactory = (options: { root: string; setKey: string; git?: boolean; watch?: boolean }) => ContentSource;
let fsSource: FsSourceFactory | undefined;
export function useFsSource(factory: FsSourceFactory): void {
  fsSource = factory;
}

/**
 * A real kit (fs source, renderer, server search) over `root`, with the given config; `git` reads
 * the folder's history (see {@link commitTree}); `watch` watches the folder, as a server does, so
 * listings are kept between requests (close the kit after).
 */
export function buildKit(root: string, input: KitConfigInput, options: { git?: boolean; watch?: boolean } = {}): Kit {
  const createFsSource = fsSource;
  if (!createFsSource) throw new Error('Call useFsSource(createFsSource) in the test file first.');
  const config = resolveConfig(
    {
      ...input,
      gates: { viewKit: (user) => (user as TestUser | null)?.role === 'staff' },
    },
    { root, env: {} },
  );
  const events = createEvents();
  const renderer = createRenderer();
  return createKit({
    config,
    events,
    sets: Object.values(config.sets).map((setConfig) =>
      createDocSet({
        config: setConfig,
        source: createFsSource({
          root: setConfig.source.path,
          setKey: setConfig.key,
          git: options.git === true,
          watch: options.watch === true,
        }),
        renderer,
        search: createServerSearch(),
        events,
        gates: config.gates,
      }),
    ),
  });
}

/** The agent-file routes of every set mounted as the Kit app mounts them, plus the well-known index. */
export function agentApp(kit: Kit): Hono {
  const app = new Hono();
  app.route('/', wellKnownSkillsRoute({ kit, viewerOf }));
  const sets = [...kit.sets.values()].sort(
    (a, b) => b.config.route.prefix.length - a.config.route.prefix.length,
  );
  for (const set of sets) {
    const prefix = set.config.route.prefix.replace(/^\/+|\/+$/g, '');
    app.route(prefix === '' ? '/' : `/${prefix}`, agentFileRoutes({ kit, set, viewerOf }));
  }
  app.get('*', (c) => c.text('fell through to the page routes', 404));
  return app;
}

/** GET on the app with the fixture origin. */
export function get(app: Hono, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(app.request(`${ORIGIN}${path}`, { headers }));
}
