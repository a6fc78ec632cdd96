import type { Element } from 'hast';
import { LruCache } from '../render/lru.js';

type Highlighter = Awaited<ReturnType<typeof import('shiki')['createHighlighter']>>;
interface Loaded {
  shiki: typeof import('shiki');
  highlighter: Highlighter;
  toHtml: typeof import('hast-util-to-html').toHtml;
}

let highlighter: Promise<Loaded> | undefined;
// Set once shiki has loaded, so readiness can be answered without waiting.
let loaded: Loaded | undefined;
const loading = new Map<string, Promise<boolean>>();
// Languages highlighting no longer waits for: grammar loaded and a first block tokenized (its common
// rules compiled), or found unknown or broken (rendered plain, nothing to wait for).
const settled = new Set<string>();
const warming = new Map<string, Promise<void>>();
// Keyed by language and the code itself, so equal blocks across pages and versions are highlighted once.
const cache = new LruCache<string, Element>(2000);

function load() {
  // The JavaScript regex engine needs no WebAssembly: it starts faster and works under every loader
  // (the inlined Oniguruma WASM once failed to load through tsx).
  // shiki writes its own HTML with hast-util-to-html, so it comes along at no extra cost.
  highlighter ??= Promise.all([import('shiki'), import('shiki/engine/javascript'), import('hast-util-to-html')]).then(
    async ([shiki, engine, html]) => {
      loaded = {
        shiki,
        highlighter: await shiki.createHighlighter({
          themes: ['github-light', 'github-dark'],
          langs: [],
          engine: engine.createJavaScriptRegexEngine({ forgiving: true }),
        }),
        toHtml: html.toHtml,
      };
      return loaded;
    },
  );
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
// github-light's orange (#e36209, parameters and constants) is 3.5:1 on white; #a84c00 is 5.7:1.
// Its red (#d73a49, keywords), green (#22863a) and comment gray (#6a737d) pass on white by a hair
// and fail on the tint of a highlighted line ({2}); these darker ones keep 4.5:1 there too.
const DARK_CONTRAST_FIXES = {
  'github-dark': { '#6a737d': '#8b949e' },
  'github-light': { '#e36209': '#a84c00', '#d73a49': '#c5283d', '#22863a': '#116329', '#6a737d': '#57606a' },
};

/** Inclusive 1-based line ranges of a code block to mark, e.g. `[[2, 2], [4, 5]]` for `{2,4-5}`. */
export type LineRanges = Array<[number, number]>;

const LINE_MARKS = /\{([\d\s,-]+)\}/;

/** What a fence's info string says beyond the language: the lines it marks and the file it shows. */
export interface FenceInfo {
  /** The language (`''` when the fence names none). */
  lang: string;
  lines: LineRanges;
  /** The file title, from `title="routes/web.php"` or `title='routes/web.php'`; absent without one. */
  title?: string;
}

// `title="..."` or `title='...'` anywhere in the info string, after the language or another part.
const TITLE = /(?:^|\s)title=(?:"([^"]*)"|'([^']*)')/;

/**
 * Splits a fence's info string into the language, the lines it marks and its file title,
 * VitePress and Docusaurus style: ```` ```js {2,4-5} ```` and ```` ```js{2} ```` both give `js`
 * and lines 2, 4 and 5; ```` ```php title="routes/web.php" ```` gives `php` and that title. Parts
 * that are not numbers, ranges or a quoted title are ignored. A fence whose info string starts
 * with the title names no language.
 *
 * @example
 * fenceInfo('js{2}', null); // { lang: 'js', lines: [[2, 2]] }
 * fenceInfo('php', '{1,3-4} title="x"'); // { lang: 'php', lines: [[1, 1], [3, 4]], title: 'x' }
 */
export function fenceInfo(lang: string, meta: string | null | undefined): FenceInfo {
  const brace = lang.indexOf('{');
  const named = brace === -1 ? lang : lang.slice(0, brace);
  const language = /^title=/i.test(named) ? '' : named;
  const rest = language === '' ? lang : brace === -1 ? '' : lang.slice(brace);
  const info = `${rest} ${meta ?? ''}`;
  const lines: LineRanges = [];
  const marks = LINE_MARKS.exec(info)?.[1];
  for (const part of marks?.split(',') ?? []) {
    const range = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!range) continue;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from >= 1 && to >= from) lines.push([from, to]);
  }
  const quoted = TITLE.exec(info);
  const title = (quoted?.[1] ?? quoted?.[2])?.trim();
  return title ? { lang: language, lines, title } : { lang: language, lines };
}

/** Adds the `highlighted` class to the marked `.line` spans of a shiki block. */
function markLines(pre: Element, lines: LineRanges): void {
  const code = pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  let number = 0;
  for (const child of code?.children ?? []) {
    if (child.type !== 'element' || child.tagName !== 'span') continue;
    number++;
    if (!lines.some(([from, to]) => number >= from && number <= to)) continue;
    // shiki writes `class` as a plain string property, not hast's usual `className` list.
    const properties = child.properties as Record<string, unknown>;
    if (typeof properties.class === 'string') properties.class = `${properties.class} highlighted`;
    else {
      const className = properties.className;
      properties.className = [...(Array.isArray(className) ? className.map(String) : []), 'highlighted'];
    }
  }
}

/**
 * Highlights one code block with shiki (light and dark themes as CSS variables), loading the
 * language grammar on first use, and marks `lines` (see {@link fenceInfo}) with the `highlighted`
 * class. Returns null for languages shiki does not know; the caller then renders a plain block.
 * Results are cached by content.
 */
