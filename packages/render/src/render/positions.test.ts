import { describe, expect, it } from 'vitest';
import { continuationPrefix, indentLines, lineIndex, outdentLines, valueOffsets } from './positions.js';

describe('valueOffsets', () => {
  it('maps a value with container prefixes stripped back onto the source, line by line', () => {
    const source = '- item\n\n  <Panel>\n  See x.\n  </Panel>\n';
    const start = source.indexOf('<Panel>');
    const end = source.indexOf('</Panel>') + '</Panel>'.length;
    const value = '<Panel>\nSee x.\n</Panel>';
    const map = valueOffsets(source, start, end, value);
    expect(map).not.toBeNull();
    expect(source[map!(value.indexOf('x.'))]).toBe('x');
    expect(source.slice(map!(value.indexOf('</Panel>')), end)).toBe('</Panel>');
  });

  it('returns null when the value does not line up with the source', () => {
    expect(valueOffsets('abc\ndef', 0, 7, 'abc\nxyz')).toBeNull();
  });
});

describe('lineIndex', () => {
  it('gives 1-based lines and columns', () => {
    const locate = lineIndex('ab\ncd\n\nef');
    expect(locate(0)).toEqual({ line: 1, column: 1 });
    expect(locate(4)).toEqual({ line: 2, column: 2 });
    expect(locate(7)).toEqual({ line: 4, column: 1 });
  });
});

describe('continuation prefixes', () => {
  it('turns list markers into spaces and keeps quote markers', () => {
    expect(continuationPrefix('- <<< x', 2)).toBe('  ');
    expect(continuationPrefix('> 1. <<< x', 5)).toBe('>    ');
    expect(continuationPrefix('Text <Badge />', 5)).toBeNull();
  });

  it('indents and outdents every line but the first', () => {
    expect(indentLines('a\n\nb', '> ')).toBe('a\n>\n> b');
    expect(outdentLines('a\n  b\n\nc', '  ')).toBe('a\nb\n\nc');
    expect(outdentLines('a\n> b\n>\nc', '> ')).toBe('a\nb\n\nc');
  });
});
