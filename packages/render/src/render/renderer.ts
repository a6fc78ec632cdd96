import {
  contentHash,
  defaultReferences,
  type PageRenderer,
  type RenderContext,
  type RenderedPage,
  type SourcePage,
  type SourceProblem,
  type TocEntry,
} from '@kit/core';
import type { ReferenceRegistry } from '@kit/core/internal';
import type { Root } from 'mdast';
import { referenceComponents } from '../components/references.js';
import { type ComponentRegistry, defaultComponents, escapeHtml } from '../components/registry.js';
import { tooComplex } from '../markdown/complexity.js';
import { createTreeReuse } from '../markdown/parse.js';
import { sectionsFromTree } from '../sections/sections.js';
import type { SnippetReader } from '../snippets/policy.js';
import { agentMarkdown } from './agent-edits.js';
import { nameHeadings } from './anchors.js';
import { createArticleWriter, highlightBlocks } from './article-html.js';
import { renderComponents } from './component-nodes.js';
import type { Edit } from './edits.js';
import { resolveIncludes } from './includes.js';
import { LruCache } from './lru.js';
import { createPageText, createProblemLog } from './page-text.js';
import { scanTree } from './scan.js';

export interface RendererOptions {
  /** Components PascalCase tags resolve to; default: the registry `registerComponent` fills. */
  components?: ComponentRegistry;
  /** Reads `<<< @/path` includes; without one every include is reported and left as written. */
  snippets?: SnippetReader;
  /**
   * Rendered pages kept in memory, keyed by content hash and render context.
   * @default 1000
   */
  cacheSize?: number;
  /**
   * What identifies the code this renderer runs (its own, Kit's and the libraries it renders
   * with): with it the renderer offers `fingerprint()`, which adds its components, and a doc set
   * keeps its renders in a cache store shared by processes. `createNodeRenderer` gives one made of
   * the installed files; without it renders stay in the process.
   */
  codeFingerprint?: () => Promise<string>;
  /**
   * Renders a page the cache does not hold somewhere else, e.g. on a worker thread with a deadline
   * (`kit serve` uses a render pool). The cache, and the check that included snippets are
   * unchanged, stay here. Default: renders on the calling thread.
   */
  executor?: RenderExecutor;
  /**
   * The application's routes, tables and event types `<Route>`, `<Model>` and `<Event>` describe;
   * default: the catalog `registerReferences` fills.
   */
  references?: ReferenceRegistry;
}

/** What rendering one page made: the page, and the snippet files it included with their text then. */
export interface RenderOutcome {
  page: RenderedPage;
  /** A render whose included file changed since is stale: the cache renders it again. */
  includes: Array<{ path: string; text: string }>;
}

/** Renders one page without a cache, wherever it runs. */
export type RenderExecutor = (page: SourcePage, context: RenderContext) => Promise<RenderOutcome>;

/** A renderer with its cache exposed for tests and hot reload. */
export interface KitRenderer extends PageRenderer {
  /** Forgets every cached render. Registering a component needs no call: the renderer notices. */
  clearCache(): void;
  /** Its components' `generation()`: changes whenever a component is registered or replaced. */
  generation(): number;
  /** Renders on the calling thread without the cache or the executor (what a render worker runs). */
  renderFresh(page: SourcePage, context: RenderContext, options?: RenderFreshOptions): Promise<RenderOutcome>;
}

/** What a fresh render may leave out. */
export interface RenderFreshOptions {
  /**
   * Write the article HTML. False skips it for a parsed page (its `html` is empty): after parsing
   * it is the largest part of a render, and validation never reads it. Everything else (problems,
   * links, anchors, sections, agent Markdown) is the same either way.
   * @default true
   */
  html?: boolean;
}

type CacheEntry = RenderOutcome;

function contextKey(page: SourcePage, context: RenderContext): string {
  return [
    page.contentHash,
    page.path,
    context.set,
    context.version,
    context.locale,
    context.versionSegment,
    context.pageUrl(page.path),
    context.linkBase ? `${context.linkBase.written}>${context.linkBase.served}` : '',
    context.origin,
    context.sanitize ? 'sanitize' : context.htmlInput,
    context.snippetsRoot ?? '',
    context.highlight === false ? 'plain' : 'highlight',
    context.references ? JSON.stringify(context.references) : '',
  ].join('\u0001');
}

