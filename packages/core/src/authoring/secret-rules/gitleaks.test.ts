import { describe, expect, it } from 'vitest';
import { gitleaksScanner } from './gitleaks.js';
import { GITLEAKS_RULE_SET } from './gitleaks-rules.generated.js';
import { re2ToJs } from './re2.js';

describe('the bounded scan of generic-api-key', () => {
  // The rule without its entropy threshold and allowlists, so every regex match is a finding.
  const rule = { ...GITLEAKS_RULE_SET.rules.find((entry) => entry.id === 'generic-api-key')!, allowlists: [] };
  delete rule.entropy;
  const scan = gitleaksScanner({ version: 'test', allowlists: [], rules: [rule] });
  const plain = (text: string) => {
    const pattern = new RegExp(re2ToJs(rule.regex), 'g');
    return [...text.matchAll(pattern)].map((found) => found.index);
  };

  it('finds exactly the matches the whole regex finds at every position, on texts built to overlap', () => {
    const pieces = ['key', 'api', 'Token', '=', ':', '::=', ' ', '"', "'", 'Zx8q', 'Lm2R', '\n', ',', '?=', '||', '=>'];
    const more = [
      '_',
      '-',
      '.',
      'A',
      '9',
      '/',
      '+',
      '`',
      ';',
      '\\n',
      'password',
      'x'.repeat(45),
      ' filler-of.18 ch',
      'credential',
      'é',
    ];
    const alphabet = [...pieces, ...more];
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let matches = 0;
    for (let round = 0; round < 2000; round++) {
      let text = '';
      const length = 10 + Math.floor(random() * 120);
      for (let piece = 0; piece < length; piece++) text += alphabet[Math.floor(random() * alphabet.length)];
      const expected = plain(text);
      matches += expected.length;
      // The scanner reports a match without its surrounding line breaks; none of these start with one.
      expect(
        scan(text).map((finding) => finding.index),
        JSON.stringify(text),
      ).toEqual(expected.filter((index) => text[index] !== '\n'));
    }
    expect(matches).toBeGreaterThan(300);
  });

  it('finds a match whose separator is as far from its keyword as the rule allows', () => {
    // 50 characters of prefix, a 10-letter keyword, 20 of filler and 3 quotes before the "=".
    const text = `${'p'.repeat(60)}credential${'x'.repeat(20)}" '=Zx8qLm2Rt7YwZp3Kd8sF`;
    expect(plain(text)).toEqual([10]);
    expect(scan(text)).toEqual([{ rule: 'generic-api-key', index: 10, secret: 'Zx8qLm2Rt7YwZp3Kd8sF' }]);
  });
});
