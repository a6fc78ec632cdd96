import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localeDirection, schemas } from '@kit/core/internal';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READER_STRINGS } from '../strings.js';
import { READER_TRANSLATION_LANGUAGES, readerTranslation, TRANSLATED_READER_STRINGS } from './index.js';
import { READER_TRANSLATIONS } from './languages.js';

// The languages Starlight ships interface translations for, and every right-to-left code Kit
// recognises (packages/core/src/manifest/locales.ts).
const STARLIGHT = [
  'ar',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'es',
  'fa',
  'fi',
  'fr',
  'gl',
  'he',
  'hi',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lv',
  'nb',
  'nl',
  'pl',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sk',
  'sv',
  'th',
  'tr',
  'uk',
  'vi',
  'zh-CN',
  'zh-TW',
];
const RIGHT_TO_LEFT = ['ar', 'he', 'iw', 'fa', 'ur', 'yi', 'ji', 'ps', 'sd', 'ug', 'ckb', 'dv'];

describe('interface translations', () => {
  it('cover every language Starlight ships and every right-to-left code, with every common string', () => {
    for (const code of [...STARLIGHT, ...RIGHT_TO_LEFT]) {
      const translation = readerTranslation(code);
      expect(translation, code).not.toBeNull();
      for (const key of TRANSLATED_READER_STRINGS) {
        expect(translation!.strings[key]?.trim(), `${code} ${key}`).toBeTruthy();
      }
    }
    for (const code of RIGHT_TO_LEFT) expect(localeDirection(code), code).toBe('rtl');
  });

  it('translate every interface string into every language, with no English fallback', () => {
    expect([...TRANSLATED_READER_STRINGS].sort()).toEqual(Object.keys(DEFAULT_READER_STRINGS).sort());
    expect(Object.keys(READER_TRANSLATIONS).sort()).toEqual([...READER_TRANSLATION_LANGUAGES].sort());
    for (const code of READER_TRANSLATION_LANGUAGES) {
      const { strings } = readerTranslation(code)!;
      expect(Object.keys(strings).sort(), code).toEqual(Object.keys(DEFAULT_READER_STRINGS).sort());
    }
  });

  it('keep every placeholder of the English string, once, and no other', () => {
    for (const code of READER_TRANSLATION_LANGUAGES) {
      const { strings } = readerTranslation(code)!;
      for (const [key, english] of Object.entries(DEFAULT_READER_STRINGS)) {
        const placeholders = (text: string) => (text.match(/\{[a-z]+\}/g) ?? []).sort();
        expect(placeholders(strings[key as keyof typeof strings]!), `${code} ${key}`).toEqual(placeholders(english));
      }
    }
  });

  it('keep the shape of each string: an ellipsis where the English has one, no stray whitespace', () => {
    for (const code of READER_TRANSLATION_LANGUAGES) {
      const { strings } = readerTranslation(code)!;
      for (const [key, english] of Object.entries(DEFAULT_READER_STRINGS)) {
        const text = strings[key as keyof typeof strings]!;
        expect(text, `${code} ${key}`).toBe(text.trim());
        expect(text.includes('…'), `${code} ${key}`).toBe(english.includes('…'));
      }
    }
  });

  it('are real translations: no row repeats the English of its interface strings', () => {
    for (const code of READER_TRANSLATION_LANGUAGES) {
      const { strings } = readerTranslation(code)!;
      for (const key of [
        'onThisPage',
        'editPage',
        'helpfulQuestion',
        'backHome',
        'notFoundText',
        'copyPageHint',
        'askNotice',
        'searchKeyClose',
      ] as const) {
        expect(strings[key], `${code} ${key}`).not.toBe(DEFAULT_READER_STRINGS[key]);
      }
    }
  });

  it('find a language by its region or script variant and by old codes, and none for English', () => {
    expect(readerTranslation('ar-EG')?.strings.search).toBe('بحث');
    expect(readerTranslation('pt-BR')?.lang).toBe('pt');
    expect(readerTranslation('zh-Hant-HK')?.lang).toBe('zh-TW');
    expect(readerTranslation('zh')?.lang).toBe('zh-CN');
    expect(readerTranslation('iw')?.lang).toBe('he');
    expect(readerTranslation('en')).toBeNull();
    expect(readerTranslation('en-GB')).toBeNull();
    expect(readerTranslation('xx')).toBeNull();
  });

  it('name in the manifest schema exactly the strings a set may override', () => {
    const strings = (
      schemas.larecipe.properties as Record<string, { additionalProperties: { propertyNames: { enum: string[] } } }>
    ).strings!;
    expect(strings.additionalProperties.propertyNames.enum).toEqual(Object.keys(DEFAULT_READER_STRINGS));
  });
});

describe('the manifest reference', () => {
  it('lists every interface string a set may override with its English default', () => {
    const page = readFileSync(join(import.meta.dirname, '../../../../../apps/site/reference/manifest.md'), 'utf8');
    for (const [name, english] of Object.entries(DEFAULT_READER_STRINGS)) {
      expect(page, name).toContain(`| \`${name}\` | ${english.replaceAll('|', '\\|')} |`);
    }
  });
});
