import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

const corpus = join(process.env.KIT_SHARED_DIR ?? resolve(repoRoot, 'tests', 'data'), 'corpora', 'laravel');

describe.skipIf(!existsSync(corpus))('kit validate over the Laravel corpus', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject();
    await writeFiles(project.dir, {
      'kit.config.mjs': `export default { sets: { docs: { source: { path: ${JSON.stringify(corpus)} }, html_input: 'allow' } } };\n`,
    });
  });
  afterAll(() => project.cleanup());

  it('checks all three versions and lists real problems without false anchor reports', {
    timeout: 1_200_000,
  }, async () => {
    // No render deadline: on a busy machine a long page could run past it and be reported as text.
    const env = { KIT_RENDER_DEADLINE_MS: '0' };
    const run = await runKit(['validate', '--json'], { cwd: project.dir, env });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout);
    const versions = new Set(
      report.issues.flatMap((issue: { version?: string }) => (issue.version ? [issue.version] : [])),
    );
    expect([...versions].sort()).toEqual(['11.x', '12.x', '13.x']);
    // Its pages mark anchors with <a name="..."> tags; links to them are not broken.
    expect(report.issues.filter((issue: { rule: string }) => issue.rule === 'links.anchor')).toEqual([]);
    // Its real problems: pages larger than agents.markdown_budget (collections, queues, validation, ...).
    const large = report.issues.filter((issue: { rule: string }) => issue.rule === 'markdown.size');
    expect(large.map((issue: { version: string; page: string }) => `${issue.version}/${issue.page}`)).toContain(
      '13.x/collections',
    );
    expect(run.code).toBe(report.ok ? 0 : 1);

    // A second run reuses the renders kept in .kit/cache/validate and reports the same.
    const again = await runKit(['validate', '--json'], { cwd: project.dir, env });
    expect(JSON.parse(again.stdout)).toEqual(report);

    // The workers render for validation only (no article HTML): the main thread's full renders,
    // page by page, report the same.
    const full = await runKit(['validate', '--json', '--jobs', '1', '--no-cache'], { cwd: project.dir, env });
    expect(JSON.parse(full.stdout)).toEqual(report);

    // That pooled renders of pages sharing Markdown equal page-by-page ones is render-pool.test.ts's.
  });
});
