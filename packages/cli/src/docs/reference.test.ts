import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../__fixtures__/kit-binary.js';
import { createContext } from '../context.js';
import { processIo } from '../io.js';
import { createProgram } from '../program.js';
import { CLI_REFERENCE_PAGE, renderCliReference } from './reference.js';

describe('the CLI reference page', () => {
  const generated = renderCliReference(createProgram(createContext(processIo())));

  it('is up to date with the command definitions (run pnpm --filter @kit/cli gen:docs)', async () => {
    const written = await readFile(join(repoRoot, CLI_REFERENCE_PAGE), 'utf8');
    expect(written).toBe(generated);
  });

  it('documents every command with its options', () => {
    for (const command of [
      'init',
      'serve',
      'validate',
      'affected',
      'agents',
      'hook',
      'mcp',
      'migrate',
      'search',
      'drafts',
      'drafts publish',
      'drafts discard',
      'history',
      'restore',
      'assets',
      'assets list',
      'assets add',
      'assets remove',
    ]) {
      expect(generated).toContain(`## kit ${command}\n`);
    }
    expect(generated).toContain('| `--drift` |');
    expect(generated).toContain('| links.anchor | warning |');
    expect(generated).toMatch(/^---\ntitle: CLI reference\ndescription: /);
  });
});
