// Helpers shared by the MCP end-to-end tests (apps/server/test/mcp-*.test.ts) and the scripts here:
// the reference server as a real child process, and the MCP conformance suite run against a URL.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repositoryRoot = join(import.meta.dirname, '../..');
const serverRoot = join(repositoryRoot, 'apps/server');

/** A reference server (`apps/server/src/main.ts`) running as its own process. */
export interface ReferenceProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  process: ChildProcess;
  /** Sends SIGTERM and waits for the process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `apps/server/src/main.ts` (what `pnpm start` runs) on 127.0.0.1 and a free port, with the
 * given environment on top of a copy of this one from which every `KIT_*` variable is removed.
 * Resolves once the server prints its ready line.
 */
export async function spawnReferenceServer(env: Record<string, string> = {}): Promise<ReferenceProcess> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('KIT_') && value !== undefined) clean[key] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=kit-source', 'src/main.ts'], {
    cwd: serverRoot,
    env: { ...clean, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The reference server did not start within 60 s. Output:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready in \d+ ms\n\s+\w+: http:\/\/[^:]+:(\d+)\//.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(Number(ready[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The reference server exited with code ${code} before it was ready. Output:\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    process: child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** One check of a conformance scenario, as the suite writes it to `checks.json`. */
export interface ConformanceCheck {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

export interface ConformanceResult {
  scenario: string;
  /** Exit code of the conformance CLI for this scenario (0: every check passed). */
  exitCode: number;
  checks: ConformanceCheck[];
  passed: number;
  failed: number;
}

/**
 * The server scenarios of @modelcontextprotocol/conformance that apply to Kit's web endpoint: a
 * stateless Streamable HTTP server with docs tools, one resource template, two prompts and no
 * sessions, logging, completions, subscriptions, sampling or elicitation. The last three test the
 * 2026-07-28 revision (per-request `_meta`, `server/discover`, caching hints, mirrored headers).
 */
export const APPLICABLE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
  'server-stateless',
  'caching',
  'http-header-validation',
] as const;

/**
 * Applicable scenarios from before 2026-07-28 that apply under that revision too (`initialize` and
 * `ping` are gone from it), run a second time at it: the same checks over per-request `_meta`.
 */
export const APPLICABLE_AT_2026_07_28 = [
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
] as const;

/**
 * Checks of applicable scenarios that cannot pass on a server with Kit's tools, by scenario, with
 * the reason. Both need a tool that requires a client capability (the suite calls its own fixture
 * tool `test_missing_capability`, which needs `sampling`); no Kit tool asks the client for anything,
 * so there is no request to refuse with -32021. Kit answers the call with its usual "there is no
 * tool" result, which the first check reads as the tool having run.
 */
export const NOT_APPLICABLE_CHECKS: Readonly<Record<string, readonly string[]>> = {
  // Each needs a diagnostic tool (`test_*`) only the suite's own test server has. Since an unknown
  // tool answers JSON-RPC -32602 (as the MCP specification says) the suite reports them as "not
  // testable" failures instead of passing them on the old isError answer.
  'server-stateless': [
    'sep-2575-server-rejects-undeclared-capability',
    'sep-2575-missing-capability-http-400',
    'sep-2575-http-server-no-independent-requests-on-stream',
    'sep-2575-server-no-log-without-loglevel',
    'sep-2575-server-sends-subscription-ack',
    'sep-2575-server-tags-subscription-id',
    'sep-2575-server-honors-notification-filter',
    'sep-2575-server-sends-prompts-list-changed-on-subscription',
    'sep-2575-server-sends-tools-list-changed-on-subscription',
  ],
};

/** The checks of a result that failed or warned, leaving out those listed as not applicable. */
export function failingChecks(result: ConformanceResult): ConformanceCheck[] {
  const notApplicable = new Set(NOT_APPLICABLE_CHECKS[result.scenario] ?? []);
  return result.checks.filter(
    (check) => (check.status === 'FAILURE' || check.status === 'WARNING') && !notApplicable.has(check.id),
  );
}

/** The conformance CLI installed as a dev dependency of apps/server. */
function conformanceCli(): string {
  const require = createRequire(join(serverRoot, 'package.json'));
  const manifest = require.resolve('@modelcontextprotocol/conformance/package.json');
  return join(dirname(manifest), 'dist/index.js');
}

/**
 * Runs each server scenario of the MCP conformance suite against `url` (one CLI run per scenario,
 * results in a temporary folder) and returns the checks each wrote. Offline: the suite is a client
 * of the given URL only.
 */
export async function runConformance(
  url: string,
  scenarios: readonly string[],
  options: {
    timeoutMs?: number;
    /**
     * The protocol revision to run each scenario under (`--spec-version`). Default: the suite's
     * own choice, 2025-11-25 for a scenario that predates 2026-07-28.
     */
    specVersion?: string;
  } = {},
): Promise<ConformanceResult[]> {
  const output = mkdtempSync(join(tmpdir(), 'kit-conformance-'));
  const results: ConformanceResult[] = [];
  try {
    for (const scenario of scenarios) {
      const folder = join(output, scenario);
      const exitCode = await new Promise<number>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            conformanceCli(),
            'server',
            '--url',
            url,
            '--scenario',
            scenario,
            ...(options.specVersion ? ['--spec-version', options.specVersion] : []),
            '-o',
            folder,
          ],
          { stdio: ['ignore', 'pipe', 'pipe'], cwd: output },
        );
        let log = '';
        child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
        child.once('error', reject);
        child.once('exit', (code) => {
          clearTimeout(timer);
          if (!existsSync(folder)) reject(new Error(`Conformance scenario ${scenario} wrote no results:\n${log}`));
          else resolve(code ?? 1);
        });
      });
      // A scenario that does not apply at the requested revision is skipped and writes no checks.
      const runs = readdirSync(folder).filter((run) => existsSync(join(folder, run, 'checks.json')));
      const checks = runs.flatMap(
        (run) => JSON.parse(readFileSync(join(folder, run, 'checks.json'), 'utf8')) as ConformanceCheck[],
      );
      results.push({
        scenario,
        exitCode,
        checks,
        passed: checks.filter((check) => check.status === 'SUCCESS').length,
        failed: checks.filter((check) => check.status === 'FAILURE').length,
      });
    }
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
  return results;
}
