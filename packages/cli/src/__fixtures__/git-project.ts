import { execFileSync } from 'node:child_process';
import { writeFiles } from './kit-binary.js';

/** Runs git in `cwd` with a fixed identity, so commits work on a machine without git config. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Kit Test',
      GIT_AUTHOR_EMAIL: 'kit@example.com',
      GIT_COMMITTER_NAME: 'Kit Test',
      GIT_COMMITTER_EMAIL: 'kit@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: cwd,
    },
  });
}

const page = (title: string, sources: string[] | null, body = '') =>
  `---\ntitle: ${title}\n${sources ? `sources:\n${sources.map((glob) => `  - ${glob}`).join('\n')}\n` : ''}---\n\n# ${title}\n${body}`;

/**
 * A git repository with docs whose pages name their sources, and history:
 *
 * - on `main`: the first commit (everything), then a change to `src/drift.ts` after `drift.md` was
 *   written (so `drift` drifted before the branch);
 * - on `feature`: a commit changing `src/router.ts` (→ `routing` stale) and `src/models/user.ts`
 *   plus `docs/models.md` (→ `models` updated);
 * - uncommitted: `src/cache.ts` edited (→ `caching` stale) and `src/queue/new-job.ts` untracked
 *   (→ `queues` stale, through the glob `src/queue/**`).
 *
 * `unrelated` (sources `src/mail.ts`) never changes.
 */
export async function createGitProject(dir: string): Promise<void> {
  await writeFiles(dir, {
    'kit.config.mjs': "export default { sets: { docs: {} }, instructions: { default_branch: null } };\n",
    'docs/kit.json': '{ "name": "Affected" }\n',
    'docs/navigation.json': `${JSON.stringify({
      groups: [{ label: 'Start', pages: ['index', 'routing', 'models', 'caching', 'queues', 'drift', 'unrelated'] }],
    })}\n`,
    'docs/index.md': page('Home', null),
    'docs/routing.md': page('Routing', ['src/router.ts']),
    'docs/models.md': page('Models', ['src/models/*.ts']),
    'docs/caching.md': page('Caching', ['./src/cache.ts']),
    'docs/queues.md': page('Queues', ['src/queue/**']),
    'docs/drift.md': page('Drift', ['src/drift.ts']),
    'docs/unrelated.md': page('Unrelated', ['src/mail.ts']),
    'src/router.ts': 'export const routes = [];\n',
    'src/models/user.ts': 'export class User {}\n',
    'src/cache.ts': 'export const cache = new Map();\n',
    'src/queue/job.ts': 'export const job = 1;\n',
    'src/drift.ts': 'export const drift = 1;\n',
    'src/mail.ts': 'export const mail = 1;\n',
  });
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', 'docs and code');
  await writeFiles(dir, { 'src/drift.ts': 'export const drift = 2;\n' });
  git(dir, 'commit', '--quiet', '-am', 'change drift without its page');
  git(dir, 'checkout', '--quiet', '-b', 'feature');
  await writeFiles(dir, {
    'src/router.ts': 'export const routes = ["/"];\n',
    'src/models/user.ts': 'export class User { name = "" }\n',
    'docs/models.md': page('Models', ['src/models/*.ts'], '\nUsers have a name.\n'),
  });
  git(dir, 'commit', '--quiet', '-am', 'router and models');
  await writeFiles(dir, {
    'src/cache.ts': 'export const cache = new WeakMap();\n',
    'src/queue/new-job.ts': 'export const newJob = 1;\n',
  });
}
