import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { startScriptedProvider } from '@kit/ai/testing';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { type DbContentSource, listRevisions, writePage } from '@kit/source-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProject, writeFiles } from '../__fixtures__/kit-binary.js';
import type { SyncResult } from './sync.js';

const databaseUrl = process.env.KIT_TEST_DATABASE_URL;
const TOKEN = 'sync-token-for-the-test-0123456789';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  });
}

// A production set on PostgreSQL behind its web MCP endpoint on a real port, review required; the
// sync run reaches it over HTTP with a bearer token the app maps to a user manageKit allows.
describe.skipIf(!databaseUrl)('kit sync --remote against a database set on PostgreSQL', () => {
  // A set key of its own, so runs sharing one PostgreSQL never see each other's rows.
  const key = `s8sync_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let project: Awaited<ReturnType<typeof tempProject>>;
  let kit: LoadedKit;
  let server: ReturnType<typeof serve>;
  let endpoint: string;

  beforeAll(async () => {
    project = await tempProject('kit-sync-remote-');
    await writeFiles(project.dir, {
      'kit.config.mjs': `export default {
  connections: { default: { url: ${JSON.stringify(databaseUrl)} } },
  review: 'required',
  default: '${key}',
  ai: { sync: { provider: 'openai', model: 'scripted-model' } },
  sets: { ${key}: { route: { prefix: 'docs' }, source: { driver: 'database' }, mcp: { web: { author_tools: true } } } },
  gates: { manageKit: (user) => user?.role === 'editor' },
  resolveUser: (request) =>
    request.headers.get('authorization') === 'Bearer ${TOKEN}' ? { id: 'sync-bot', role: 'editor' } : null,
};
`,
      'src/router.ts': 'export const MATCH = "prefix";\n',
    });
    git(project.dir, 'init', '-q', '-b', 'main');
    git(project.dir, 'add', '-A');
    git(project.dir, 'commit', '-q', '-m', 'code');
    git(project.dir, 'checkout', '-q', '-b', 'feature');
    await writeFiles(project.dir, { 'src/router.ts': 'export const MATCH = "exact";\n' });
    git(project.dir, 'commit', '-q', '-am', 'exact matching');

    kit = await loadKit({ cwd: project.dir, env: {} });
    const { db } = kit.set(key).source as DbContentSource;
    await writePage(db, key, {
      version: 'current',
      locale: 'en',
      path: 'routing',
      frontmatter: { title: 'Routing', sources: ['src/router.ts'] },
      body: '# Routing\n\nRoutes match by prefix.\n',
    });
    const app = createKitApp({ kit, cacheDir: null });
    server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/mcp`;
  }, 180_000);

  afterAll(async () => {
    (server as { closeAllConnections?: () => void } | undefined)?.closeAllConnections?.();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    await kit?.close();
    await project?.cleanup();
  });

  it('drafts the change through the endpoint under review: required, as the token user', async () => {
    const provider = await startScriptedProvider('openai', [
      (request) => {
        const hash = /content_hash: (sha256:[0-9a-f]+)/.exec(request.raw)![1]!;
        return {
          toolCalls: [
            {
              name: 'write_page',
              input: {
                page: 'routing',
                body: '# Routing\n\nRoutes match the exact path.\n',
                based_on: hash,
                summary: 'Exact matching',
              },
            },
          ],
        };
      },
      { text: ['routing drafted'] },
    ]);
    try {
      const run = await runKitHere(['sync', '--base', 'main', '--remote', endpoint, '--json'], {
        cwd: project.dir,
        env: { OPENAI_API_KEY: 'sk-test-sync-123456', OPENAI_BASE_URL: provider.url, KIT_SYNC_TOKEN: TOKEN },
      });
      expect(run.stderr).toBe('');
      const result = JSON.parse(run.stdout) as SyncResult;
      expect(result.remote).toBe(endpoint);
      expect(result.changed.map((entry) => [entry.path, entry.outcome])).toEqual([['routing', 'drafted']]);
      expect(result.changed[0]!.revision?.id).toEqual(expect.any(String));
      expect(run.code).toBe(0);
      // The page the model saw came from the endpoint.
      expect(provider.requests[0]!.raw).toContain('Routes match by prefix.');

      const { db } = kit.set(key).source as DbContentSource;
      const drafts = await listRevisions(db, key, { status: 'draft' });
      expect(drafts.map((draft) => [draft.path, draft.summary, draft.author])).toEqual([
        ['routing', 'Exact matching', 'sync-bot'],
      ]);
      // Not live until a person publishes it.
      const live = await kit.set(key).source.getPage('current', 'en', 'routing');
      expect(live?.body).toContain('Routes match by prefix.');
    } finally {
      await provider.close();
    }
  });

  it('refuses to run without a token the endpoint accepts', async () => {
    const provider = await startScriptedProvider('openai', []);
    try {
      const run = await runKitHere(['sync', '--base', 'main', '--remote', endpoint], {
        cwd: project.dir,
        env: { OPENAI_API_KEY: 'sk-test-sync-123456', OPENAI_BASE_URL: provider.url, KIT_SYNC_TOKEN: 'wrong-token' },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('does not offer write_page to this token');
      expect(provider.requests).toHaveLength(0);
    } finally {
      await provider.close();
    }
  });
});