/**
 * Creates the Markdown renderer: one parse per page to mdast, from which the article HTML, table
 * of contents, sections, anchors, links and the agent Markdown twin are all derived. Renders are
 * cached by content hash and context (LRU), so an unchanged page is never rendered twice.
 *
 * @example
 * const renderer = createRenderer({ snippets: createFsSnippetReader() }); // reader from '@kit/render/node'
 * const rendered = await renderer.render(page, context);
 */
export function createRenderer(options: RendererOptions = {}): KitRenderer {
  const references = options.references ?? defaultReferences;
  const components = withBuiltIns(options.components ?? defaultComponents, references);
  const cache = new LruCache<string, Promise<CacheEntry>>(options.cacheSize ?? 1000);
  let cachedGeneration = components.generation();
  // Pages unchanged between versions come one after the other (a render pool hands a worker all
  // of them at once): they are parsed once.
  const parse = createTreeReuse();

  async function stillFresh(entry: CacheEntry, context: RenderContext): Promise<boolean> {
    if (entry.includes.length === 0) return true;
    if (!options.snippets || !context.snippetsRoot) return false;
    for (const include of entry.includes) {
      const text = await options.snippets.read(context.snippetsRoot, include.path).catch(() => null);
      if (text !== include.text) return false;
    }
    return true;
  }

  return {
    async render(page, context) {
      // A component registered or replaced since: whether a tag is known, and what it renders, may differ.
      const generation = components.generation();
      if (generation !== cachedGeneration) {
        cache.clear();
        cachedGeneration = generation;
      }
      const key = contextKey(page, context);
      const cached = cache.get(key);
      if (cached) {
        const entry = await cached.catch(() => null);
        if (entry && (await stillFresh(entry, context))) return entry.page;
        cache.delete(key);
      }
      const pending = options.executor
        ? options.executor(page, context)
        : renderPage(page, context, components, options.snippets, parse);
      cache.set(key, pending);
      pending.catch(() => cache.delete(key));
      return (await pending).page;
    },
    clearCache() {
      cache.clear();
    },
    renderFresh: (page, context, fresh) =>
      renderPage(page, context, components, options.snippets, parse, fresh?.html !== false),
    generation: () => components.generation(),
    ...(options.codeFingerprint ? { fingerprint: fingerprinter(options.codeFingerprint, components, references) } : {}),
  };
}

/**
 * The registry a renderer resolves tags in: the application's components, then the built-in
 * `<Route>`, `<Model>` and `<Event>`. Its generation also moves when the reference catalog changes,
 * so renders of the old catalog are dropped like renders made before a component was registered.
 */
function withBuiltIns(own: ComponentRegistry, references: ReferenceRegistry): ComponentRegistry {
  const builtIns = referenceComponents(references);
  let seenOwn = own.generation();
  let seenCatalog = references.fingerprint();
  let generation = 0;
  return {
    register: (name, definition) => own.register(name, definition),
    get: (name) => own.get(name) ?? builtIns.get(name),
    names: () => [...new Set([...own.names(), ...builtIns.names()])].sort(),
    generation() {
      const ownNow = own.generation();
      const catalogNow = references.fingerprint();
      if (ownNow !== seenOwn || catalogNow !== seenCatalog) {
        seenOwn = ownNow;
        seenCatalog = catalogNow;
        generation += 1;
      }
      return generation;
    },
  };
}

/**
 * `fingerprint()` of a renderer: its code's fingerprint and a hash of the components it resolves
 * (names and code), hashed again whenever the registry's generation moves, since registering or
 * replacing a component changes what its pages render to.
 */
function fingerprinter(
  code: () => Promise<string>,
  components: ComponentRegistry,
  references: ReferenceRegistry,
): () => Promise<string> {
  let codePrint: Promise<string> | null = null;
  let hashedGeneration = -1;
  let componentsPrint = '';
  return async () => {
    codePrint ??= code();
    const generation = components.generation();
    if (generation !== hashedGeneration) {
      const text = components
        .names()
        .map((name) => {
          const { html, markdown } = (components.get(name) ?? {}) as { html?: unknown; markdown?: unknown };
          return `${name}\u0000${String(html)}\u0000${String(markdown)}`;
        })
        .join('\u0001');
      hashedGeneration = generation;
      componentsPrint = contentHash(`${text}\u0002${references.fingerprint()}`).slice(
        'sha256:'.length,
        'sha256:'.length + 16,
      );
    }
    return `${await codePrint}:${componentsPrint}`;
  };
}

