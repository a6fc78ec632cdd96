// Runs the @modelcontextprotocol/conformance server scenarios against the reference server's web
// endpoint (apps/server/src/main.ts on 127.0.0.1 and a free port) and prints one line per scenario.
//
//   npx tsx --conditions=kit-source bench/mcp/conformance.ts [--spec-version 2026-07-28] [scenario ...]
//
// Without scenarios: every scenario of the active suite plus the 2026-07-28 ones named in the MCP
// docs page (server-stateless, caching, http-header-validation). `--spec-version` runs them under
// that protocol revision instead of the suite's default. The applicable ones also run in
// apps/server/test/mcp-conformance.test.ts; checks that cannot apply to Kit's tools are counted
// apart (NOT_APPLICABLE_CHECKS in support.ts).
import {
  APPLICABLE_SCENARIOS,
  failingChecks,
  NOT_APPLICABLE_CHECKS,
  runConformance,
  spawnReferenceServer,
} from './support.js';

const ACTIVE_SUITE = [
  'server-initialize',
  'server-session-lifecycle',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
];
const DRAFT = ['server-stateless', 'caching', 'http-header-validation'];

const args = process.argv.slice(2);
const versionFlag = args.indexOf('--spec-version');
const specVersion = versionFlag === -1 ? undefined : args.splice(versionFlag, 2)[1];
const scenarios = args.length > 0 ? args : [...ACTIVE_SUITE, ...DRAFT];
const server = await spawnReferenceServer({ KIT_MCP_RATE_LIMIT: '10000,1' });
try {
  const results = await runConformance(`${server.base}/docs/mcp`, scenarios, { timeoutMs: 60_000, specVersion });
  const applicable = new Set<string>(APPLICABLE_SCENARIOS);
  for (const result of results) {
    const failure = failingChecks(result).find((check) => check.status === 'FAILURE');
    const notApplicable = NOT_APPLICABLE_CHECKS[result.scenario]?.length ?? 0;
    console.log(
      [
        result.scenario.padEnd(32),
        applicable.has(result.scenario) ? 'applies ' : '        ',
        `${result.passed} passed, ${result.failed} failed`.padEnd(20),
        notApplicable > 0 ? `(${notApplicable} not applicable)` : '',
        failure ? `${failure.id}: ${(failure.errorMessage ?? '').slice(0, 110)}` : '',
      ].join(' '),
    );
  }
  const broken = results.filter((result) => applicable.has(result.scenario) && failingChecks(result).length > 0);
  console.log(broken.length === 0 ? 'every applicable scenario passes' : `failing: ${broken.map((r) => r.scenario)}`);
} finally {
  await server.stop();
}
