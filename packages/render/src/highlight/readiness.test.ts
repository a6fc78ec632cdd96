import { describe, expect, it } from 'vitest';
import { codeLanguages, highlightCode, highlightReady, preloadLanguages } from './highlight.js';

describe('codeLanguages', () => {
  it('lists the fenced languages of a page, most used first, each with its first block', () => {
    const markdown = [
      '```php',
      '$a = 1;',
      '```',
      '',
      '~~~shell',
      'ls',
      '~~~',
      '',
      '````PHP',
      '$b = "```";',
      '````',
      '',
      '```',
      'no language',
      '```',
      '',
      '```title="notes.txt"',
      'a title, no language',
      '```',
      '',
      '```shell title="setup.sh"',
      'pwd',
      '```',
    ].join('\n');
    expect(codeLanguages(markdown)).toEqual([
      { language: 'php', count: 2, sample: '$a = 1;\n' },
      { language: 'shell', count: 2, sample: 'ls\n' },
    ]);
  });
});

describe('highlightReady', () => {
  it('says no while a grammar loads, starts loading it, and yes once it has', async () => {
    expect(highlightReady(['ini'])).toBe(false);
    await preloadLanguages(['ini'], { ini: '[section]\nkey = value\n' });
    expect(highlightReady(['ini'])).toBe(true);
    const pre = await highlightCode('[a]\nb = 1', 'ini');
    expect(pre?.tagName).toBe('pre');
  });

  it('does not wait for languages shiki does not know, which render as plain code', async () => {
    await preloadLanguages(['no-such-language']);
    expect(highlightReady(['no-such-language'])).toBe(true);
    expect(await highlightCode('x', 'no-such-language')).toBeNull();
  });

  it('loads in the background what it was asked about', async () => {
    expect(highlightReady(['toml'])).toBe(false);
    for (let tries = 0; tries < 500 && !highlightReady(['toml']); tries++) {
      await new Promise((resume) => setTimeout(resume, 10));
    }
    expect(highlightReady(['toml'])).toBe(true);
  });
});
