import { describe, expect, it } from 'vitest';
import { diffLines, unifiedDiff } from './diff.js';

describe('line diffs', () => {
  it('keeps, removes and adds lines around a change', () => {
    expect(diffLines('a\nb\nc\n', 'a\nx\nc\n')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
    ]);
  });

  it('prints a unified diff with hunk headers git would print, and nothing for equal texts', () => {
    const before = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n');
    const after = before.replace('line 2', 'line two').replace('line 11', 'line eleven');
    expect(unifiedDiff(before, after, { from: 'a/p.md', to: 'b/p.md' })).toBe(
      [
        '--- a/p.md',
        '+++ b/p.md',
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+line two',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -8,5 +8,5 @@',
        ' line 8',
        ' line 9',
        ' line 10',
        '-line 11',
        '+line eleven',
        ' line 12',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff('same\n', 'same\n', { from: 'a', to: 'b' })).toBe('');
  });

  it('shows a new or deleted page against /dev/null', () => {
    expect(unifiedDiff(null, '# New\n', { from: 'a/new.md', to: 'b/new.md' })).toBe(
      '--- /dev/null\n+++ b/new.md\n@@ -0,0 +1,1 @@\n+# New\n',
    );
    expect(unifiedDiff('# Old\n', null, { from: 'a/old.md', to: 'b/old.md' })).toBe(
      '--- a/old.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-# Old\n',
    );
  });
});
