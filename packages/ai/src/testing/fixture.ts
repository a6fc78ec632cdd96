import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createDocSet, createEvents, createKit, type Kit, type KitConfigInput, resolveConfig } from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';

/** A staff member `viewKit` allows; readers see public pages only. */
export const staff = { id: 'u-staff', role: 'staff' };

/**
 * Words that appear only on private pages: a public page never holds them, so a request to the
 * provider that contains one carries private content.
 */
export const PRIVATE_WORDS = ['zeppelin', 'hyperdrive', 'Secret plans', 'Unreleased'];

const files: Record<string, string> = {
  'docs/kit.json': JSON.stringify({
    name: 'Acme Docs',
    versions: ['3.x', { id: '4.x', visibility: 'private' }],
    // The landing page is served at the version root (`/docs`), not at `/docs/install`.
    landing: 'install',
    redirects: [{ from: '/docs/old-queues', to: '/docs/queues' }],
  }),
  'docs/3.x/navigation.json': JSON.stringify({
    groups: [{ label: 'Guides', pages: ['install', 'index', 'queues', 'internal/roadmap'] }],
  }),
  'docs/3.x/install.md':
    '---\ntitle: Install\n---\n# Install\n\nRun npm install acme.\n\n## Configure\n\nSet ACME_QUEUE to the queue URL.\n',
  'docs/3.x/index.md': '---\ntitle: Welcome\n---\n# Welcome\n\nAcme is a queue runner.\n',
  'docs/3.x/queues.md':
    '---\ntitle: Queues\n---\n# Queues\n\nQueues run jobs.\n\n## Retrying Jobs\n\nFailed jobs retry three times with exponential backoff.\n',
  'docs/3.x/internal/roadmap.md':
    '---\ntitle: Roadmap\nvisibility: private\n---\n# Roadmap\n\nSecret plans: a zeppelin backoff for failed jobs.\n',
  'docs/4.x/queues.md':
    '---\ntitle: Queues (4.x)\n---\n# Queues (4.x)\n\nUnreleased hyperdrive queues retry forever.\n',
};

let root: string | undefined;

function fixtureRoot(): string {
  if (root) return root;
  root = mkdtempSync(join(tmpdir(), 'kit-ai-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  const made = root;
  process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  return made;
}

/**
 * A real kit over a small set with a landing page (`install`, served at `/docs`), a redirect, a
 * private page and a private version; Ask AI on. `origin` makes the set's page URLs absolute.
 */
export function askFixtureKit(overrides: Partial<KitConfigInput> = {}, options: { origin?: string } = {}): Kit {
  const config = resolveConfig(
    {
      default: 'docs',
      sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, search: { driver: 'server' } } },
      ai: { ask: { enabled: true, provider: 'openai' } },
      gates: { viewKit: (user) => (user as typeof staff | null)?.role === 'staff' },
      ...overrides,
    },
    { root: fixtureRoot(), env: {} },
  );
  const events = createEvents();
  const renderer = createRenderer();
  return createKit({
    config,
    events,
    sets: Object.values(config.sets).map((setConfig) =>
      createDocSet({
        config: setConfig,
        source: createFsSource({ root: setConfig.source.path, setKey: setConfig.key, git: false }),
        renderer,
        search: createServerSearch(),
        events,
        gates: config.gates,
        ...(options.origin ? { origin: options.origin } : {}),
      }),
    ),
  });
}
