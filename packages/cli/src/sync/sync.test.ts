import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ReceivedRequest,
  type ScriptedProvider,
  type ScriptStep,
  startScriptedProvider,
  toolResults,
} from '@kit/ai/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProjects } from '../__fixtures__/kit-binary.js';
import type { SyncResult } from './sync.js';

const project = tempProjects('kit-sync-');
const providers: ScriptedProvider[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.close();
});

/** Words that live only in files the deny rules refuse: no request to the provider may hold one. */
const SECRETS = ['hunter2-db-password', 'sk_live_denied_key', 'internal-codename-osprey'];

const page = (title: string, sources: string, body: string) =>
  `---\ntitle: ${title}\nsources:\n  - ${sources}\n---\n# ${title}\n\n${body}\n`;

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

/**
 * A repository set in a git repository: on `main` two pages document src/router.ts and
 * src/queue.ts; the branch `feature` changes both files, plus files the deny rules refuse.
 */
async function fixture(sync: Record<string, unknown> = {}): Promise<string> {
  const dir = await project({
    'kit.config.json': JSON.stringify({
      ai: { sync: { provider: 'openai', model: 'scripted-model', deny: ['internal/**'], ...sync } },
      sets: { docs: { source: { path: 'docs' } } },
    }),
    'docs/kit.json': '{ "name": "Acme", "description": "Acme docs." }',
    'docs/navigation.json': JSON.stringify({ groups: [{ label: 'Guides', pages: ['index', 'routing', 'queues'] }] }),
    'docs/index.md': '---\ntitle: Home\n---\n# Home\n\nWelcome.\n',
    'docs/routing.md': page('Routing', 'src/router.ts', 'Routes match by prefix.'),
    'docs/queues.md': page('Queues', 'src/queue.ts', 'Failed jobs retry three times.'),
    'src/router.ts': 'export const MATCH = "prefix";\n',
    'src/queue.ts': 'export const RETRIES = 3;\n',
    'config/database.ts': 'export const password = "placeholder";\n',
    'internal/plan.ts': 'export const codename = "tbd";\n',
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'docs');
  git(dir, 'checkout', '-q', '-b', 'feature');
  await writeFile(join(dir, 'src/router.ts'), 'export const MATCH = "exact";\n');
  await writeFile(join(dir, 'src/queue.ts'), 'export const RETRIES = 5;\n');
  await writeFile(join(dir, 'config/database.ts'), `export const password = "${SECRETS[0]}";\n`);
  await writeFile(join(dir, '.env.example'), `STRIPE_KEY=${SECRETS[1]}\n`);
  await writeFile(join(dir, 'internal/plan.ts'), `export const codename = "${SECRETS[2]}";\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'code');
  return dir;
}

async function scripted(steps: ScriptStep[]) {
  const provider = await startScriptedProvider('openai', steps);
  providers.push(provider);
  return provider;
}

/** The content hash of each page, from the task the run sent first. */
function hashes(request: ReceivedRequest): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of request.raw.matchAll(/### Page ([\w:/-]+)\\n[\s\S]*?content_hash: (sha256:[0-9a-f]+)/g))
    found[match[1]!] = match[2]!;
  return found;
}

const writeBoth = (request: ReceivedRequest) => {
  const hash = hashes(request);
  return {
    toolCalls: [
      {
        name: 'write_page',
        input: {
          page: 'routing',
          body: '# Routing\n\nRoutes match the exact path.\n',
          based_on: hash.routing,
          summary: 'Exact matching',
        },
      },
      {
        name: 'write_page',
        input: { page: 'queues', body: '# Queues\n\nFailed jobs retry five times.\n', based_on: hash.queues },
      },
    ],
  };
};

function sync(dir: string, provider: ScriptedProvider, ...args: string[]) {
  return runKitHere(['sync', '--base', 'main', ...args], {
    cwd: dir,
    env: { OPENAI_API_KEY: 'sk-test-sync-123456', OPENAI_BASE_URL: provider.url },
  });
}

describe('kit sync', () => {
  it('updates both pages a code change made stale through the author tools, and never sends a denied file', async () => {
    const dir = await fixture();
    let first: ReceivedRequest | undefined;
    const provider = await scripted([
      (request) => {
        first = request;
        return {
          toolCalls: [
            { name: 'read_file', input: { path: 'src/router.ts' } },
            { name: 'read_file', input: { path: 'config/database.ts' } },
            { name: 'read_file', input: { path: '.env.example' } },
            { name: 'read_file', input: { path: 'internal/plan.ts' } },
            { name: 'list_files', input: {} },
          ],
        };
      },
      () => writeBoth(first!),
      { text: ['routing: exact matching. queues: five retries.'] },
    ]);
    const run = await sync(dir, provider, '--json');
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as SyncResult;
    expect(result.changed.map((entry) => [entry.path, entry.outcome])).toEqual([
      ['queues', 'published'],
      ['routing', 'published'],
    ]);
    expect(result.stale).toEqual([]);
    expect(result.stopped).toBeNull();
    expect(result.steps).toBe(3);
    expect(result.summary).toBe('routing: exact matching. queues: five retries.');
    expect(run.code).toBe(0);
    // The files changed, frontmatter (sources:) kept.
    const routing = await readFile(join(dir, 'docs/routing.md'), 'utf8');
    expect(routing).toContain('Routes match the exact path.');
    expect(routing).toContain('sources:');
    expect(await readFile(join(dir, 'docs/queues.md'), 'utf8')).toContain('Failed jobs retry five times.');

    // What the provider received: the code diff and the pages, never a denied file's content.
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests[0]!.raw).toContain('+export const MATCH = \\"exact\\";');
    expect(provider.requests[0]!.raw).toContain('Routes match by prefix.');
    expect(provider.requests[0]!.raw).toContain('config/database.ts');
    for (const request of provider.requests) for (const secret of SECRETS) expect(request.raw).not.toContain(secret);
    const read = toolResults(provider.requests[1]!);
    expect(read[0]).toContain('exact');
    expect(read[1]).toContain('No readable file');
    expect(read[2]).toContain('No readable file');
    expect(read[3]).toContain('No readable file');
    expect(read[4]).toContain('src/');
    expect(read[4]).not.toContain('.env.example');
    expect(read[4]).not.toContain('internal/');
  });

  it('changes at most --max-pages pages and reports the rest as stale', async () => {
    const dir = await fixture();
    const provider = await scripted([
      (request) => {
        const hash = hashes(request);
        expect(Object.keys(hash)).toEqual(['queues']);
        return {
          toolCalls: [
            {
              name: 'write_page',
              input: { page: 'queues', body: '# Queues\n\nFailed jobs retry five times.\n', based_on: hash.queues },
            },
            // A page outside the run is refused, whatever the model asks for.
            {
              name: 'write_page',
              input: { page: 'routing', body: '# Routing\n\nOverwritten.\n', based_on: 'sha256:0' },
            },
          ],
        };
      },
      { text: ['queues updated'] },
    ]);
    const run = await sync(dir, provider, '--max-pages', '1', '--json');
    const result = JSON.parse(run.stdout) as SyncResult;
    expect(result.changed.map((entry) => entry.path)).toEqual(['queues']);
    expect(result.stale.map((entry) => [entry.path, entry.reason])).toEqual([['routing', 'max_pages']]);
    expect(result.stale[0]!.message).toContain('ai.sync.max_pages');
    expect(run.code).toBe(1);
    expect(await readFile(join(dir, 'docs/routing.md'), 'utf8')).toContain('Routes match by prefix.');
    expect(toolResults(provider.requests[1]!)[1]).toContain('\\"routing\\" is not a page of this run');
  });

  it('stops cleanly at --max-steps and says which pages were left', async () => {
    const dir = await fixture();
    const provider = await scripted([{ toolCalls: [{ name: 'read_file', input: { path: 'src/queue.ts' } }] }]);
    const run = await sync(dir, provider, '--max-steps', '1');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Changed 0 pages');
    expect(run.stdout).toMatch(/max_steps\s+docs:queues/);
    expect(run.stdout).toMatch(/max_steps\s+docs:routing/);
    expect(run.stdout).toContain('Stopped: The run used all 1 steps (ai.sync.max_steps, --max-steps)');
    expect(provider.requests).toHaveLength(1);
  }, 30_000);

  it('leaves a page a person edited during the run as conflicted, never overwriting it', async () => {
    const dir = await fixture();
    const provider = await scripted([
      (request) => {
        // A person saves the routing page while the model is thinking.
        execFileSync(
          'sh',
          ['-c', `printf '%s' "$0" > docs/routing.md`, page('Routing', 'src/router.ts', 'Edited by Ada.')],
          {
            cwd: dir,
          },
        );
        return writeBoth(request);
      },
      { text: ['done'] },
    ]);
    const run = await sync(dir, provider, '--json');
    const result = JSON.parse(run.stdout) as SyncResult;
    expect(result.changed.map((entry) => entry.path)).toEqual(['queues']);
    expect(result.stale.map((entry) => [entry.path, entry.reason])).toEqual([['routing', 'conflicted']]);
    expect(result.stale[0]!.message).toContain('changed since you read it');
    expect(await readFile(join(dir, 'docs/routing.md'), 'utf8')).toContain('Edited by Ada.');
    // The model was told, in the tool result, that the page conflicted.
    expect(toolResults(provider.requests[1]!)[0]).toContain('conflicted');
  });

  it('--dry-run prints the proposed changes as a unified diff and writes nothing', async () => {
    const dir = await fixture();
    const provider = await scripted([writeBoth, { text: ['proposed'] }]);
    const before = git(dir, 'status', '--porcelain');
    const run = await sync(dir, provider, '--dry-run');
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('--- a/docs/routing.md\n+++ b/docs/routing.md');
    expect(run.stdout).toContain('-Routes match by prefix.\n+Routes match the exact path.');
    expect(run.stdout).toContain('+Failed jobs retry five times.');
    expect(run.stdout).toMatch(/Would change 2 pages:\n\s+proposed\s+docs:queues\n\s+proposed\s+docs:routing/);
    expect(git(dir, 'status', '--porcelain')).toBe(before);
    expect(await readFile(join(dir, 'docs/routing.md'), 'utf8')).toContain('Routes match by prefix.');
  });

  it('stops cleanly when a provider request outlasts ai.sync.timeout', async () => {
    const dir = await fixture({ timeout: 1 });
    const provider = await scripted([{ delayMs: 3000, text: ['too late'] }]);
    const run = await sync(dir, provider, '--json');
    const result = JSON.parse(run.stdout) as SyncResult;
    expect(result.stopped?.reason).toBe('timeout');
    expect(result.stopped?.message).toContain('longer than 1 second (ai.sync.timeout)');
    expect(result.stale.map((entry) => [entry.path, entry.reason])).toEqual([
      ['queues', 'timeout'],
      ['routing', 'timeout'],
    ]);
    expect(run.code).toBe(1);
  });

  it('speaks the Anthropic Messages protocol with --provider and --model', async () => {
    const dir = await fixture();
    const provider = await startScriptedProvider('anthropic', [writeBoth, { text: ['both updated'] }]);
    providers.push(provider);
    const run = await runKitHere(
      ['sync', '--base', 'main', '--provider', 'anthropic', '--model', 'claude-scripted', '--json'],
      { cwd: dir, env: { ANTHROPIC_API_KEY: 'sk-ant-test-123456', ANTHROPIC_BASE_URL: provider.url } },
    );
    const result = JSON.parse(run.stdout) as SyncResult;
    expect([result.provider, result.model]).toEqual(['anthropic', 'claude-scripted']);
    expect(result.changed.map((entry) => entry.outcome)).toEqual(['published', 'published']);
    expect(provider.requests[0]!.path).toBe('/v1/messages');
    expect(provider.requests[0]!.body.model).toBe('claude-scripted');
    expect(run.code).toBe(0);
  });

  it('names the problem when the provider cannot be called, before any request', async () => {
    const dir = await fixture({ provider: 'openai-compatible', model: null });
    const run = await runKitHere(['sync', '--base', 'main'], { cwd: dir, env: {} });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('openai-compatible: OPENAI_COMPATIBLE_BASE_URL is not set');
  });
});
