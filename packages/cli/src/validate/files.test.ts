import { describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProjects } from '../__fixtures__/kit-binary.js';

const project = tempProjects('kit-validate-files-');

interface Issue {
  rule: string;
  severity: string;
  page?: string;
  file?: string;
  line?: number;
  message: string;
}

async function issuesOf(dir: string): Promise<Issue[]> {
  const run = await runKitHere(['validate', '--json'], { cwd: dir });
  return JSON.parse(run.stdout).issues as Issue[];
}

describe('kit validate and the files pages show', () => {
  it('reports a missing image or linked file as assets.missing with the page and line', async () => {
    const dir = await project({
      'docs/kit.json': JSON.stringify({ name: 'Acme', versions: ['2.x'] }),
      'docs/2.x/index.md': [
        '---',
        'title: Home',
        '---',
        '# Home',
        '',
        '![Flow](./images/flow.png)',
        '',
        '![Gone](./images/gone.png)',
        '',
        'Get [the guide](./downloads/guide.pdf) or [the old one](./downloads/old.pdf).',
        '',
        '![Key](./keys/server.key.png)',
        '',
        'See [the release](./v1.2) and [setup](./setup.md).',
        '',
      ].join('\n'),
      'docs/2.x/v1.2.md': '# Release 1.2\n',
      'docs/2.x/setup.md': '# Setup\n',
      'docs/2.x/images/flow.png': 'png',
      'docs/2.x/downloads/guide.pdf': 'pdf',
      'docs/2.x/keys/server.key.png': 'not served',
    });
    const missing = (await issuesOf(dir)).filter((issue) => issue.rule === 'assets.missing');
    expect(missing.map((issue) => [issue.page, issue.file, issue.line, issue.severity])).toEqual([
      ['index', '2.x/index.md', 8, 'error'],
      ['index', '2.x/index.md', 10, 'error'],
      ['index', '2.x/index.md', 12, 'error'],
    ]);
    expect(missing[0]!.message).toContain('"./images/gone.png" points at 2.x/images/gone.png, which does not exist');
    expect(missing[1]!.message).toContain('"./downloads/old.pdf"');
    expect(missing[2]!.message).toContain('which Kit never serves');
  });

  it('reports a logo or favicon file that is missing next to kit.json, on its manifest line', async () => {
    const dir = await project({
      'docs/kit.json': JSON.stringify(
        {
          name: 'Acme',
          logo: { light: 'brand/logo.svg', dark: 'brand/dark.svg' },
          favicon: 'https://cdn.example.com/i.png',
        },
        null,
        2,
      ),
      'docs/brand/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'docs/index.md': '# Home\n',
    });
    const missing = (await issuesOf(dir)).filter((issue) => issue.rule === 'assets.missing');
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ file: 'kit.json', line: 5 });
    expect(missing[0]!.message).toContain('The logo "brand/dark.svg"');
  });
});
