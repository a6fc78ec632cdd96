import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createFixtureFolders, writeAt } from './testing/fixture-folder.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const tsx = pathToFileURL(createRequire(join(repoRoot, 'package.json')).resolve('tsx')).href;
const OPEN_FILES = 256;
const FOLDERS = 30;
const PAGES_PER_FOLDER = 50;
const SKILLS = 300;

interface WholeSet {
  pages: number | string;
  paths: string[];
  read: number | string;
  skills: number | string;
  problems: unknown;
}

/** Reads the set folder in a child process whose open-file limit is `openFiles` (`ulimit -n`). */
function readWholeSet(root: string, openFiles: number): Promise<WholeSet> {
  const script = join(here, '__fixtures__/read-whole-set.ts');
  const command = [process.execPath, '--conditions=kit-source', '--import', tsx, script, root];
  return new Promise((resolvePromise, reject) => {
    execFile(
      'sh',
      ['-c', `ulimit -n ${openFiles} && exec "$@"`, 'sh', ...command],
      { cwd: here, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolvePromise(JSON.parse(stdout.trim().split('\n').pop()!) as WholeSet);
      },
    );
  });
}

describe('a repository set with more files than the open-file limit', () => {
  const folders = createFixtureFolders('open-files');
  afterAll(() => folders.cleanup());

  it('lists and reads every page and skill, with no problem, under a limit far below the file count', async () => {
    const root = folders.folder();
    writeAt(root, 'kit.json', JSON.stringify({ name: 'Big' }));
    const expected: string[] = [];
    for (let folder = 1; folder <= FOLDERS; folder += 1) {
      for (let page = 1; page <= PAGES_PER_FOLDER; page += 1) {
        const path = `part-${folder}/page-${page}`;
        expected.push(path);
        writeAt(root, `${path}.md`, `---\ntitle: Page ${folder}.${page}\n---\n\nText of ${path}.\n`);
      }
    }
    for (let skill = 1; skill <= SKILLS; skill += 1) writeAt(root, `skills/skill-${skill}.md`, `# Skill ${skill}\n`);
    expect(expected.length + SKILLS).toBeGreaterThan(OPEN_FILES * 5);

    const seen = await readWholeSet(root, OPEN_FILES);

    expect(seen.pages).toBe(expected.length);
    expect(seen.paths).toEqual([...expected].sort());
    expect(seen.read).toBe(expected.length);
    expect(seen.skills).toBe(SKILLS);
    expect(seen.problems).toEqual([]);
  });
});
