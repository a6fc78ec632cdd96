import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLICABLE_SCENARIOS,
  type ConformanceResult,
  type ReferenceProcess,
  runConformance,
  spawnReferenceServer,
} from '../../../bench/mcp/support.js';

describe('the MCP conformance suite against the reference server web endpoint', () => {
  let server: ReferenceProcess;
  let results: ConformanceResult[];

  beforeAll(async () => {
    // A high limit: the suite sends a few dozen requests from one address.
    server = await spawnReferenceServer({ KIT_MCP_RATE_LIMIT: '10000,1' });
    results = await runConformance(`${server.base}/docs/mcp`, APPLICABLE_SCENARIOS);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it.each(APPLICABLE_SCENARIOS)('passes every check of %s', (scenario) => {
    const result = results.find((candidate) => candidate.scenario === scenario)!;
    const failures = result.checks
      .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
      .map((check) => `${check.id}: ${check.errorMessage ?? check.description}`);
    expect(failures).toEqual([]);
    expect(result.passed).toBeGreaterThan(0);
    expect(result.exitCode).toBe(0);
  });

  it('counts the rebinding check among the passes: a foreign Host is refused, a loopback one served', () => {
    const rebinding = results.find((result) => result.scenario === 'dns-rebinding-protection')!;
    expect(rebinding.checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id)).toEqual(
      expect.arrayContaining(['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted']),
    );
  });
});
