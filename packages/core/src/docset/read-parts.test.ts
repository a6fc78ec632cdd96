import { describe, expect, it } from 'vitest';
import { decodeReadCursor, encodeReadCursor, nextPart } from './read-parts.js';

/** Every part from the start, as a reader following cursors would get them. */
function allParts(text: string, limit: number): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    const part = nextPart(text, start, limit);
    parts.push(text.slice(part.start, part.end));
    start = part.end;
  }
  return parts;
}

describe('nextPart', () => {
  const code = ['```php', ...Array.from({ length: 30 }, (_, line) => `$line${line} = ${line};`), '```'].join('\n');
  const text = [
    '# Title',
    '',
    'Intro paragraph. '.repeat(10),
    '',
    '## First',
    '',
    'First text. '.repeat(20),
    '',
    code,
    '',
    '## Second',
    '',
    'Second text. '.repeat(20),
    '',
  ].join('\n');

  it('cuts at the furthest heading that fills half the budget, naming it', () => {
    const first = nextPart(text, 0, text.indexOf('## Second') + 20);
    expect(text.slice(first.end).startsWith('## Second')).toBe(true);
    expect(first.nextSection).toBe('Second');
  });

  it('never cuts inside fenced code, and hands a block longer than the budget out whole', () => {
    const parts = allParts(text, 200);
    expect(parts.join('')).toBe(text);
    for (const part of parts) expect(part.split('\n').filter((line) => line.startsWith('```')).length % 2).toBe(0);
    expect(parts.some((part) => part.includes(code) && part.length > 200)).toBe(true);
  });

  it('returns the rest whole when it fits', () => {
    expect(nextPart(text, 10, text.length)).toEqual({ start: 10, end: text.length, nextSection: null });
  });
});

describe('read cursors', () => {
  it('round-trip their state as URL-safe text', () => {
    const state = {
      offset: 4711,
      hash: '0123456789abcdef',
      sections: ['Retrying Jobs', 'Prioritäten'],
      subsections: false,
      maxChars: 20_000,
    };
    const cursor = encodeReadCursor(state);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeReadCursor(cursor)).toEqual(state);
  });

  it('refuse anything the server did not hand out', () => {
    const forged = [
      'x y',
      '%%%',
      btoa(JSON.stringify([2, 0, 'h', null, 1, null])),
      btoa(JSON.stringify([1, -5, 'h', null, 1, null])),
      btoa(JSON.stringify([1, 0, 'h', null, 1, 10])),
    ];
    for (const cursor of forged) {
      expect(() => decodeReadCursor(cursor.replace(/=+$/, ''))).toThrow(
        expect.objectContaining({ code: 'argument.invalid' }),
      );
    }
  });
});
