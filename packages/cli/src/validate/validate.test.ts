import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKEN_SET_RULES, brokenSetFiles } from '../__fixtures__/broken-set.js';
import { repoRoot, runKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

describe('kit validate on a set that breaks every rule', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject();
    await writeFiles(project.dir, brokenSetFiles);
  });
  afterAll(() => project.cleanup());

  it('reports exactly the expected rule ids in a report matching schemas/validate.json, and exits 1', async () => {
    const run = await runKit(['validate', '--json'], { cwd: project.dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const schema = JSON.parse(await readFile(join(repoRoot, 'schemas/validate.json'), 'utf8'));
    const ajv = new Ajv2020.default({ allErrors: true, strict: false });
    const valid = ajv.validate(schema, report);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);

    expect([...new Set(report.issues.map((issue: { rule: string }) => issue.rule))].sort()).toEqual(BROKEN_SET_RULES);
    expect(report.ok).toBe(false);
    const severities = report.issues.map((issue: { severity: string }) => issue.severity);
    expect(severities.indexOf('warning')).toBeGreaterThan(severities.lastIndexOf('error'));
    // `{{version}}` links, `<a name>` anchors, `.md` twins and cross-version URLs all resolve.
    const links = report.issues.filter(
      (issue: { rule: string; file?: string }) => issue.rule.startsWith('links.') && issue.file !== 'kit.json',
    );
    expect(links.map((issue: { message: string }) => issue.message).join('\n')).not.toMatch(
      /setup-steps|guide\.md"|1\.x\/guide/,
    );
    expect(links).toHaveLength(2);
  });

  it('groups the human report by file with line numbers and fixes', async () => {
    const run = await runKit(['validate'], { cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\n2\.x\/index\.md\n {2}11 +error {3}The link "\.\/nowhere\.md" points at "nowhere"/);
    expect(run.stdout).toMatch(
      /\nkit\.json\n {2}4:17 +warning Unknown top-level key `descripton`.*manifest\.schema\n +fix: Rename `descripton` to `description`\./,
    );
    expect(run.stdout).toMatch(/\d+ errors and \d+ warnings in the docs set "docs"\.\n$/);
  });

  it('reports a fixed page as fixed on the next run, whatever it kept from the previous one', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      await writeFiles(dir, brokenSetFiles);
      const rules = async () =>
        JSON.parse((await runKit(['validate', '--json'], { cwd: dir })).stdout).issues.map(
          (issue: { rule: string; line?: number; file?: string }) => `${issue.rule}@${issue.file}:${issue.line ?? ''}`,
        );
      const before = await rules();
      expect(before).toContain('links.broken@2.x/index.md:11');
      await writeFiles(dir, {
        'docs/2.x/index.md': brokenSetFiles['docs/2.x/index.md']!.replace('./nowhere.md', './components.md'),
      });
      const after = await rules();
      expect(after).not.toContain('links.broken@2.x/index.md:11');
      expect(after).toHaveLength(before.length - 1);
    } finally {
      await cleanup();
    }
  });

  it('reports the same whether pages render on one thread or on several, cached or not', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      // A long page, so there is enough Markdown to start the render workers.
      const sections = Array.from(
        { length: 4000 },
        (_, index) => `## Part ${index}\n\nSee [the previous part](#part-${index - 1}).\n`,
      );
      await writeFiles(dir, { ...brokenSetFiles, 'docs/1.x/long.md': `# Long\n\n${sections.join('\n').repeat(3)}` });
      const validate = async (...args: string[]) => {
        const run = await runKit(['validate', '--json', ...args], { cwd: dir });
        expect(run.stderr).toBe('');
        return { code: run.code, report: JSON.parse(run.stdout) };
      };
      const serial = await validate('--jobs', '1', '--no-cache');
      expect(serial.report.issues.length).toBeGreaterThan(10);
      expect(await validate('--jobs', '3', '--no-cache')).toEqual(serial);
      // The first pooled run fills .kit/cache/validate, the second reads it.
      expect(await validate('--jobs', '2')).toEqual(serial);
      expect(await validate('--jobs', '2')).toEqual(serial);
      expect(await validate('--jobs', '1')).toEqual(serial);
    } finally {
      await cleanup();
    }
  });

  it('refuses a --jobs that is not a whole number of threads', async () => {
    const run = await runKit(['validate', '--jobs', '0'], { cwd: project.dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--jobs');
    expect(run.stdout).toBe('');
  });

  it('checks one version with --version', async () => {
    const run = await runKit(['validate', '--json', '--version', '1.x'], { cwd: project.dir });
    const report = JSON.parse(run.stdout);
    expect(report.version).toBe('1.x');
    expect(report.issues.filter((issue: { version?: string }) => issue.version === '2.x')).toEqual([]);
  });
});

describe('kit validate with components registered in kit.config.ts', () => {
  it('knows them, though tsx loads the config in a module namespace of its own', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      const renderFrom = pathToFileURL(join(repoRoot, 'packages/render/dist/index.js')).href;
      await writeFiles(dir, {
        'kit.config.ts': `import { registerComponent } from ${JSON.stringify(renderFrom)};
registerComponent('Badge', {
  html: (props: Record<string, unknown>) => \`<b>\${String(props.text)}</b>\`,
  markdown: (props: Record<string, unknown>) => \`**\${String(props.text)}**\`,
});
export default {};
`,
        'docs/kit.json': JSON.stringify({ name: 'Docs' }),
        'docs/index.md': '---\ntitle: Home\n---\n\n# Home\n\n<Badge text="new" /> and <Missing />\n',
      });
      const run = await runKit(['validate', '--json'], { cwd: dir });
      const unknown = JSON.parse(run.stdout).issues.filter(
        (issue: { rule: string }) => issue.rule === 'components.unknown',
      );
      expect(unknown.map((issue: { message: string }) => issue.message).join('\n')).toContain('Missing');
      expect(unknown).toHaveLength(1);
    } finally {
      await cleanup();
    }
  });
});
