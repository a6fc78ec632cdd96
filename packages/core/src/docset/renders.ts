import type { ResolvedSetConfig } from '../config/types.js';
import { contentHash } from '../hash/content-hash.js';
import type { SourcePage } from '../model/types.js';
import type { CacheStore } from '../ports/cache-store.js';
import type { ContentChange } from '../ports/content-source.js';
import type { PageRenderer, RenderContext, RenderedPage } from '../ports/renderer.js';
import type { UrlLayout } from '../urls/set-urls.js';
import type { ManifestReader } from './manifest-state.js';
import { createRenderContext, mayIncludeSnippets } from './render-context.js';
import { inScope } from './scoped-map.js';

/** `html` renders for reader pages; `agent` renders skip syntax highlighting (agent Markdown, search, validation). */
export type RenderPurpose = 'html' | 'agent';

/** A render cached in memory: of which page and text, under which renderer generation, and its result once settled. */
interface RenderEntry {
  version: string;
  locale: string;
  path: string;
  hash: string;
  generation: number;
  result: Promise<RenderedPage>;
  done?: RenderedPage;
}

/** What a render part needs from its doc set. */
export interface RendersOptions {
  set: string;
  config: ResolvedSetConfig;
  sourceKind: 'repository' | 'database';
  renderer: PageRenderer;
  manifest: ManifestReader;
  origin: string;
  /** Most renders cached in memory. */
  maxRendered: number;
  store?: CacheStore | undefined;
}

/** A set's renders: cached in memory by page and text (least recently used out first), and in the cache store. */
export interface Renders {
  render(page: SourcePage, purpose: RenderPurpose): Promise<RenderedPage>;
  context(layout: UrlLayout, version: string, locale: string, purpose: RenderPurpose): RenderContext;
  /** The renderer's `generation()`: a render made under another one is not reused. */
  generation(): number;
  /** What produced a stored render (see `rendererFingerprint`), or null when renders are not stored. */
  fingerprint(): Promise<string | null>;
  clear(): void;
  invalidate(change: ContentChange): void;
}

function renderKey(version: string, locale: string, path: string, purpose: RenderPurpose): string {
  return `${version}\u0000${locale}\u0000${purpose}\u0000${path}`;
}

/** The render part of a doc set. */
export function createRenders(options: RendersOptions): Renders {
  const { renderer, manifest } = options;
  const entries = new Map<string, RenderEntry>();
  const generation = () => renderer.generation?.() ?? 0;

  const context = (layout: UrlLayout, version: string, locale: string, purpose: RenderPurpose): RenderContext =>
    createRenderContext({
      set: options.set,
      config: options.config,
      sourceKind: options.sourceKind,
      layout,
      version,
      locale,
      origin: options.origin,
      // Agent Markdown and search sections never show highlighted code; skipping it is most of a render's cost.
      highlight: purpose === 'html',
    });

  /** A render in memory of this very text under the current generation, or undefined. */
  function cachedEntry(page: SourcePage, purpose: RenderPurpose): RenderEntry | undefined {
    const key = renderKey(page.version, page.locale, page.path, purpose);
    const entry = entries.get(key);
    if (!entry || entry.hash !== page.contentHash || entry.generation !== generation()) return undefined;
    return entry;
  }

  function keep(page: SourcePage, purpose: RenderPurpose, result: Promise<RenderedPage>): void {
    const key = renderKey(page.version, page.locale, page.path, purpose);
    const { version, locale, path, contentHash: hash } = page;
    const entry: RenderEntry = { version, locale, path, hash, generation: generation(), result };
    entries.set(key, entry);
    result.then(
      (done) => {
        entry.done = done;
        // Cut short by a deadline or a crashed worker: the next request renders the page again.
        if (done.provisional && entries.get(key) === entry) entries.delete(key);
      },
      () => {
        if (entries.get(key)?.result === result) entries.delete(key);
      },
    );
    while (entries.size > options.maxRendered) entries.delete(entries.keys().next().value as string);
  }

  async function render(page: SourcePage, purpose: RenderPurpose): Promise<RenderedPage> {
    const { layout, text } = await manifest.load();
    const cached = cachedEntry(page, purpose);
    if (cached) {
      // Most recently used last.
      const key = renderKey(page.version, page.locale, page.path, purpose);
      entries.delete(key);
      entries.set(key, cached);
      return cached.result;
    }
    // Highlighting changes only the HTML: a finished reader render of the same text serves agent
    // Markdown, sections and search as well, so the page is not parsed a second time.
    const reader = purpose === 'agent' ? cachedEntry(page, 'html')?.done : undefined;
    if (reader) return reader;
    const result = renderThrough(options, page, context(layout, page.version, page.locale, purpose), text);
    keep(page, purpose, result);
    return result;
  }

  return {
    render,
    context,
    generation,
    fingerprint: () => rendererFingerprint(renderer),
    clear: () => entries.clear(),
    invalidate(change) {
      if (change.kind === 'manifest') entries.clear();
      if (change.kind !== 'page') return;
      for (const [key, entry] of entries) {
        if (inScope(change, entry.version, entry.locale) && (change.path === undefined || change.path === entry.path)) {
          entries.delete(key);
        }
      }
    },
  };
}

