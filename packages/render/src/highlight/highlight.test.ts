import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { highlightCode } from './highlight.js';

describe('highlightCode', () => {
  it('gives comments a dark-mode color that meets WCAG AA contrast on the dark code background', async () => {
    const pre = await highlightCode('// a comment\nconst x = 1;', 'js');
    const html = toHtml(pre!);
    expect(html).toContain('--shiki-dark:#8b949e');
    expect(html.toLowerCase()).not.toContain('--shiki-dark:#6a737d');
    // The light theme keeps github-light's own comment gray.
    expect(html).toMatch(/color:#6A737D;--shiki-dark:#8b949e/i);
  });
});
