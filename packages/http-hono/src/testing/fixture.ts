import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createDocSet,
  createEvents,
  createKit,
  type Kit,
  type KitConfigInput,
  type KitEventMap,
  type PageRenderer,
  resolveConfig,
} from '@kit/core';
import { createRenderer } from '@kit/render';
import { createClientSearch, createServerSearch } from '@kit/search';
import { createFsSource, createSourceHistory } from '@kit/source-fs';

export interface TestUser {
  id: string;
  role: 'reader' | 'staff';
}

/** `Authorization: Bearer staff` signs in a staff member (viewKit), `Bearer reader` a reader. */
export const users: Record<string, TestUser> = {
  staff: { id: 'u-staff', role: 'staff' },
  reader: { id: 'u-reader', role: 'reader' },
};

/**
 * Two sets on disk. `docs` at /docs: versions 3.x (default), 2.x (deprecated) and a private 4.x;
 * locales en and ar; a private page; a redirect; a stylesheet. `api` mounted at the site root,
 * unversioned.
 */
const files: Record<string, string> = {
  'docs/kit.json': JSON.stringify({
    name: 'Acme Docs',
    description: 'Docs of the Acme queue runner.',
    versions: ['3.x', { id: '2.x', status: 'deprecated' }, { id: '4.x', visibility: 'private' }],
    locales: ['en', 'ar'],
    redirects: [{ from: '/docs/old-queues', to: 'queues' }],
    assets: { css: ['brand.css'] },
    unknownTopLevel: { kept: true },
  }),
  'docs/brand.css': ':root { --brand: rebeccapurple; }\n',
  'docs/3.x/navigation.json': JSON.stringify({
    groups: [
      { label: 'Getting Started', pages: ['index', 'installation'] },
      { label: 'Guides', pages: ['queues', 'internal/roadmap'] },
    ],
  }),
  'docs/3.x/index.md': '---\ntitle: Welcome\n---\n# Welcome\n\nAcme is a queue runner. See [queues](queues.md).\n',
  'docs/3.x/installation.md':
    '---\ntitle: Installation\ndescription: Install Acme with npm.\n---\n# Installation\n\nRun `npm install acme`.\n\n## Requirements\n\nNode 20 or later.\n',
  'docs/3.x/queues.md':
    '---\ntitle: Queues\ndescription: Run jobs in the background.\n---\n# Queues\n\nQueues run jobs.\n\n## Retrying Jobs\n\nFailed jobs retry three times with exponential backoff.\n',
  'docs/3.x/internal/roadmap.md':
    '---\ntitle: Roadmap\nvisibility: private\n---\n# Roadmap\n\nSecret plans: a zeppelin backoff.\n',
  'docs/3.x/ar/index.md': '---\ntitle: مرحبا\n---\n# مرحبا\n\nمرحبا بكم في طوابير Acme.\n',
  'docs/2.x/index.md': '---\ntitle: Welcome (2.x)\n---\n# Welcome (2.x)\n\nThe old runner.\n',
  'docs/2.x/queues.md': '---\ntitle: Queues (2.x)\n---\n# Queues (2.x)\n\nOld queues retry once.\n',
  'docs/4.x/index.md': '---\ntitle: Welcome (4.x)\n---\n# Welcome (4.x)\n\nUnreleased hyperdrive engine.\n',
  'docs/4.x/queues.md': '---\ntitle: Queues (4.x)\n---\n# Queues (4.x)\n\nUnreleased hyperdrive queues.\n',
  'api/kit.json': JSON.stringify({ name: 'Acme API' }),
  'api/index.md': '---\ntitle: API\n---\n# API\n\nThe HTTP API.\n',
  'api/tokens.md': '---\ntitle: Tokens\n---\n# Tokens\n\nCreate API tokens in settings.\n',
};

let root: string | undefined;

function fixtureRoot(): string {
  if (root) return root;
  root = mkdtempSync(join(tmpdir(), 'kit-http-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  const made = root;
  process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  return root;
}

/**
 * A real kit over the fixture sets; `overrides` are merged into the written config. `renderer`
 * replaces the renderer; `watch` makes the sources watch their folders (close the kit after).
 */
export function fixtureKit(
  overrides: Partial<KitConfigInput> = {},
  options: {
    renderer?: PageRenderer;
    watch?: boolean;
    /** Project root the set paths resolve against; default: the fixture project. */
    root?: string;
    /** Read git history for provenance (off by default: the fixture is not a repository of its own). */
    git?: boolean;
    /** Tell reads when a page's `sources:` changed after it, from the git history of `root`. */
    staleness?: boolean;
  } = {},
): Kit {
  const config = resolveConfig(
    {
      default: 'docs',
      sets: {
        docs: { route: { prefix: 'docs' }, source: { path: 'docs' } },
        api: { route: { prefix: '' }, source: { path: 'api' }, search: { driver: 'server' } },
      },
      gates: {
        viewKit: (user) => (user as TestUser | null)?.role === 'staff',
        manageKit: (user) => (user as TestUser | null)?.role === 'staff',
      },
      resolveUser: (request) => {
        const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
        return token ? (users[token] ?? null) : null;
      },
      ...overrides,
    },
    { root: options.root ?? fixtureRoot(), env: {} },
  );
  const events = createEvents();
  const renderer = options.renderer ?? createRenderer();
  return createKit({
    config,
    events,
    sets: Object.values(config.sets).map((setConfig) =>
      createDocSet({
        config: setConfig,
        source: createFsSource({
          root: setConfig.source.path,
          setKey: setConfig.key,
          git: options.git ?? false,
          ...(options.watch ? { watch: true } : {}),
        }),
        renderer,
        search:
          setConfig.search.driver === 'client'
            ? createClientSearch({ budgetKb: setConfig.search.budget_kb })
            : createServerSearch(),
        events,
        gates: config.gates,
        ...(options.staleness
          ? { sourceHistory: createSourceHistory({ root: config.root, setFolder: setConfig.source.path }) }
          : {}),
      }),
    ),
  });
}

/** Collects the payloads of one event. */
export function recordEvents<E extends keyof KitEventMap>(kit: Kit, event: E): KitEventMap[E][] {
  const seen: KitEventMap[E][] = [];
  kit.events.on(event, (payload) => {
    seen.push(payload);
  });
  return seen;
}
