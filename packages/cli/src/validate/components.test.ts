import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { repoRoot, tempProjects, writeFiles } from '../__fixtures__/kit-binary.js';

interface Issue {
  rule: string;
  severity: string;
  message: string;
  file?: string;
  line?: number;
}

const project = tempProjects('kit-validate-components-');

async function unknownComponents(dir: string): Promise<Issue[]> {
  const run = await runKitHere(['validate', '--json', '--jobs', '1'], { cwd: dir });
  return (JSON.parse(run.stdout).issues as Issue[]).filter((issue) => issue.rule === 'components.unknown');
}

/** A kit.config.mjs registering `names`; the default registry is shared, so each test uses names of its own. */
function configRegistering(...names: string[]): string {
  const render = pathToFileURL(join(repoRoot, 'packages/render/dist/index.js')).href;
  return [
    `import { registerComponent } from ${JSON.stringify(render)};`,
    ...names.map(
      (name) => `registerComponent('${name}', { html: () => '<b>${name}</b>', markdown: () => '${name}' });`,
    ),
    'export default {};',
    '',
  ].join('\n');
}

const navigation = JSON.stringify({ groups: [{ label: 'All', pages: ['index'] }] });

describe('kit validate and registered components', () => {
  it('stops reporting a page component once kit.config registers it, though the first run was cached', async () => {
    const dir = await project({
      'kit.config.mjs': configRegistering(),
      'docs/kit.json': JSON.stringify({ name: 'Docs', description: 'Docs.' }),
      'docs/navigation.json': navigation,
      'docs/index.md': '---\ntitle: Home\n---\n\n# Home\n\n<Zed />\n',
    });
    expect((await unknownComponents(dir)).map((issue) => issue.message)).toEqual(['Unknown component <Zed>.']);
    await writeFiles(dir, { 'kit.config.mjs': configRegistering('Zed') });
    expect(await unknownComponents(dir)).toEqual([]);
  });

  it('reports components the manifest inserts that nobody registered, on the manifest', async () => {
    const manifest = {
      name: 'Docs',
      description: 'Docs.',
      inserts: { footer: ['Hello', 'Nope'], 'article.after': ['Missing'] },
    };
    const dir = await project({
      'kit.config.mjs': configRegistering('Hello'),
      'docs/kit.json': JSON.stringify(manifest, null, 2),
      'docs/navigation.json': navigation,
      'docs/index.md': '---\ntitle: Home\n---\n\n# Home\n',
    });
    const issues = await unknownComponents(dir);
    expect(issues.map((issue) => [issue.severity, issue.file, issue.line])).toEqual([
      ['warning', 'kit.json', 7],
      ['warning', 'kit.json', 10],
    ]);
    expect(issues.map((issue) => issue.message)).toEqual([
      'Insert point "footer" lists the component "Nope", which is not registered, so it is left out of every page.',
      'Insert point "article.after" lists the component "Missing", which is not registered, so it is left out of every page.',
    ]);
  });
});
