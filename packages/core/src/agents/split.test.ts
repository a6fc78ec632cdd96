import { describe, expect, it } from 'vitest';
import { effectiveLimit, groupSlug, MIN_AGENT_FILE_LIMIT, PartPacker, packParts, uniqueSlugs } from './split.js';

describe('packParts', () => {
  const head = (part: number) => `# Part ${part}\n`;
  const tail = (next: number) => `-> part ${next}\n`;

  it('keeps everything in one part when it fits', () => {
    expect(packParts(['a\n', 'b\n'], 100, head, tail)).toEqual(['# Part 1\na\nb\n']);
  });

  it('never passes the limit and loses nothing, cutting only an item too large for a part of its own, at line ends', () => {
    const items = ['short\n', `${'x'.repeat(30)}\n${'y'.repeat(30)}\n`, 'z'.repeat(95), 'end\n'];
    const parts = packParts(items, 60, head, tail);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(60);
    const bodies = parts.map((part, index) =>
      part.slice(head(index + 1).length, index < parts.length - 1 ? -tail(index + 2).length : undefined),
    );
    expect(bodies.join('')).toBe(items.join(''));
    // An item that does not fit after others starts the next part instead of being cut.
    expect(bodies[0]).toBe('short\n');
    expect(bodies[1]).toBe(`${'x'.repeat(30)}\n`);
  });

  it('does not split a surrogate pair', () => {
    const parts = packParts(
      ['😀'.repeat(40)],
      30,
      () => '',
      () => '',
    );
    expect(parts.join('')).toBe('😀'.repeat(40));
    for (const part of parts) expect(part).not.toMatch(/[\ud800-\udbff]$/);
  });
});

describe('PartPacker', () => {
  const head = (part: number) => `# Part ${part}\n`;
  const tail = (next: number) => `-> part ${next}\n`;

  it('places items as packParts does from their lengths, asking for the text only of an item it cuts', () => {
    const items = ['short\n', `${'x'.repeat(30)}\n${'y'.repeat(30)}\n`, 'z'.repeat(95), 'end\n', 'more\n'];
    const parts = packParts(items, 60, head, tail);
    const packer = new PartPacker(60, head, tail);
    const bodies: string[] = [];
    for (const item of items) {
      const cut = packer.cuts(item.length);
      expect(cut).toBe(item.length > 60 - head(1).length - tail(2).length);
      for (const piece of packer.add(item.length, cut ? item : undefined)) {
        bodies[piece.part - 1] = (bodies[piece.part - 1] ?? '') + item.slice(piece.start, piece.end);
      }
    }
    expect(packer.parts).toBe(parts.length);
    expect(
      bodies.map((body, index) => head(index + 1) + body + (index < bodies.length - 1 ? tail(index + 2) : '')),
    ).toEqual(parts);
    expect(() => new PartPacker(60, head, tail).add(95)).toThrow(/needs the text/);
  });
});

describe('group slugs', () => {
  it('are lowercase ASCII words joined by hyphens, by position when nothing is left', () => {
    expect(groupSlug('Getting Started', 0)).toBe('getting-started');
    expect(groupSlug('Café & Crème', 1)).toBe('cafe-creme');
    expect(groupSlug('البداية', 2)).toBe('group-3');
  });

  it('are unique and never "index"', () => {
    expect(uniqueSlugs(['Guides', 'Guides', 'Index'])).toEqual(['guides', 'guides-2', 'index-2']);
  });

  it('raise a tiny configured limit to the minimum', () => {
    expect(effectiveLimit(10)).toBe(MIN_AGENT_FILE_LIMIT);
    expect(effectiveLimit(50_000)).toBe(50_000);
  });
});
