import { DEFAULT_READER_STRINGS } from '../strings.js';
import type { ReaderStrings } from '../types.js';
import { LANGUAGE_ALIASES, READER_TRANSLATIONS } from './languages.js';

const byCode = new Map(Object.keys(READER_TRANSLATIONS).map((code) => [code.toLowerCase(), code]));

/** The translation for a locale code: the exact code, an alias, else its language (`pt-BR` → `pt`, `ar-EG` → `ar`). */
function translationCode(lang: string): string | null {
  const tag = lang.trim().toLowerCase().replace(/_/g, '-');
  const parts = tag.split('-');
  const candidates = [tag, parts.slice(0, 2).join('-'), parts[0]!];
  for (const candidate of candidates) {
    const code = byCode.get(candidate) ?? LANGUAGE_ALIASES[candidate];
    if (code) return code;
  }
  return null;
}

/**
 * Kit's translation of the interface strings into the language of `lang`, with the code of the
 * language they are in; null for English and for a language Kit has no translation for (the
 * English defaults stay). A set may still write its own strings in `kit.json`.
 *
 * @example
 * readerTranslation('pt-BR')?.strings.onThisPage // 'Nesta página'
 */
export function readerTranslation(lang: string): { lang: string; strings: Partial<ReaderStrings> } | null {
  const code = translationCode(lang);
  if (!code) return null;
  // A copy, so a caller that adds its own strings never changes the shared table.
  return { lang: code, strings: { ...READER_TRANSLATIONS[code]! } };
}

/** The interface strings Kit translates into every language it ships: all of them. */
export const TRANSLATED_READER_STRINGS: ReadonlyArray<keyof ReaderStrings> = Object.keys(
  DEFAULT_READER_STRINGS,
) as Array<keyof ReaderStrings>;

/** The language codes Kit ships interface translations for. */
export const READER_TRANSLATION_LANGUAGES: readonly string[] = Object.keys(READER_TRANSLATIONS);
