import { describe, expect, it } from 'vitest';
import { changeRecord } from './author-tools.js';

const call = { viewer: { user: null, local: true }, channel: 'local' } as const;

describe('the summary a change is recorded with', () => {
  it('keeps 500 characters, counting an emoji as one, as the MCP tools check it', () => {
    const summary = '😀'.repeat(500);
    expect(changeRecord(call, 'write_page', summary, false).summary).toBe(summary);
  });

  it('cuts a longer one at 500 characters, never inside a character', () => {
    const record = changeRecord(call, 'write_page', `${'a'.repeat(499)}😀😀`, false);
    expect(record.summary).toBe(`${'a'.repeat(499)}😀`);
  });

  it('folds the summary onto one line', () => {
    expect(changeRecord(call, 'write_page', '  Fix\n the  queues ', false).summary).toBe('Fix the queues');
  });
});
