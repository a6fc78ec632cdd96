// Runs the @modelcontextprotocol/conformance server scenarios against the reference server's web
// endpoint (apps/server/src/main.ts on 127.0.0.1 and a free port) and prints one line per scenario.
//
//   npx tsx --conditions=kit-source bench/mcp/conformance.ts [scenario ...]
//
// Without arguments: every scenario of the active suite plus the draft ones named in the MCP docs
// page (server-stateless, caching, http-header-validation). The applicable ones also run in
// apps/server/test/mcp-conformance.test.ts.
import { APPLICABLE_SCENARIOS, runConformance, spawnReferenceServer } from './support.js';

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

const scenarios = process.argv.length > 2 ? process.argv.slice(2) : [...ACTIVE_SUITE, ...DRAFT];
const server = await spawnReferenceServer({ KIT_MCP_RATE_LIMIT: '10000,1' });
try {
  const results = await runConformance(`${server.base}/docs/mcp`, scenarios, { timeoutMs: 60_000 });
  const applicable = new Set<string>(APPLICABLE_SCENARIOS);
  for (const result of results) {
    const failure = result.checks.find((check) => check.status === 'FAILURE');
    console.log(
      [
        result.scenario.padEnd(32),
        applicable.has(result.scenario) ? 'applies ' : '        ',
        `${result.passed} passed, ${result.failed} failed`.padEnd(20),
        failure ? `${failure.id}: ${(failure.errorMessage ?? '').slice(0, 110)}` : '',
      ].join(' '),
    );
  }
  const broken = results.filter((result) => applicable.has(result.scenario) && result.failed > 0);
  console.log(broken.length === 0 ? 'every applicable scenario passes' : `failing: ${broken.map((r) => r.scenario)}`);
} finally {
  await server.stop();
}
