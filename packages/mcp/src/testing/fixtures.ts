import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type AccessMode,
  type ContentSource,
  createDocSet,
  createEvents,
  createKit,
  type Kit,
  type KitEventMap,
  type PageRenderer,
  resolveConfig,
  type SearchDriver,
  type Viewer,
} from '@kit/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CreateMcpServerOptions, createMcpServer } from '../server.js';

interface TestUser {
  name: string;
  role: 'reader' | 'staff' | 'admin';
}

export const guest: Viewer = { user: null, ip: '203.0.113.9' };
export const reader: Viewer = { user: { name: 'rita', role: 'reader' } satisfies TestUser };
export const staff: Viewer = { user: { name: 'sam', role: 'staff' } satisfies TestUser };
export const admin: Viewer = { user: { name: 'ada', role: 'admin' } satisfies TestUser };

const role = (user: unknown) => (user as TestUser | null)?.role;

/**
 * Two repository sets on disk. `docs`: versions 3.x (default), 2.x and a private 4.x; locales en
 * and ar; a private page `internal/roadmap`. `api`: unversioned. `viewKit` admits staff and admins,
 * `manageKit` admins.
 */
const fixtureFiles: Record<string, string> = {
  'docs/kit.json': JSON.stringify({
    name: 'Acme Docs',
    versions: ['3.x', '2.x', { id: '4.x', visibility: 'private' }],
    locales: ['en', { code: 'ar' }],
  }),
  'docs/3.x/navigation.json': JSON.stringify({
    groups: [
      { label: 'Getting Started', pages: ['index', 'installation'] },
      { label: 'Guides', pages: ['queues', 'internal/roadmap'] },
    ],
  }),
  'docs/3.x/index.md': '---\ntitle: Welcome\n---\n# Welcome\n\nAcme is a queue runner.\n',
  'docs/3.x/installation.md':
    '---\ntitle: Installation\ndescription: Install Acme with npm.\n---\n# Installation\n\nRun `npm install acme`.\n\n## Requirements\n\nNode 20 or later.\n',
  'docs/3.x/queues.md': [
    '---',
    'title: Queues',
    'description: Run jobs in the background.',
    '---',
    '# Queues',
    '',
    'Queues run jobs.',
    '',
    '## Retrying Jobs',
    '',
    'Failed jobs retry three times with exponential backoff.',
    '',
    '## Priorities',
    '',
    'High jobs run first.',
    '',
  ].join('\n'),
  'docs/3.x/internal/roadmap.md':
    '---\ntitle: Roadmap\nvisibility: private\n---\n# Roadmap\n\nSecret plans: a faster backoff.\n',
  'docs/3.x/ar/intro.md': '---\ntitle: مقدمة\n---\n# مقدمة\n\nمرحبا بكم في طوابير Acme.\n',
  'docs/2.x/queues.md': '---\ntitle: Queues (2.x)\n---\n# Queues (2.x)\n\nOld queues retry once.\n',
  'docs/4.x/queues.md': '---\ntitle: Queues (4.x)\n---\n# Queues (4.x)\n\nUnreleased queue engine.\n',
  'api/kit.json': JSON.stringify({ name: 'Acme API' }),
  'api/tokens.md': '---\ntitle: Tokens\n---\n# Tokens\n\nCreate API tokens in settings.\n',
};

let fixtureRoot: string | undefined;

/** Writes a fresh copy of the fixture sets, removed when the test process exits (for tests that change them). */
export function writeFixtureFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'kit-mcp-'));
  for (const [name, text] of Object.entries(fixtureFiles)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** The fixture sets, written once per test process for the tests that only read them. */
function fixtureFolder(): string {
  fixtureRoot ??= writeFixtureFolder();
  return fixtureRoot;
}

/**
 * The packages a real kit is composed from. They sit above `@kit/mcp` in the layers, so each test
 * file hands them in; this module may import only `@kit/core`.
 */
export interface FixtureRuntime {
  createRenderer(): PageRenderer;
  createServerSearch(): SearchDriver;
  createFsSource(options: { root: string; setKey: string }): ContentSource;
}

export interface FixtureKitOptions {
  docsAccess?: AccessMode;
  apiFeedback?: boolean;
  /** Folder holding the sets; default the shared read-only copy. Pass `writeFixtureFolder()` to change them. */
  root?: string;
}

/** Returns a function that builds a fresh real `Kit` over the fixture sets with the given runtime. */
export function fixtureKitFactory(runtime: FixtureRuntime): (options?: FixtureKitOptions) => Kit {
  return (options = {}) => {
    const config = resolveConfig(
      {
        default: 'docs',
        sets: {
          docs: { source: { path: 'docs' }, access: { mode: options.docsAccess ?? 'public' } },
          api: { source: { path: 'api' }, feedback: { enabled: options.apiFeedback ?? false } },
        },
        gates: {
          viewKit: (user) => role(user) === 'staff' || role(user) === 'admin',
          manageKit: (user) => role(user) === 'admin',
        },
      },
      { root: options.root ?? fixtureFolder(), env: {} },
    );
    const events = createEvents();
    const renderer = runtime.createRenderer();
    return createKit({
      config,
      events,
      sets: Object.values(config.sets).map((setConfig) =>
        createDocSet({
          config: setConfig,
          source: runtime.createFsSource({ root: setConfig.source.path, setKey: setConfig.key }),
          renderer,
          search: runtime.createServerSearch(),
          events,
          gates: config.gates,
        }),
      ),
    });
  };
}

/** Connects the SDK's own `Client` to a server over linked in-memory transports. */
export async function connectClient(options: CreateMcpServerOptions): Promise<Client> {
  const server = await createMcpServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'kit-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

/** Collects the payloads of one event. */
export function recordEvents<E extends keyof KitEventMap>(kit: Kit, event: E): KitEventMap[E][] {
  const seen: KitEventMap[E][] = [];
  kit.events.on(event, (payload) => {
    seen.push(payload);
  });
  return seen;
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content[0]?.text ?? '';
}

/** The rejection of a request, with the JSON-RPC code, message and data the client received. */
export async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await request;
  } catch (error) {
    return error as { code: number; message: string; data?: unknown };
  }
  throw new Error('the request succeeded');
}
