import type { ValidationIssue } from '@kit/core';
import { describe, expect, it } from 'vitest';
import { formatReport } from './validate.js';

const issue = (severity: 'error' | 'warning'): ValidationIssue => ({
  rule: severity === 'error' ? 'links.broken' : 'links.anchor',
  severity,
  message: `An ${severity}.`,
  file: 'index.md',
  line: 1,
  set: 'docs',
});

function lastLine(issues: ValidationIssue[], set?: string): string {
  const errors = issues.filter((found) => found.severity === 'error').length;
  const text = formatReport({
    ok: errors === 0,
    ...(set !== undefined ? { set } : {}),
    summary: { errors, warnings: issues.length - errors },
    issues,
  });
  return text.trimEnd().split('\n').at(-1)!;
}

describe('the summary line of kit validate', () => {
  it('counts errors and warnings in words and names the set', () => {
    expect(lastLine([issue('error'), issue('warning')], 'docs')).toBe('1 error and 1 warning in the docs set "docs".');
    expect(lastLine([issue('error'), issue('error'), issue('warning'), issue('warning')], 'docs')).toBe(
      '2 errors and 2 warnings in the docs set "docs".',
    );
  });

  it('leaves out a count of zero', () => {
    expect(lastLine([issue('warning')], 'docs')).toBe('1 warning in the docs set "docs".');
    expect(lastLine([issue('error')])).toBe('1 error in the docs.');
    expect(lastLine([], 'docs')).toBe('No problems found in the docs set "docs".');
  });
});
