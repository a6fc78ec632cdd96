// Every published package as `pnpm publish` would send it to the registry (a dry run: nothing is
// sent): a version from the release line, the fields npm shows and needs, the built entry points,
// a README and a licence, and no tests or fixtures. `pnpm test` builds every package before this
// runs; the release procedure is in CONTRIBUTING.md.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  engines?: { node?: string };
  repository?: { type: string; url: string; directory: string };
  bin?: Record<string, string>;
  publishConfig?: { access?: string; exports?: Record<string, { types: string; default: string }> };
}

const published = readdirSync(join(repoRoot, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const folder = join(repoRoot, 'packages', entry.name);
    return { folder, manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest };
  })
  .filter(({ manifest }) => manifest.private !== true);

/** What `pnpm publish --dry-run` reports it would publish. */
async function dryRun(folder: string): Promise<{ version: string; files: string[] }> {
  const env = { ...process.env, npm_config_update_notifier: 'false' };
  const { stdout } = await run('pnpm', ['publish', '--dry-run', '--no-git-checks', '--json'], {
    cwd: folder,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = Object.values(
    JSON.parse(stdout) as Record<string, { version: string; files: { path: string }[] }>,
  )[0]!;
  return { version: report.version, files: report.files.map((file) => file.path) };
}

describe('publishing every package', () => {
  it('has pending changesets that make one valid release plan for the ten packages together', async () => {
    // A changeset naming an ignored app, or a package outside the fixed group, stops `changeset version`.
    const file = join(mkdtempSync(join(tmpdir(), 'kit-release-plan-')), 'plan.json');
    const { stdout } = await run('pnpm', ['-s', 'changeset', 'status', '--output', file], {
      cwd: repoRoot,
    }).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`changeset status failed:\n${error.stdout}\n${error.stderr}`);
    });
    const plan = JSON.parse(readFileSync(file, 'utf8')) as {
      releases: { name: string; type: string; newVersion: string }[];
    };
    // The apps and bench follow their dependencies with a release of type "none": they are never published.
    const releases = plan.releases.filter((release) => release.type !== 'none');
    rmSync(dirname(file), { recursive: true });
    expect(stdout).not.toContain('Error');
    if (releases.length === 0) return; // nothing pending right after a release
    expect(releases.map((release) => release.name).sort()).toEqual(
      published.map(({ manifest }) => manifest.name).sort(),
    );
    expect(new Set(releases.map((release) => release.newVersion)).size).toBe(1);
  });

  it('has ten packages to publish, all on one 0.x release line', () => {
    expect(published.map(({ manifest }) => manifest.name).sort()).toEqual(
      ['ai', 'cli', 'core', 'http-hono', 'mcp', 'node', 'render', 'search', 'source-db', 'source-fs'].map(
        (n) => `@kit/${n}`,
      ),
    );
    const versions = new Set(published.map(({ manifest }) => manifest.version));
    expect(versions.size).toBe(1);
    expect([...versions][0]).toMatch(/^0\.[1-9]\d*\.\d+$/);
  });

  it.each(published.map(({ folder, manifest }) => [manifest.name, folder, manifest] as const))(
    '%s: the dry run sends its built entries, README and licence, and no tests',
    async (name, folder, manifest) => {
      expect(manifest.license).toBe('MIT');
      expect(manifest.engines?.node).toBe('>=22.12');
      expect(manifest.repository).toMatchObject({
        type: 'git',
        url: 'git+https://github.com/kit-docs/kit.git',
        directory: folder.slice(repoRoot.length + 1),
      });
      expect(manifest.publishConfig?.access).toBe('public');

      const { version, files } = await dryRun(folder);
      expect(version).toBe(manifest.version);
      expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
      for (const entry of Object.values(manifest.publishConfig?.exports ?? {})) {
        expect(files, `${name} ${entry.default}`).toContain(entry.default.replace(/^\.\//, ''));
        expect(files, `${name} ${entry.types}`).toContain(entry.types.replace(/^\.\//, ''));
      }
      for (const bin of Object.values(manifest.bin ?? {})) expect(files).toContain(bin.replace(/^\.\//, ''));
      expect(files.filter((file) => /\.test\.[cm]?[jt]s$|__fixtures__/.test(file))).toEqual([]);
    },
    120_000,
  );
});
