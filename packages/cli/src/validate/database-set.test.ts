import { join } from 'node:path';
import { openDatabase, writeManifest, writeNavigation, writePage } from '@kit/source-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

describe('kit validate on a database set', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-db-');
    await writeFiles(project.dir, {
      'kit.config.mjs': "export default { sets: { docs: { source: { driver: 'database' } } } };\n",
    });
    // The embedded database kit keeps under <root>/.kit/db for the default connection.
    const db = await openDatabase({ dataDir: join(project.dir, '.kit', 'db') });
    try {
      await writeManifest(db, 'docs', {
        manifest: { name: 'Db', integrations: { analytics: { ga4: { measurementId: 'G-TEST' } } } },
      });
      await writePage(db, 'docs', {
        version: 'current',
        locale: 'en',
        path: 'index',
        frontmatter: { title: 'Home' },
        body: '# Home\n\n[gone](./gone.md)\n',
      });
      await writeNavigation(db, 'docs', {
        version: 'current',
        locale: 'en',
        tree: { groups: [{ label: 'Start', pages: ['index'] }] },
      });
    } finally {
      await db.close();
    }
  }, 180_000);
  afterAll(() => project.cleanup());

  it('warns that manifest integrations are ignored and checks its pages like any set', async () => {
    const run = await runKit(['validate', '--json'], { cwd: project.dir });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout);
    expect(report.issues.map((issue: { rule: string; severity: string }) => `${issue.rule}:${issue.severity}`)).toEqual(
      ['links.broken:error', 'manifest.integrations:warning'],
    );
    expect(run.code).toBe(1);
  }, 180_000);
});
