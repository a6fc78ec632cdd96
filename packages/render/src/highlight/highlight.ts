import type { Element } from 'hast';
import { LruCache } from '../render/lru.js';

type Highlighter = Awaited<ReturnType<typeof import('shiki')['createHighlighter']>>;

let highlighter: Promise<{ shiki: typeof import('shiki'); highlighter: Highlighter }> | undefined;
const loading = new Map<string, Promise<boolean>>();
// Keyed by language and the code itself, so equal blocks across pages and versions are highlighted once.
const cache = new LruCache<string, Element>(2000);

function load() {
  // The JavaScript regex engine needs no WebAssembly: it starts faster and works under every loader
  // (the inlined Oniguruma WASM fails to load through tsx on Node 20).
  highlighter ??= Promise.all([import('shiki'), import('shiki/engine/javascript')]).then(async ([shiki, engine]) => ({
    shiki,
    highlighter: await shiki.createHighlighter({
      themes: ['github-light', 'github-dark'],
      langs: [],
      engine: engine.createJavaScriptRegexEngine({ forgiving: true }),
    }),
  }));
  return highlighter;
}

async function ensureLanguage(lang: string): Promise<boolean> {
  const { shiki, highlighter: instance } = await load();
  if (instance.getLoadedLanguages().includes(lang)) return true;
  if (!(lang in shiki.bundledLanguages)) return false;
  let pending = loading.get(lang);
  if (!pending) {
    pending = instance.loadLanguage(lang as never).then(
      () => true,
      () => false,
    );
    loading.set(lang, pending);
  }
  return pending;
}

// github-dark's comment gray (#6a737d) is 3.8:1 on the dark code background, below WCAG AA's 4.5:1;
// github's own newer dark theme uses #8b949e (5.9:1), so comments stay muted and readable.
const DARK_CONTRAST_FIXES = { 'github-dark': { '#6a737d': '#8b949e' } };

/**
 * Highlights one code block with shiki (light and dark themes as CSS variables), loading the
 * language grammar on first use. Returns null for languages shiki does not know; the caller then
 * renders a plain block. Results are cached by content.
 */
export async function highlightCode(code: string, lang: string): Promise<Element | null> {
  const language = lang.toLowerCase();
  const key = `${language}\u0000${code}`;
  const cached = cache.get(key);
  if (cached) return structuredClone(cached);
  if (!(await ensureLanguage(language))) return null;
  const { highlighter: instance } = await load();
  const root = instance.codeToHast(code, {
    lang: language,
    themes: { light: 'github-light', dark: 'github-dark' },
    colorReplacements: DARK_CONTRAST_FIXES,
  });
  const pre = root.children.find((child): child is Element => child.type === 'element');
  if (!pre) return null;
  cache.set(key, pre);
  return structuredClone(pre);
}