/** Renders a page, or takes the render another process sharing the cache store left there. */
async function renderThrough(
  options: RendersOptions,
  page: SourcePage,
  context: RenderContext,
  manifestText: string | null,
): Promise<RenderedPage> {
  const { store, renderer } = options;
  const storeKey = store ? await renderStoreKey(options, page, context, manifestText) : null;
  if (!store || !storeKey) return renderer.render(page, context);
  const hit = await store.get<RenderedPage>(storeKey).catch(() => undefined);
  if (isRenderedPage(hit)) return hit;
  const result = await renderer.render(page, context);
  // A page answered as text is cheap to answer again, and when a render deadline or a crashed
  // render worker cut it short, the answer belongs to that moment: it is not shared or cached.
  if (!result.provisional && !result.problems.some((problem) => problem.rule === 'markdown.complexity')) {
    await store.set(storeKey, result).catch(() => {});
  }
  return result;
}

/**
 * What produced a stored render: the renderer's fingerprint (its code, libraries and components),
 * or null for a renderer that gives none, whose renders then stay out of the store. Without it a
 * server of a new release sharing Redis with an old one would serve the old renders for a day.
 */
async function rendererFingerprint(renderer: PageRenderer): Promise<string | null> {
  if (!renderer.fingerprint) return null;
  return renderer.fingerprint().catch(() => null);
}

/**
 * A render's key in the cache store: the page's content hash plus a hash of everything else the
 * output depends on (the renderer, the render context, the set's routes and manifest, which fix
 * every link), so a changed page, manifest or renderer never meets an old entry. Null for a page
 * that includes snippet files, which can change while the page does not, and for a renderer
 * without a fingerprint.
 */
async function renderStoreKey(
  options: RendersOptions,
  page: SourcePage,
  context: RenderContext,
  manifestText: string | null,
): Promise<string | null> {
  if (context.snippetsRoot !== null && mayIncludeSnippets(page.body)) return null;
  const made = await rendererFingerprint(options.renderer);
  if (made === null) return null;
  const inputs = JSON.stringify([
    made,
    page.path,
    page.file ?? null,
    page.bodyLine,
    context,
    options.config.route,
    manifestText,
  ]);
  return `v1:render:${options.set}:${page.contentHash}:${contentHash(inputs).slice('sha256:'.length)}`;
}

/** Whether a value read from a cache store has the shape of a render (a shared store may hold anything). */
function isRenderedPage(value: unknown): value is RenderedPage {
  const page = value as Partial<RenderedPage> | null | undefined;
  return (
    typeof page?.html === 'string' &&
    typeof page.markdown === 'string' &&
    Array.isArray(page.sections) &&
    Array.isArray(page.toc) &&
    Array.isArray(page.anchors) &&
    Array.isArray(page.links) &&
    Array.isArray(page.problems)
  );
}
