import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { repoRoot, tempProjects, writeFiles } from '../__fixtures__/kit-binary.js';

interface Issue {
  rule: string;
  severity: string;
  message: string;
  file?: string;
  page?: string;
  set?: string;
  version?: string;
  line?: number;
  fix?: string;
}

const project = tempProjects('kit-validate-');

async function validate(dir: string, ...args: string[]) {
  const run = await runKitHere(['validate', '--jobs', '1', ...args], { cwd: dir });
  return { ...run, report: args.includes('--json') ? JSON.parse(run.stdout) : null };
}

const page = (frontmatter: string, title = 'Page') => `---\n${frontmatter}\n---\n\n# ${title}\n`;

describe('kit validate and the frontmatter schema', () => {
  it('reports frontmatter that breaks the schema as frontmatter.schema errors naming page, field and fix', async () => {
    const broken: Record<string, string> = {
      'inserts-word': 'inserts: maybe',
      'inserts-number': 'inserts: 5',
      'sources-numbers': 'sources: [1]',
      'sources-map': 'sources: {a: 1}',
      'sources-empty': 'sources: ""',
      'title-empty': 'title: ""',
    };
    const pages = Object.fromEntries(
      Object.entries(broken).map(([name, line]) => [`docs/${name}.md`, page(`description: Fine\n${line}`)]),
    );
    const dir = await project({
      'kit.config.json': '{}',
      'docs/kit.json': '{ "name": "Docs", "description": "Docs." }',
      'docs/index.md': page('title: Home', 'Home'),
      'docs/navigation.json': JSON.stringify({ groups: [{ label: 'All', pages: ['index', ...Object.keys(broken)] }] }),
      ...pages,
    });
    const { code, report } = await validate(dir, '--json');
    expect(code).toBe(1);
    const issues = (report.issues as Issue[]).filter((issue) => issue.rule === 'frontmatter.schema');
    expect(issues.map((issue) => issue.page).sort()).toEqual(Object.keys(broken).sort());
    for (const issue of issues) {
      const field = broken[issue.page!]!.split(':')[0]!;
      expect(issue).toMatchObject({ severity: 'error', file: `${issue.page}.md`, line: 3 });
      expect(issue.message).toContain(`\`${field}`);
      expect(issue.fix).toContain(`\`${field}`);
    }
    const text = await validate(dir);
    expect(text.stdout).not.toContain('No problems found');
    expect(text.stdout).toMatch(/inserts-word\.md\n {2}3 +error {3}`inserts` must be/);
  });
});

describe('kit validate and the search budget cache', () => {
  it('checks a changed search.budget_kb at once, in both directions, with the cache on', async () => {
    const words = Array.from({ length: 900 }, (_, index) => `word${(index * 7919).toString(36)}x${index}`).join(' ');
    const config = (budget: number) => JSON.stringify({ sets: { docs: { search: { budget_kb: budget } } } });
    const dir = await project({
      'kit.config.json': config(5000),
      'docs/kit.json': '{ "name": "Docs", "description": "Docs." }',
      'docs/index.md': `---\ntitle: Home\n---\n\n# Home\n\n${words}\n`,
    });
    const budgetIssues = async () =>
      ((await validate(dir, '--json')).report.issues as Issue[]).filter((issue) => issue.rule === 'search.budget');
    expect(await budgetIssues()).toEqual([]);
    await writeFiles(dir, { 'kit.config.json': config(1) });
    const over = await budgetIssues();
    expect(over).toHaveLength(1);
    expect(over[0]!.message).toContain('search.budget_kb (1 KB)');
    // Still reported, and it says what readers get instead of the index.
    expect(over[0]!.message).toContain("readers' searches go to the server");
    await writeFiles(dir, { 'kit.config.json': config(5000) });
    expect(await budgetIssues()).toEqual([]);
  });
});

describe('kit validate and config warnings', () => {
  const files = {
    'kit.config.json': JSON.stringify({
      sets: {
        docs: { ai: { ask: { rate_limit: '5,1' } }, mcp: { web: { author_tools: true } } },
        handbook: { source: { driver: 'database' }, html_input: 'allow' },
      },
    }),
    'docs/kit.json': '{ "name": "Docs", "description": "Docs." }',
    'docs/index.md': page('title: Home', 'Home'),
  };

  it('lists keys that have no effect as config.ignored warnings, in JSON and text', async () => {
    const dir = await project(files);
    const { code, report } = await validate(dir, '--json', '--set', 'docs');
    expect(code).toBe(0);
    const ignored = (report.issues as Issue[]).filter((issue) => issue.rule === 'config.ignored');
    expect(ignored.map((issue) => issue.message)).toEqual([
      '`sets.docs.ai.ask.rate_limit` has no effect in a set: only the top-level value is read.',
      '`mcp.web.author_tools` is on for `sets.docs`, a repository set: a repository set never serves author tools on the web.',
    ]);
    for (const issue of ignored) expect(issue).toMatchObject({ severity: 'warning', file: 'kit.config.json' });
    expect(ignored[0]!.fix).toContain('top level');
    expect(report.summary.warnings).toBe(2);

    const schema = JSON.parse(await readFile(join(repoRoot, 'schemas/validate.json'), 'utf8'));
    const ajv = new Ajv2020.default({ allErrors: true, strict: false });
    expect(ajv.validate(schema, report), JSON.stringify(ajv.errors)).toBe(true);

    const text = await validate(dir, '--set', 'docs');
    expect(text.stdout).toMatch(/kit\.config\.json\n {2}- +warning `sets\.docs\.ai\.ask\.rate_limit` has no effect/);
    expect(text.stdout).toContain('config.ignored');
    expect(text.stdout).toContain('\n2 warnings in the docs set "docs".\n');
  });

  it('leaves out warnings about other sets when one set is checked', async () => {
    const dir = await project(files);
    const all = await validate(dir, '--json', '--set', 'handbook');
    const messages = (all.report.issues as Issue[])
      .filter((issue) => issue.rule === 'config.ignored')
      .map((issue) => issue.message);
    expect(messages).toEqual([
      "`sets.handbook.html_input: 'allow'` has no effect: a database set always escapes raw HTML.",
    ]);
  });
});

describe('kit validate --version over several sets', () => {
  const files = {
    'kit.config.json': JSON.stringify({ sets: { a: {}, b: {} } }),
    'a/kit.json': JSON.stringify({ name: 'A', description: 'A.', versions: ['1.x', '2.x'] }),
    'a/1.x/index.md': page('title: One', 'One'),
    'a/1.x/broken.md': page('title: Broken\ninserts: maybe', 'Broken'),
    'a/2.x/index.md': page('title: Two', 'Two'),
    'b/kit.json': JSON.stringify({ name: 'B', description: 'B.' }),
    'b/index.md': page('title: B', 'B'),
  };

  it('checks the sets that have the version and skips the others', async () => {
    const dir = await project(files);
    const { code, stderr, report } = await validate(dir, '--json', '--version', '1.x');
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(report.version).toBe('1.x');
    const sets = new Set((report.issues as Issue[]).map((issue) => issue.set));
    expect([...sets]).toEqual(['a']);
    expect((report.issues as Issue[]).map((issue) => issue.page)).toContain('broken');
  });

  it('refuses a version no set has, naming the versions each set has', async () => {
    const dir = await project(files);
    const { code, stderr } = await validate(dir, '--version', '9.x');
    expect(code).toBe(1);
    expect(stderr).toContain('No doc set has version "9.x"');
    expect(stderr).toContain('a (1.x, 2.x)');
    expect(stderr).toContain('b (current)');
  });
});