async function renderPage(
  page: SourcePage,
  context: RenderContext,
  components: ComponentRegistry,
  reader: SnippetReader | undefined,
  parse: (markdown: string) => Root,
  withHtml = true,
): Promise<CacheEntry> {
  const complexity = tooComplex(page.body);
  if (complexity) return unparsedPage(page, complexity);
  try {
    return await renderParsed(page, context, components, reader, parse, withHtml);
  } catch (error) {
    // The guard bounds what it can count; a page that still exhausts the stack or the largest
    // string is shown as text like any other page too complex to render, never as an error.
    if (error instanceof RangeError) return unparsedPage(page, `the parser ran out of room: ${error.message}`);
    throw error;
  }
}

/**
 * One render, step by step: scan the tree (includes, components, callouts, links), name headings,
 * read includes, highlight code, render components, then write the HTML and the agent Markdown.
 * Each step adds its agent Markdown edits and problems in page order, as the twin needs.
 */
async function renderParsed(
  page: SourcePage,
  context: RenderContext,
  components: ComponentRegistry,
  reader: SnippetReader | undefined,
  parse: (markdown: string) => Root,
  withHtml: boolean,
): Promise<CacheEntry> {
  const tree = parse(page.body);
  const text = createPageText(page);
  const { problems, report } = createProblemLog(page, text);
  const edits: Edit[] = [];
  const scan = scanTree(tree, { text, context, pagePath: page.path, components, report, edits });
  const { headings, headingInfo, anchors, dropped } = nameHeadings(tree, { text, context, report, edits });
  const includes = await resolveIncludes(scan.includes, {
    text,
    context,
    reader,
    report,
    edits,
    codeBlocks: scan.codeBlocks,
  });
  const { highlighted, trusted } = await highlightBlocks(context, scan.codeBlocks, scan.lineMarks);
  const writer = createArticleWriter({
    context,
    headingInfo,
    dropped,
    callouts: scan.callouts,
    codeTitles: scan.codeTitles,
    highlighted,
    trusted,
  });
  await renderComponents(scan.componentNodes, {
    text,
    context,
    pagePath: page.path,
    components,
    report,
    edits,
    nodesToHtml: writer.nodesToHtml,
  });
  const html = withHtml ? await writer.articleToHtml(tree) : '';
  const toc: TocEntry[] = headings
    .filter((h) => h.topLevel && h.depth >= 2 && h.depth <= 3)
    .map((h) => ({ depth: h.depth, text: h.text, id: context.sanitize ? `user-content-${h.id}` : h.id }));
  return {
    page: {
      html,
      toc,
      markdown: agentMarkdown(text.source, edits),
      sections: sectionsFromTree(tree, headings),
      anchors,
      links: scan.links,
      problems,
    },
    includes,
  };
}

/**
 * A page answered as its text, with a notice naming why it was not rendered and a
 * `markdown.complexity` problem: what the complexity guard gives for a page past a limit, and what a
 * render pool gives for a page past its deadline.
 *
 * @example
 * pageTooComplex(page, 'it took longer than 10 seconds to render').html;
 */
export function pageTooComplex(page: SourcePage, reason: string): RenderedPage {
  return unparsedPage(page, reason).page;
}

function unparsedPage(page: SourcePage, reason: string): CacheEntry {
  const problem: SourceProblem = {
    rule: 'markdown.complexity',
    severity: 'warning',
    message: `The page is too complex to render: ${reason}. It is shown as plain text.`,
    fix: 'Flatten the nesting or split the page; real documentation never needs this.',
  };
  if (page.file) problem.file = page.file;
  const text = page.body.trim();
  return {
    page: {
      html: `<p class="kit-unparsed-notice" role="note">This page is too complex to render: ${escapeHtml(reason)}. Its text is shown as written.</p>\n<pre class="kit-unparsed">${escapeHtml(page.body)}</pre>`,
      toc: [],
      markdown: `${text}\n`,
      sections: text === '' ? [] : [{ heading: '', headingPath: [], depth: 0, text }],
      anchors: [],
      links: [],
      problems: [problem],
    },
    includes: [],
  };
}
