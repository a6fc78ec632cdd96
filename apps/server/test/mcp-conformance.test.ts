import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLICABLE_AT_2026_07_28,
  APPLICABLE_SCENARIOS,
  type ConformanceResult,
  failingChecks,
  NOT_APPLICABLE_CHECKS,
  type ReferenceProcess,
  runConformance,
  spawnReferenceServer,
} from '../../../bench/mcp/support.js';

describe('the MCP conformance suite against the reference server web endpoint', () => {
  let server: ReferenceProcess;
  let results: ConformanceResult[];
  let modernResults: ConformanceResult[];

  beforeAll(async () => {
    // A high limit: the suite sends a few dozen requests from one address.
    server = await spawnReferenceServer({ KIT_MCP_RATE_LIMIT: '10000,1' });
    results = await runConformance(`${server.base}/docs/mcp`, APPLICABLE_SCENARIOS);
    modernResults = await runConformance(`${server.base}/docs/mcp`, APPLICABLE_AT_2026_07_28, {
      specVersion: '2026-07-28',
    });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it.each(APPLICABLE_SCENARIOS)('passes every applicable check of %s', (scenario) => {
    const result = results.find((candidate) => candidate.scenario === scenario)!;
    const failures = failingChecks(result).map((check) => `${check.id}: ${check.errorMessage ?? check.description}`);
    expect(failures).toEqual([]);
    expect(result.passed).toBeGreaterThan(0);
    // The CLI exits 1 for any failed check, the not-applicable ones included.
    const notApplicableFailed = result.checks.some((check) => check.status === 'FAILURE');
    expect(result.exitCode).toBe(notApplicableFailed ? 1 : 0);
  });

  it.each(APPLICABLE_AT_2026_07_28)('passes every check of %s under protocol 2026-07-28 too', (scenario) => {
    const result = modernResults.find((candidate) => candidate.scenario === scenario)!;
    expect(failingChecks(result).map((check) => `${check.id}: ${check.errorMessage}`)).toEqual([]);
    expect(result.passed).toBeGreaterThan(0);
    expect(result.exitCode).toBe(0);
  });

  it('fails only the not-applicable checks of server-stateless, and passes the rest of it', () => {
    const stateless = results.find((result) => result.scenario === 'server-stateless')!;
    const failed = stateless.checks.filter((check) => check.status === 'FAILURE').map((check) => check.id);
    // The subscription checks fail or pass depending on how fast the stream opens; either way
    // nothing outside the not-applicable list may fail.
    expect(failed.filter((id) => !NOT_APPLICABLE_CHECKS['server-stateless']!.includes(id))).toEqual([]);
    expect(failed).toEqual(expect.arrayContaining(['sep-2575-server-rejects-undeclared-capability']));
    expect(stateless.checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id)).toEqual(
      expect.arrayContaining([
        'sep-2575-server-implements-discover',
        'sep-2575-http-server-header-mismatch-400',
        'sep-2575-server-unsupported-version-error',
        'sep-2575-http-server-method-not-found-404-initialize',
      ]),
    );
  });

  it('counts the rebinding check among the passes: a foreign Host is refused, a loopback one served', () => {
    const rebinding = results.find((result) => result.scenario === 'dns-rebinding-protection')!;
    expect(rebinding.checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id)).toEqual(
      expect.arrayContaining(['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted']),
    );
  });
});
