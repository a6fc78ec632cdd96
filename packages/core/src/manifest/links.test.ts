import { describe, expect, it } from 'vitest';
import { isSafeLink } from './links.js';
import { localeDirection, localeLabel } from './locales.js';

describe('isSafeLink', () => {
  it.each([
    'https://acme.dev',
    'http://acme.dev/x?y#z',
    'HTTPS://ACME.DEV',
    'mailto:a@b.c',
    '/docs/x',
    'guide/intro',
    '#top',
    '?q=1',
    './x',
    '../x',
  ])('accepts %s', (href) => expect(isSafeLink(href)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>',
    'vbscript:x',
    'file:///etc/passwd',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https://',
    'mailto:',
    '',
    '   ',
  ])('refuses %j', (href) => expect(isSafeLink(href)).toBe(false));

  it('accepts only absolute http(s) URLs for repositories', () => {
    expect(isSafeLink('https://github.com/a/b', 'web-url')).toBe(true);
    expect(isSafeLink('/docs', 'web-url')).toBe(false);
    expect(isSafeLink('mailto:a@b.c', 'web-url')).toBe(false);
    expect(isSafeLink('git@github.com:a/b.git', 'web-url')).toBe(false);
  });
});

describe('locales', () => {
  it.each(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'ckb', 'dv', 'ar-EG', 'AR', 'fa_IR', 'az-Arab'])(
    '%s is right to left',
    (code) => expect(localeDirection(code)).toBe('rtl'),
  );
  it.each(['en', 'fr', 'en-US', 'zh-Hant', 'sd-Deva', 'arn'])('%s is left to right', (code) =>
    expect(localeDirection(code)).toBe('ltr'),
  );

  it('labels a locale with its own name', () => {
    expect(localeLabel('en')).toBe('English');
    expect(localeLabel('de')).toBe('Deutsch');
    expect(localeLabel('es')).toBe('Español');
    expect(localeLabel('ja')).toBe('日本語');
  });

  it('falls back to the code for an unknown language', () => {
    expect(localeLabel('qq')).toBe('qq');
  });
});
