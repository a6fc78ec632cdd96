import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { repoRoot, tempProjects } from '../__fixtures__/kit-binary.js';

interface Issue {
  rule: string;
  severity: string;
  message: string;
  file?: string;
  line?: number;
  fix?: string;
}

const project = tempProjects('kit-validate-references-');
const coreFrom = pathToFileURL(join(repoRoot, 'packages/core/src/index.ts')).href;

const route = (name: string | null, path: string, pkg: string | null = null) =>
  JSON.stringify({ name, method: 'GET', path, parameters: [], middleware: [], inputs: [], package: pkg });
const table = (name: string) =>
  JSON.stringify({ name, schema: null, columns: [], primaryKey: [], foreignKeys: [], relations: [], indexes: [] });

describe('kit validate and references', () => {
  it('reports unknown and denied references with the nearest names as the fix, at their file and line', async () => {
    const dir = await project({
      // The config registers through its own instance of @kit/core, as a user's kit.config.ts does.
      'kit.config.mjs': `import { registerReferences } from ${JSON.stringify(coreFrom)};
registerReferences({
  routes: [${route('orders.show', '/api/orders/:id')}, ${route(null, '/swagger', '@hono/swagger-ui')}],
  models: [${table('orders')}, ${table('audit_log')}],
  events: [{ name: 'events.OrderShipped', fields: [] }],
});
export default { references: { models: { allow: ['orders'] } } };
`,
      'docs/kit.json': '{ "name": "Docs", "description": "Docs." }',
      'docs/navigation.json': JSON.stringify({ groups: [{ label: 'All', pages: ['index', 'api'] }] }),
      'docs/index.md': '---\ntitle: Home\ndescription: Home.\n---\n\n# Home\n',
      'docs/api.md': [
        '---\ntitle: API\ndescription: The API.\n---\n',
        '# API',
        '<Route name="orders.show" />',
        '<Event name="OrderShipped" />',
        '<Route name="order.show" />',
        '<Route path="/swagger" />',
        '<Model name="audit_log" />',
        '',
      ].join('\n\n'),
    });
    const run = await runKitHere(['validate', '--jobs', '1', '--json'], { cwd: dir });
    const issues = (JSON.parse(run.stdout).issues as Issue[]).filter((issue) => issue.rule.startsWith('references.'));
    expect(issues.map(({ rule, file, line }) => ({ rule, file, line }))).toEqual([
      { rule: 'references.unknown', file: 'api.md', line: 13 },
      { rule: 'references.denied', file: 'api.md', line: 15 },
      { rule: 'references.denied', file: 'api.md', line: 17 },
    ]);
    expect(issues[0]?.fix).toContain('Did you mean "orders.show"?');
    expect(issues[1]?.message).toContain('registered by the package @hono/swagger-ui');
    expect(issues[2]?.fix).toContain('Add "audit_log" (or a pattern with *) to references.models.allow');
    expect(issues.every((issue) => issue.severity === 'warning')).toBe(true);
    expect(run.code).toBe(0);
  });
});
