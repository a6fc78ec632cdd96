import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';

describe('event listeners in kit.config', () => {
  it('hears the searches kit search runs', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      await writeFiles(dir, {
        'kit.config.mjs': `import { appendFileSync } from 'node:fs';
export default {
  events: {
    SearchPerformed: [
      (payload) => appendFileSync(${JSON.stringify(join(dir, 'heard.jsonl'))}, JSON.stringify(payload) + '\\n'),
      async () => { throw new Error('a broken listener'); },
    ],
  },
};
`,
        'docs/index.md': '---\ntitle: Home\n---\n\n# Home\n\nDeploy with zero downtime.\n',
      });
      const search = await runKitHere(['search', 'downtime', '--json'], { cwd: dir });
      expect(search.code, search.stderr).toBe(0);
      expect(JSON.parse(search.stdout).results).toHaveLength(1);
      const heard = (await readFile(join(dir, 'heard.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(heard).toEqual([
        { set: 'docs', version: 'current', locale: 'en', query: 'downtime', results: 1, source: 'cli' },
      ]);
    } finally {
      await cleanup();
    }
  });

  it('stops at an unknown event name with the nearest one', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      await writeFiles(dir, {
        'kit.config.mjs': 'export default { events: { SearchPerfomed: () => {} } };\n',
        'docs/index.md': '# Home\n',
      });
      const search = await runKitHere(['search', 'home'], { cwd: dir });
      expect(search.code).toBe(1);
      expect(search.stderr).toContain('unknown key `events.SearchPerfomed`; did you mean `events.SearchPerformed`?');
    } finally {
      await cleanup();
    }
  });
});
