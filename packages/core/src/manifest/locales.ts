import type { TextDirection } from '../model/types.js';

/** Languages written right to left, by primary language subtag. */
const rtlLanguages = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'yi', 'ji', 'ps', 'sd', 'ug', 'ckb', 'dv']);
/** Scripts written right to left, for codes that name their script (`az-Arab`, `pa-Arab`). */
const rtlScripts = new Set(['arab', 'hebr', 'thaa', 'syrc', 'nkoo', 'adlm', 'rohg', 'mand', 'samr']);

/**
 * Text direction of a locale code: `rtl` for Arabic, Hebrew, Persian, Urdu, Yiddish, Pashto,
 * Sindhi, Uyghur, Central Kurdish and Dhivehi (with or without a region, `ar-EG`), and for any
 * code that names a right-to-left script (`az-Arab`); `ltr` otherwise, also for `sd-Deva`.
 */
export function localeDirection(code: string): TextDirection {
  const [language = '', ...rest] = code.trim().toLowerCase().split(/[-_]/);
  const script = rest.find((subtag) => subtag.length === 4 && /^[a-z]{4}$/.test(subtag));
  if (script !== undefined) return rtlScripts.has(script) ? 'rtl' : 'ltr';
  return rtlLanguages.has(language) ? 'rtl' : 'ltr';
}

/** Own names of common languages, for runtimes without full ICU data. */
const nativeNames: Record<string, string> = {
  en: 'English',
  ar: 'العربية',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  pt: 'Português',
  it: 'Italiano',
  nl: 'Nederlands',
  ru: 'Русский',
  uk: 'Українська',
  pl: 'Polski',
  cs: 'Čeština',
  sv: 'Svenska',
  da: 'Dansk',
  fi: 'Suomi',
  nb: 'Norsk bokmål',
  no: 'Norsk',
  el: 'Ελληνικά',
  tr: 'Türkçe',
  he: 'עברית',
  fa: 'فارسی',
  ur: 'اردو',
  hi: 'हिन्दी',
  bn: 'বাংলা',
  id: 'Indonesia',
  ms: 'Melayu',
  vi: 'Tiếng Việt',
  th: 'ไทย',
  zh: '中文',
  ja: '日本語',
  ko: '한국어',
  ro: 'Română',
  hu: 'Magyar',
};

function capitalize(text: string, locale: string): string {
  const first = text.charAt(0);
  try {
    return first.toLocaleUpperCase(locale) + text.slice(1);
  } catch {
    return first.toUpperCase() + text.slice(1);
  }
}

/**
 * The language's own name for a locale code, capitalized for a language switcher
 * (`fr` → `Français`, `ar` → `العربية`, `pt-BR` → `Português (Brasil)`). Uses
 * `Intl.DisplayNames` in the locale itself, then a table of common languages, then the code.
 */
export function localeLabel(code: string): string {
  const trimmed = code.trim();
  try {
    const name = new Intl.DisplayNames([trimmed], { type: 'language', fallback: 'none' }).of(trimmed);
    if (name && name.toLowerCase() !== trimmed.toLowerCase()) return capitalize(name, trimmed);
  } catch {
    // An unknown or malformed code, or a runtime without ICU data: fall through to the table.
  }
  const language = trimmed.toLowerCase().split(/[-_]/)[0] ?? '';
  return nativeNames[trimmed.toLowerCase()] ?? nativeNames[language] ?? trimmed;
}