export async function highlightCode(code: string, lang: string, lines: LineRanges = []): Promise<Element | null> {
  const language = lang.toLowerCase();
  const key = `${language}\u0000${code}`;
  const cached = cache.get(key);
  if (cached) return marked(structuredClone(cached), lines);
  if (!(await ensureLanguage(language))) return null;
  // A grammar's regular expressions compile on their first match, and shiki cuts a line short
  // (the rest of it one plain token) when tokenizing takes over its time limit: on a busy machine
  // the first block of a language came out half colored, and was cached so. Warm first.
  if (!settled.has(language)) await warmLanguage(language, code);
  const { highlighter: instance } = await load();
  const root = instance.codeToHast(code, {
    lang: language,
    themes: { light: 'github-light', dark: 'github-dark' },
    colorReplacements: DARK_CONTRAST_FIXES,
  });
  const pre = root.children.find((child): child is Element => child.type === 'element');
  if (!pre) return null;
  cache.set(key, pre);
  return marked(structuredClone(pre), lines);
}

function marked(pre: Element, lines: LineRanges): Element {
  if (lines.length > 0) markLines(pre, lines);
  return pre;
}

/**
 * The HTML of a block {@link highlightCode} gave. Synchronous: such a block exists only once the
 * highlighter (and the serializer loaded with it) is there.
 */
export function highlightedHtml(element: Element): string {
  if (!loaded) throw new Error('highlightedHtml needs a block highlightCode returned.');
  return loaded.toHtml(element, { allowDangerousHtml: true });
}

// A fenced code block with a language: ```php ... ``` (or ~~~), closed by a fence at least as long.
// A fence that starts with `title="..."` names no language: the name must not run into `=`.
const FENCED_BLOCK =
  /^ {0,3}(`{3,}|~{3,})[ \t]*\{?\.?([A-Za-z0-9_+#.-]+)(?![A-Za-z0-9_+#.=-])[^\n]*\n([\s\S]*?)^ {0,3}\1[`~]*[ \t]*$/gm;

/**
 * The languages named by the code fences of a Markdown text, lower-cased, most used first, each
 * with its first block as a sample. A cheap scan (no parse), for deciding which grammars to load
 * before pages are rendered.
 *
 * @example
 * codeLanguages('```php\n$a;\n```\n```shell\nls\n```\n```php\n$b;\n```');
 * // [{ language: 'php', count: 2, sample: '$a;\n' }, { language: 'shell', count: 1, sample: 'ls\n' }]
 */
export function codeLanguages(markdown: string): Array<{ language: string; count: number; sample: string }> {
  const found = new Map<string, { language: string; count: number; sample: string }>();
  for (const match of markdown.matchAll(FENCED_BLOCK)) {
    const language = match[2]!.toLowerCase();
    const entry = found.get(language);
    if (entry) entry.count += 1;
    else found.set(language, { language, count: 1, sample: match[3]! });
  }
  return [...found.values()].sort((a, b) => b.count - a.count);
}

/**
 * True when highlighting code in these languages would not wait for anything: shiki is loaded and
 * every language shiki knows has its grammar loaded and warmed. When it returns false it starts
 * loading what is missing in the background, {@link BACKGROUND_START_MS} later, so a caller that
 * must answer at once can render without highlighting now and with it a moment later, and the page
 * it is answering does not share the processor with compiling grammars. A server that calls
 * {@link preloadLanguages} once its first page is out starts sooner.
 */
export function highlightReady(languages: Iterable<string>): boolean {
  let ready = true;
  for (const lang of languages) {
    const language = lang.toLowerCase();
    if (settled.has(language)) continue;
    if (loaded && !(language in loaded.shiki.bundledLanguages)) continue;
    ready = false;
    requested.add(language);
  }
  if (!ready || !loaded) startInBackground();
  return ready;
}

/** How long {@link highlightReady} waits before loading what it was asked about. */
export const BACKGROUND_START_MS = 250;

// Languages asked about by highlightReady and not loading yet.
const requested = new Set<string>();
let backgroundTimer: ReturnType<typeof setTimeout> | undefined;

function startInBackground(): void {
  if (backgroundTimer) return;
  backgroundTimer = setTimeout(() => {
    backgroundTimer = undefined;
    void load();
    const languages = [...requested];
    requested.clear();
    void preloadLanguages(languages);
  }, BACKGROUND_START_MS);
  // Loading grammars nobody waits for must not keep a finished process alive.
  backgroundTimer.unref?.();
}

/**
 * Loads and warms the grammars of these languages one after another, yielding to the event loop
 * between them, so a server can prepare the languages its docs use right after it starts without
 * holding up the requests it answers meanwhile. `samples` gives a code block per language to warm
 * with (the first block of the docs is a good one); a short generic line is used otherwise.
 */
export async function preloadLanguages(
  languages: Iterable<string>,
  samples: Record<string, string> = {},
): Promise<void> {
  for (const language of languages) {
    await warmLanguage(language.toLowerCase(), samples[language.toLowerCase()]);
    await new Promise((resume) => setTimeout(resume, 0));
  }
}

function warmLanguage(language: string, sample?: string): Promise<void> {
  if (settled.has(language)) return Promise.resolve();
  let pending = warming.get(language);
  if (!pending) {
    pending = (async () => {
      try {
        if (await ensureLanguage(language)) {
          // Loading a grammar is cheap; its regular expressions compile when they first match, which
          // is most of the cost of the first block in a language. Tokenize one block to pay it now.
          const { highlighter: instance } = await load();
          instance.codeToTokensBase(sample ?? 'x = 1 // warm-up', { lang: language as never, theme: 'github-light' });
        }
      } catch {
        // A grammar that fails renders as plain code, as highlightCode does for it.
      } finally {
        settled.add(language);
        warming.delete(language);
      }
    })();
    warming.set(language, pending);
  }
  return pending;
}
