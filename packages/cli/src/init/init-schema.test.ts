import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createKitApp } from '@kit/http-hono';
import { loadKit } from '@kit/node';
import { describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

async function manifestOf(dir: string): Promise<{ text: string; json: Record<string, unknown> }> {
  const text = await readFile(join(dir, 'docs/kit.json'), 'utf8');
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}

describe("kit init writes the service's own schema address into kit.json", () => {
  it('uses --origin, which the server then answers at that very URL', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      const init = await runKitHere(['init', '--origin', 'https://docs.acme.dev/'], { cwd: dir });
      expect(init.code, init.stderr).toBe(0);
      const { json } = await manifestOf(dir);
      expect(json.$schema).toBe('https://docs.acme.dev/schemas/3.x/kit.json');

      const kit = await loadKit({ cwd: dir, git: false, env: {} });
      try {
        const app = createKitApp({ kit, cacheDir: null, origin: 'https://docs.acme.dev' });
        const response = await app.request(json.$schema as string);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('application/schema+json');
        const schema = (await response.json()) as { $id: string; title: string };
        expect(schema.$id).toBe(json.$schema);
        expect(schema.title).toContain('kit.json');
      } finally {
        await kit.close();
      }
    } finally {
      await cleanup();
    }
  });

  it('falls back to KIT_URL, then to the address kit serve listens on', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      await runKitHere(['init'], { cwd: dir, env: { KIT_URL: 'https://handbook.example.org' } });
      expect((await manifestOf(dir)).json.$schema).toBe('https://handbook.example.org/schemas/3.x/kit.json');
    } finally {
      await cleanup();
    }
    const bare = await tempProject();
    try {
      await runKitHere(['init'], { cwd: bare.dir, env: {} });
      expect((await manifestOf(bare.dir)).json.$schema).toBe('http://127.0.0.1:4000/schemas/3.x/kit.json');
    } finally {
      await bare.cleanup();
    }
  });

  it('upgrades the $schema of an existing manifest and changes nothing else in it', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      await writeFiles(dir, {
        'docs/kit.json': `${JSON.stringify({ name: 'Acme', 'x-team': 'docs', theme: { radius: 'soft' } }, null, 2)}\n`,
        'docs/index.md': '# Acme\n',
      });
      const init = await runKitHere(['init', '--origin', 'https://docs.acme.dev'], { cwd: dir });
      expect(init.stdout).toContain('updated  docs/kit.json ($schema)');
      expect(init.stdout).not.toContain('kept     docs/kit.json');
      const { text } = await manifestOf(dir);
      expect(text).toBe(
        `${JSON.stringify({ $schema: 'https://docs.acme.dev/schemas/3.x/kit.json', name: 'Acme', 'x-team': 'docs', theme: { radius: 'soft' } }, null, 2)}\n`,
      );

      // The old fixed address is upgraded too; a current one at another address is left alone.
      await writeFiles(dir, {
        'docs/kit.json': '{\n  "$schema": "https://kit.dev/schemas/3.x/kit.json",\n  "name": "Acme"\n}\n',
      });
      await runKitHere(['init', '--origin', 'https://docs.acme.dev'], { cwd: dir });
      expect((await manifestOf(dir)).json.$schema).toBe('https://docs.acme.dev/schemas/3.x/kit.json');
      const again = await runKitHere(['init', '--origin', 'http://localhost:8080'], { cwd: dir });
      expect(again.stdout).toContain('Nothing to do');
      expect((await manifestOf(dir)).json.$schema).toBe('https://docs.acme.dev/schemas/3.x/kit.json');
    } finally {
      await cleanup();
    }
  });

  it('refuses an --origin with a path, naming the option', async () => {
    const { dir, cleanup } = await tempProject();
    try {
      const init = await runKitHere(['init', '--origin', 'https://docs.acme.dev/docs'], { cwd: dir });
      expect(init.code).toBe(1);
      expect(init.stderr).toContain('--origin must be an absolute http or https origin');
    } finally {
      await cleanup();
    }
  });
});
