import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { terminalText } from './notes.js';

describe('command notes in the terminal', () => {
  it('prints the rules of kit validate --help as a plain-text list, not a Markdown table', async () => {
    const run = await runKitHere(['validate', '--help'], { cwd: tmpdir() });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('| --- |');
    expect(run.stdout).not.toMatch(/^\|/m);
    expect(run.stdout).toContain('\n  links.broken (error)\n      a link to a page that does not exist');
    expect(run.stdout).toContain('\n  manifest.schema (error / warning)\n');
    expect(run.stdout).toContain('Exit codes: 0 no errors');
    for (const line of run.stdout.split('\n').filter((text) => text.startsWith('      '))) {
      expect(line.length).toBeLessThanOrEqual(100);
    }
  });

  it('keeps an escaped pipe inside a cell and drops code backticks', () => {
    expect(terminalText('| Key | Meaning |\n| --- | --- |\n| `a` | one \\| two |')).toBe('  a\n      one | two');
  });
});
