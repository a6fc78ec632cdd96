import { join } from 'node:path';
import { type KitDatabase, openDatabase, writeManifest, writePage } from '@kit/source-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { startKit, tempProjects } from './__fixtures__/kit-binary.js';

const databaseUrl = process.env.KIT_TEST_DATABASE_URL;
const projects = tempProjects('kit-db-schema-');
const page = { version: 'current', locale: 'en', path: 'index', text: '---\ntitle: Home\n---\n# Home\n\nWelcome.\n' };

/** A project whose one set is a database set on connection `default`, written as `connection`. */
const project = (connection: string) =>
  projects({
    'kit.config.mjs': `export default { connections: { default: ${connection} }, sets: { docs: { source: { driver: 'database' } } } };\n`,
  });

async function rows(db: KitDatabase, query: string) {
  const result = await db.orm.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
}

describe('connections.default.schema on embedded PGlite', () => {
  it('keeps the set’s tables in that schema, where kit migrate and kit validate find them', async () => {
    const dir = await project(`{ schema: 'docs_store' }`);
    const db = await openDatabase({ dataDir: join(dir, '.kit', 'db'), schema: 'docs_store' });
    try {
      await writeManifest(db, 'docs', { text: '{ "name": "Docs" }\n' });
      await writePage(db, 'docs', page);
      expect(await rows(db, `SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'kit_pages'`)).toEqual([
        { n: 1 },
      ]);
    } finally {
      await db.close();
    }
    const migrate = await runKitHere(['migrate'], { cwd: dir });
    expect(migrate.stderr).toBe('');
    expect(migrate.code).toBe(0);
    const validate = await runKitHere(['validate', '--json'], { cwd: dir });
    expect(validate.stderr).toBe('');
    expect(JSON.parse(validate.stdout).summary).toMatchObject({ errors: 0 });
  }, 180_000);

  it('refuses a schema name it would have to quote, naming the key', async () => {
    const dir = await project(`{ schema: 'Docs Store' }`);
    const run = await runKitHere(['validate'], { cwd: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('`connections.default.schema` must be a PostgreSQL schema name');
  });
});

describe.skipIf(!databaseUrl)('a database set on PostgreSQL outside public (KIT_TEST_DATABASE_URL)', () => {
  // A database of this file's own: the search_path case writes to its public schema, which no other test may share.
  const tag = `kit_cli_schema_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let admin: KitDatabase;
  const ownUrl = (searchPath?: string) => {
    const url = new URL(databaseUrl!);
    url.pathname = `/${tag}`;
    if (searchPath) url.searchParams.set('options', `-c search_path=${searchPath}`);
    return url.toString();
  };
  const seed = async (options: { schema?: string }) => {
    const db = await openDatabase({ url: ownUrl(), ...options });
    try {
      await writeManifest(db, 'docs', { text: '{ "name": "Docs" }\n' });
      await writePage(db, 'docs', page);
    } finally {
      await db.close();
    }
  };

  beforeAll(async () => {
    admin = await openDatabase({ url: databaseUrl!, schema: tag });
    await admin.orm.execute(`CREATE DATABASE "${tag}"`);
    const setup = await openDatabase({ url: ownUrl() });
    await setup.orm.execute('CREATE SCHEMA other');
    await setup.close();
  }, 180_000);
  afterAll(async () => {
    if (!admin) return;
    await admin.orm.execute(`DROP DATABASE IF EXISTS "${tag}" WITH (FORCE)`);
    await admin.orm.execute(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`);
    await admin.close();
  }, 180_000);

  it('runs kit migrate and kit validate when the URL sets search_path=other', async () => {
    await seed({});
    const dir = await project(`{ url: ${JSON.stringify(ownUrl('other'))} }`);
    const migrate = await runKitHere(['migrate'], { cwd: dir });
    expect(migrate.stderr).toBe('');
    expect(migrate.code).toBe(0);
    const validate = await runKitHere(['validate', '--json'], { cwd: dir });
    expect(validate.stderr).toBe('');
    expect(JSON.parse(validate.stdout).summary).toMatchObject({ errors: 0 });
  }, 180_000);

  it('reads the set from connections.default.schema whatever the search_path', async () => {
    await seed({ schema: 'docs_store' });
    const dir = await project(`{ url: ${JSON.stringify(ownUrl('other'))}, schema: 'docs_store' }`);
    const search = await runKitHere(['search', 'welcome', '--json'], { cwd: dir });
    expect(search.stderr).toBe('');
    expect(JSON.stringify(JSON.parse(search.stdout))).toContain('Home');
  }, 180_000);

  it('ends a local kit mcp quietly when its client closes stdin', async () => {
    // The exit races the search index warm-up, so before the fix this failed on some runs only.
    await seed({ schema: 'docs_store' });
    const dir = await project(`{ url: ${JSON.stringify(ownUrl())}, schema: 'docs_store' }`);
    const server = startKit(['mcp'], { cwd: dir, fromSource: true });
    server.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } })}\n`,
    );
    await server.waitFor(/"id":1[,}]/);
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(server.output().stderr).toBe('');
  }, 180_000);
});
