import { COLOR_MODE_STORAGE_KEY } from './client-config.js';
import type { ReaderTheme } from './types.js';

/** The UI font itself: what `fonts.sans` means when it is unset. */
const UI_FONT = 'ui-sans-serif, system-ui, -apple-system';
/** Named fallbacks for browsers without the system-ui keywords. */
const UI_FALLBACKS = '"Segoe UI", Roboto, "Helvetica Neue", Arial';
const SANS_STACK = `${UI_FONT}, ${UI_FALLBACKS}`;
/**
 * Family name of the bundled Arabic font (Noto Sans Arabic, served with the reader assets; see
 * `BUNDLED_ARABIC_FONT` in `assets.ts`). Kit's own name, so a different installed copy never
 * stands in for it.
 */
export const BUNDLED_ARABIC_FAMILY = 'Kit Noto Sans Arabic';
/** What `fonts.arabic` means when it is unset: the bundled font, then system Arabic fonts. */
const ARABIC_STACK = `"${BUNDLED_ARABIC_FAMILY}", "Noto Sans Arabic", "Segoe UI", Tahoma, "Geeza Pro", "Arabic Typesetting"`;
/**
 * What `fonts.mono` means when it is unset. The specification says "the UI font": the platform's UI
 * font in its monospace style (CSS `ui-monospace`, SF Mono on Apple systems), then common code
 * fonts. Code, labels and metadata are set in it, so code keeps its columns.
 */
const MONO_STACK = 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace';
const EMOJI_STACK = '"Apple Color Emoji", "Segoe UI Emoji", sans-serif';

/**
 * A CSS value from a manifest, or null when it could escape its declaration. Theme values end up
 * inside a `<style>` block, so braces, semicolons, angle brackets, backslashes and comments are
 * refused rather than escaped.
 */
export function safeCssValue(value: string | undefined): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 200) return null;
  if (/[;{}<>\\@]|\/\*|\*\//.test(trimmed)) return null;
  if (/url\s*\(|expression\s*\(|image-set\s*\(/i.test(trimmed)) return null;
  return trimmed;
}

/** A font family list: bare names that need it get quotes, unsafe ones are dropped. */
function fontList(value: string | undefined): string | null {
  const safe = safeCssValue(value);
  if (!safe) return null;
  const families = safe
    .split(',')
    .map((family) => family.trim())
    .filter(Boolean)
    .map((family) =>
      /^["'].*["']$/.test(family) || /^[a-z-]+$/i.test(family) ? family : `"${family.replace(/"/g, '')}"`,
    );
  return families.length ? families.join(', ') : null;
}

/**
 * The theme as CSS custom properties on `:root`. The Arabic font (the bundled one when `fonts.arabic`
 * is unset) sits right after the sans font (the UI font when `fonts.sans` is unset), so Latin text
 * uses the sans font and Arabic script the sans font has no glyphs for falls through to the Arabic
 * one.
 *
 * @example
 * themeCss({ accent: '#0e7490', radius: 'soft', fonts: { sans: 'Inter' }, mode: 'system' });
 * // ':root{--kit-font-sans:Inter, "Kit Noto Sans Arabic", "Noto Sans Arabic", …;--kit-radius:10px;…}'
 */
export function themeCss(theme: ReaderTheme): string {
  const sans = fontList(theme.fonts.sans);
  const arabic = fontList(theme.fonts.arabic) ?? ARABIC_STACK;
  const mono = fontList(theme.fonts.mono);
  const declarations = [
    // With no sans font the UI font leads: the Arabic stack ends in Latin-capable fonts (Tahoma)
    // that would otherwise set English text.
    `--kit-font-sans:${(sans ? [sans, arabic, SANS_STACK] : [UI_FONT, arabic, UI_FALLBACKS]).concat(EMOJI_STACK).join(', ')}`,
    `--kit-font-mono:${[mono, MONO_STACK].filter(Boolean).join(', ')}`,
    `--kit-radius:${theme.radius === 'soft' ? '10px' : '3px'}`,
    `--kit-radius-sm:${theme.radius === 'soft' ? '6px' : '2px'}`,
  ];
  const accent = safeCssValue(theme.accent);
  if (accent) declarations.push(`--kit-accent-user:${accent}`);
  return `:root{${declarations.join(';')}}`;
}

/**
 * The inline head script that applies the reader's remembered color mode before the first paint,
 * so a dark-mode reader never sees a white flash. Kept tiny and dependency-free on purpose.
 */
export function colorModeScript(defaultMode: ReaderTheme['mode']): string {
  const key = JSON.stringify(COLOR_MODE_STORAGE_KEY);
  const fallback = JSON.stringify(defaultMode);
  return (
    `(function(){var d=document.documentElement,m=${fallback};` +
    `try{var s=localStorage.getItem(${key});if(s==='light'||s==='dark'||s==='system')m=s}catch(e){}` +
    `d.setAttribute('data-mode-choice',m);` +
    `if(m==='system')m=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';` +
    `d.setAttribute('data-mode',m);d.classList.add('js')})();`
  );
}
