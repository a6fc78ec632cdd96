import {
  contentHash,
  defaultReferences,
  type PageRenderer,
  type ReferenceRegistry,
  type RenderContext,
  type RenderedPage,
  type SourcePage,
  type SourceProblem,
  type TocEntry,
} from '@kit/core';
import GithubSlugger from 'github-slugger';
import type { Element, ElementContent, Nodes as HastNodes, Root as HastRoot } from 'hast';
import type { Blockquote, Code, Html, Nodes, Paragraph, Parents, Root, RootContent } from 'mdast';
import type { Handlers } from 'mdast-util-to-hast';
import {
  type ComponentProps,
  type ComponentRegistry,
  defaultComponents,
  escapeHtml,
  parseProps,
} from '../components/registry.js';
import { referenceComponents } from '../components/references.js';
import { codeFrameHast } from '../html/code-frame.js';
import { fenceInfo, highlightCode, type LineRanges } from '../highlight/highlight.js';
import { filterRawNodes, sanitizeTree } from '../html/sanitize.js';
import { type ArticleHtmlOptions, articleHtml } from '../html/serialize.js';
import { dropFilteredElements } from '../html/tagfilter.js';
import { replaceVersion, resolveLink } from '../links/links.js';
import { HIGHLIGHT_LIMITS, tooComplex } from '../markdown/complexity.js';
import { anchorNamesIn, collectAnchors } from '../markdown/headings.js';
import { createTreeReuse, parseMarkdown } from '../markdown/parse.js';
import { sectionsFromTree } from '../sections/sections.js';
import {
  checkSnippetPath,
  parseSnippetDirective,
  type SnippetDirective,
  type SnippetReader,
  selectSnippet,
  snippetLanguage,
  snippetRefused,
} from '../snippets/policy.js';
import { applyEdits, type Edit } from './edits.js';
import { LruCache } from './lru.js';
import { continuationPrefix, indentLines, lineIndex, outdentLines, relocate, valueOffsets } from './positions.js';

interface HastTools {
  toHast: typeof import('mdast-util-to-hast').toHast;
  defaultHandlers: typeof import('mdast-util-to-hast').defaultHandlers;
  toHtml: typeof import('hast-util-to-html').toHtml;
}

let hastTools: Promise<HastTools> | undefined;
/**
 * The hast road (mdast-util-to-hast, hast-util-to-html), loaded the first time a page needs it:
 * sanitized pages and the node types `articleHtml` leaves to it. Most pages never do, and these
 * libraries are a good part of what a server would otherwise load before its first page.
 */
function loadHastTools(): Promise<HastTools> {
  hastTools ??= Promise.all([import('mdast-util-to-hast'), import('hast-util-to-html')]).then(([toHast, toHtml]) => ({
    toHast: toHast.toHast,
    defaultHandlers: toHast.defaultHandlers,
    toHtml: toHtml.toHtml,
  }));
  return hastTools;
}

let fragmentParser: Promise<(html: string) => HastNodes[]> | undefined;
/** The HTML parser sanitizing needs for raw HTML (parse5 underneath), loaded for the first sanitized page. */
function loadFragmentParser(): Promise<(html: string) => HastNodes[]> {
  fragmentParser ??= import('hast-util-from-html').then(
    ({ fromHtml }) =>
      (html: string) =>
        fromHtml(html, { fragment: true }).children as HastNodes[],
  );
  return fragmentParser;
}

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

/** A PascalCase component found in the tree, wrapping its children when it is paired. */
interface ComponentNode {
  type: 'kitComponent';
  name: string;
  props: ComponentProps;
  children: RootContent[];
  start: number;
  end: number;
  innerStart: number;
  innerEnd: number;
  html?: string;
  position?: Html['position'];
}

declare module 'mdast' {
  interface RootContentMap {
    kitComponent: ComponentNode;
  }
  interface PhrasingContentMap {
    kitComponent: ComponentNode;
  }
}

interface Include {
  node: RootContent;
  parent: Parents;
  directive: SnippetDirective;
  written: string;
}

type CacheEntry = RenderOutcome;

const CALLOUT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\r?\n|$)/i;
// Attributes are whitespace-separated runs of quoted values (which may hold `>` and `/>`) and other
// characters; runs never hold whitespace, so matching stays linear on long or hostile tags.
const ATTRIBUTES = String.raw`((?:\s+(?:"[^"]*"|'[^']*'|[^\s"'>/]|\/(?!>))+)*)`;
const SELF_CLOSING = new RegExp(String.raw`^<([A-Z][A-Za-z0-9]*)${ATTRIBUTES}\s*\/>$`);
const OPENING = new RegExp(String.raw`^<([A-Z][A-Za-z0-9]*)${ATTRIBUTES}\s*>$`);
const WHOLE_BLOCK = new RegExp(String.raw`^<([A-Z][A-Za-z0-9]*)${ATTRIBUTES}\s*>([\s\S]*)<\/\1\s*>$`);
const PASCAL_TAG = /^<\/?([A-Z][A-Za-z0-9]*)[\s/>]/;
const ANCHOR_ONLY = /^<a\s(?![^>]*\bhref\s*=)[^>]*\b(?:name|id)\s*=[^>]*>$/i;
const ANCHOR_CLOSE = /^<\/a\s*>$/i;
const RAW_HREF = /<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

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

function fence(content: string, lang: string): string {
  const longest = Math.max(2, ...[...content.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${lang}\n${content}\n${marks}`;
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

async function renderParsed(
  page: SourcePage,
  context: RenderContext,
  components: ComponentRegistry,
  reader: SnippetReader | undefined,
  parse: (markdown: string) => Root,
  withHtml: boolean,
): Promise<CacheEntry> {
  const source = page.body;
  const tree = parse(source);
  const lineOffset = page.bodyLine - 1;
  const problems: SourceProblem[] = [];
  const edits: Edit[] = [];
  const links: RenderedPage['links'] = [];
  const includes: Include[] = [];
  const componentNodes: ComponentNode[] = [];
  const codeBlocks: Code[] = [];
  const lineMarks = new WeakMap<Code, LineRanges>();
  const codeTitles = new WeakMap<Code, string>();
  const dropped = new WeakSet<object>();
  const callouts = new WeakMap<Blockquote, string>();
  const lineOf = (node: { position?: Nodes['position'] }) =>
    node.position ? node.position.start.line + lineOffset : undefined;
  const problem = (rule: string, message: string, node: { position?: Nodes['position'] }, fix?: string) => {
    const entry: SourceProblem = { rule, severity: 'warning', message };
    if (page.file) entry.file = page.file;
    const line = lineOf(node);
    if (line !== undefined) entry.line = line;
    if (fix) entry.fix = fix;
    problems.push(entry);
  };
  let lines: ReturnType<typeof lineIndex> | undefined;
  const locate = (offset: number) => {
    lines ??= lineIndex(source);
    return lines(offset);
  };
  const offsets = (node: { position?: Nodes['position'] }): [number, number] | null => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    return start === undefined || end === undefined ? null : [start, end];
  };

  const rewriteDestination = (node: Nodes, url: string, agentUrl: string) => {
    const range = offsets(node);
    if (!range || agentUrl === url) return;
    const written = source.slice(range[0], range[1]);
    const marker = node.type === 'definition' ? ']:' : '](';
    let from = 0;
    if (node.type === 'link') {
      if (!written.startsWith('[')) return;
      const lastChild = node.children[node.children.length - 1];
      from = lastChild?.position?.end.offset !== undefined ? lastChild.position.end.offset - range[0] : 1;
    } else if (node.type === 'image') {
      if (!written.startsWith('![')) return;
      // The alt text has no child positions; prefer the `](` the written destination follows.
      const exact = written.indexOf(`](${url}`, 2);
      from = exact === -1 ? 2 : exact;
    }
    const at = written.indexOf(marker, from);
    if (at === -1) return;
    let start = at + 2;
    while (start < written.length && /\s/.test(written[start] as string)) start++;
    let end = start;
    if (written[start] === '<') {
      end = written.indexOf('>', start);
      if (end === -1) return;
      end++;
    } else {
      let depth = 0;
      while (end < written.length) {
        const char = written[end] as string;
        if (char === '\\') end += 2;
        else if (/\s/.test(char)) break;
        else if (char === '(') {
          depth++;
          end++;
        } else if (char === ')') {
          if (depth === 0) break;
          depth--;
          end++;
        } else end++;
      }
    }
    const safe = /[\s()<>]/.test(agentUrl) ? `<${agentUrl.replace(/[<>]/g, encodeURIComponent)}>` : agentUrl;
    edits.push({ start: range[0] + start, end: range[0] + end, text: safe });
  };

  /**
   * Cuts the include line off the top of `paragraph`, which keeps the lines after it (text right
   * under an include, with no blank line, is its own paragraph). Null when the first line also
   * holds inline markup, so it cannot be cut cleanly.
   */
  const splitIncludeLine = (paragraph: Paragraph, lineEnd: number): Paragraph | null => {
    const first = paragraph.children[0];
    const start = paragraph.position?.start;
    const end = first?.position?.end;
    if (first?.type !== 'text' || !start || !end || end.offset === undefined) return null;
    const cut = first.value.indexOf('\n');
    if (cut === -1) return null;
    let restAt = lineEnd + 1;
    // Container prefixes (`  `, `> `) of the next line belong to no node; content never starts with `>`.
    while (restAt < end.offset && /[ \t>]/.test(source[restAt] as string)) restAt++;
    const lineEndPoint = { ...locate(lineEnd), offset: lineEnd };
    const restPoint = { ...locate(restAt), offset: restAt };
    const include: Paragraph = {
      type: 'paragraph',
      children: [{ type: 'text', value: first.value.slice(0, cut), position: { start, end: lineEndPoint } }],
      position: { start, end: lineEndPoint },
    };
    first.value = first.value.slice(cut + 1);
    first.position = { start: restPoint, end };
    if (first.value === '') paragraph.children.shift();
    paragraph.position = { start: restPoint, end: (paragraph.position as NonNullable<Paragraph['position']>).end };
    return include;
  };

  const wrapComponent = (parent: Parents, index: number, node: Html): ComponentNode | null => {
    const children = parent.children as RootContent[];
    const range = offsets(node);
    if (!range) return null;
    const selfClosing = SELF_CLOSING.exec(node.value.trim());
    if (selfClosing) {
      const component: ComponentNode = {
        type: 'kitComponent',
        name: selfClosing[1] as string,
        props: parseProps(selfClosing[2] ?? ''),
        children: [],
        start: range[0],
        end: range[1],
        innerStart: range[1],
        innerEnd: range[1],
        position: node.position,
      };
      children[index] = component;
      return component;
    }
    const whole = WHOLE_BLOCK.exec(node.value.trim());
    if (whole) {
      const inner = whole[3] as string;
      const at = node.value.indexOf(inner, (whole[1] as string).length + 1);
      const innerTree = parseMarkdown(inner);
      // The inner tree is parsed on its own; moving its positions onto the page lets its links,
      // `{{version}}` and includes be edited into the agent twin like any other node's.
      const map = valueOffsets(source, range[0], range[1], node.value);
      relocate(innerTree.children, map && ((offset) => map(at + offset)), locate);
      const innerStart = map ? map(at) : range[0] + at;
      const component: ComponentNode = {
        type: 'kitComponent',
        name: whole[1] as string,
        props: parseProps(whole[2] ?? ''),
        children: innerTree.children,
        start: range[0],
        end: range[1],
        innerStart,
        innerEnd: map ? map(at + inner.length) : innerStart + inner.length,
        position: node.position,
      };
      children[index] = component;
      return component;
    }
    const opening = OPENING.exec(node.value.trim());
    if (!opening) return null;
    const name = opening[1] as string;
    const closeAt = children.findIndex(
      (sibling, at) =>
        at > index && sibling.type === 'html' && new RegExp(`^</${name}\\s*>$`).test(sibling.value.trim()),
    );
    if (closeAt === -1) return null;
    const closing = children[closeAt] as Html;
    const closingRange = offsets(closing);
    if (!closingRange) return null;
    const component: ComponentNode = {
      type: 'kitComponent',
      name,
      props: parseProps(opening[2] ?? ''),
      children: children.slice(index + 1, closeAt),
      start: range[0],
      end: closingRange[1],
      innerStart: range[1],
      innerEnd: closingRange[0],
      position: {
        start: (node.position as NonNullable<Html['position']>).start,
        end: (closing.position as NonNullable<Html['position']>).end,
      },
    };
    children.splice(index, closeAt - index + 1, component);
    return component;
  };

  const scan = (parent: Parents) => {
    const children = parent.children as RootContent[];
    for (let index = 0; index < children.length; index++) {
      let node = children[index] as RootContent;
      switch (node.type) {
        case 'code':
          if (node.lang) {
            // ```js{2} names the language `js{2}` to the parser; the braces mark lines, not a language.
            const info = fenceInfo(node.lang, node.meta);
            node.lang = info.lang === '' ? null : info.lang;
            if (info.lines.length > 0) lineMarks.set(node, info.lines);
            if (info.title) codeTitles.set(node, info.title);
            if (node.lang) codeBlocks.push(node);
          }
          continue;
        case 'inlineCode':
        case 'yaml':
          continue;
        case 'paragraph': {
          const first = node.children[0];
          const range = offsets(node);
          const written = range ? source.slice(range[0], range[1]) : '';
          if (first?.type === 'text' && first.value.startsWith('<<<') && range) {
            const newline = written.indexOf('\n');
            const directive = parseSnippetDirective(newline === -1 ? written : written.slice(0, newline));
            const include = directive && newline !== -1 ? splitIncludeLine(node, range[0] + newline) : node;
            if (directive && include) {
              if (include !== node) children.splice(index, 1, include, node);
              includes.push({ node: include, parent, directive, written: directive.path });
              continue;
            }
          }
          if (range && /\n[ \t>]*(?:```|~~~)/.test(written)) {
            // A line of a paragraph that starts with three backticks or tildes (an inline code span
            // such as ```` ```js{2} ````) is no fence to CommonMark, but readers that scan lines for
            // fences (agents' own parsers, afdocs `markdown-code-fence-validity`) open one there and
            // read the rest of the page as code. The twin joins such a line to the one before it: a
            // soft line break and a space read the same.
            for (const joint of written.matchAll(/\n[ \t>]*(?=```|~~~)/g)) {
              edits.push({ start: range[0] + joint.index, end: range[0] + joint.index + joint[0].length, text: ' ' });
            }
          }
          if (written.includes('<<<')) {
            const lines = written.split('\n');
            for (let at = 1; at < lines.length; at++) {
              const directive = parseSnippetDirective((lines[at] as string).replace(/^[ \t>]*/, ''));
              if (!directive) continue;
              const line = (node.position as NonNullable<Paragraph['position']>).start.line + at;
              problem(
                'snippets.missing',
                `Snippet "<<< @/${directive.path}" is not included: an include must start its own paragraph, and this one continues the text above it.`,
                { position: { start: { line, column: 1 }, end: { line, column: 1 } } },
                'Put a blank line before the <<< line.',
              );
            }
          }
          break;
        }
        case 'blockquote': {
          const first = node.children[0];
          const text = first?.type === 'paragraph' ? first.children[0] : undefined;
          const match = text?.type === 'text' ? CALLOUT.exec(text.value) : null;
          if (match && text?.type === 'text' && first?.type === 'paragraph') {
            callouts.set(node, (match[1] as string).toLowerCase());
            text.value = text.value.slice(match[0].length);
            if (text.value === '') first.children.shift();
            if (first.children.length === 0) node.children.shift();
          }
          break;
        }
        case 'html': {
          const value = node.value.trim();
          if (PASCAL_TAG.test(value)) {
            const component = wrapComponent(parent, index, node);
            if (component) {
              node = component as unknown as RootContent;
              break;
            }
            const name = (PASCAL_TAG.exec(value) as RegExpExecArray)[1] as string;
            if (!components.get(name)) {
              problem(
                'components.unknown',
                `Unknown component <${name}>.`,
                node,
                `Register it with registerComponent('${name}', { html, markdown }), or write it in lower case if it is an HTML tag.`,
              );
            } else {
              problem(
                'components.invalid',
                `The component <${name}> is not rendered: its tag is not closed, or a closing tag has no opening tag in the same block, or the tag cannot be read.`,
                node,
                `Write it self-closing (<${name} />) or close it with </${name}> in the same block; leave a blank line after <${name}> and before </${name}> when it holds Markdown.`,
              );
            }
            continue;
          }
          if (context.htmlInput === 'allow' && !context.sanitize) {
            const { dropped: filtered } = dropFilteredElements(node.value);
            if (filtered.length > 0) {
              const tags = [...new Set(filtered)].map((name) => `<${name}>`).join(', ');
              problem(
                'html.filtered',
                `Raw HTML ${tags} is left out of the page with everything it holds: readers never get these elements (the tags GitHub filters).`,
                node,
                'Remove it, or move what it does into the theme: styles to a file named in assets.css, scripts to the site instead of a page.',
              );
            }
          }
          for (const match of node.value.matchAll(RAW_HREF)) {
            const href = match[1] ?? match[2] ?? match[3];
            const line = lineOf(node);
            if (href) links.push(line === undefined ? { href } : { href, line });
          }
          // Raw anchors only mark ids; the agent twin drops them (`</a>` right after goes too).
          const range = offsets(node);
          if (
            range &&
            (ANCHOR_ONLY.test(value) ||
              (parent.type !== 'paragraph' &&
                anchorNamesIn(value).length > 0 &&
                /^(?:\s*<a\s[^>]*>\s*(?:<\/a\s*>)?)+\s*$/i.test(value)))
          ) {
            edits.push({ start: range[0], end: range[1], text: '' });
            const next = children[index + 1];
            const nextRange = next ? offsets(next) : null;
            if (next?.type === 'html' && ANCHOR_CLOSE.test(next.value.trim()) && nextRange) {
              edits.push({ start: nextRange[0], end: nextRange[1], text: '' });
            }
          }
          continue;
        }
        case 'text': {
          if (node.value.includes('{{')) {
            node.value = replaceVersion(node.value, context.versionSegment);
            const range = offsets(node);
            if (range) {
              const written = source.slice(range[0], range[1]);
              const replaced = replaceVersion(written, context.versionSegment);
              if (replaced !== written) edits.push({ start: range[0], end: range[1], text: replaced });
            }
          }
          continue;
        }
        case 'link':
        case 'definition': {
          const line = lineOf(node);
          links.push(line === undefined ? { href: node.url } : { href: node.url, line });
          const resolved = resolveLink(node.url, page.path, context);
          const range = offsets(node);
          if (resolved.agent === '' && node.url !== '' && range && source[range[0]] === '<') {
            // An autolink (`<javascript:...>`) has no destination to empty: the twin keeps its text
            // with the brackets escaped, so it reads as written and links nowhere, as in the HTML.
            const written = source.slice(range[0], range[1]);
            edits.push({ start: range[0], end: range[1], text: `\\<${written.slice(1, -1)}\\>` });
          } else {
            rewriteDestination(node, node.url, resolved.agent);
          }
          node.url = resolved.site;
          break;
        }
        case 'image': {
          const line = lineOf(node);
          links.push(line === undefined ? { href: node.url, image: true } : { href: node.url, line, image: true });
          const resolved = resolveLink(node.url, page.path, context);
          // Readers get the URL the file is served at; agents an absolute one, like every link in the twin.
          rewriteDestination(node, node.url, resolved.agent);
          node.url = resolved.site;
          continue;
        }
        default:
          break;
      }
      if ('children' in node) {
        scan(node as Parents);
        if (node.type === 'kitComponent') componentNodes.push(node);
      }
    }
  };
  scan(tree);

  const { headings, anchors, duplicates } = collectAnchors(tree, {
    rawHtml: context.htmlInput === 'allow' && !context.sanitize,
  });
  const headingInfo = new Map(headings.map((h) => [h.node, h]));
  for (const heading of duplicates) {
    problem(
      'anchors.duplicate',
      `The heading id "${heading.id}" is already used by an earlier heading on this page; links to #${heading.id} land on the first one.`,
      heading.node,
      `Give each heading an id of its own: change the {#${heading.id}} (or the <a name> before the heading) on one of them.`,
    );
  }
  const slugger = new GithubSlugger();
  for (const heading of headings) {
    const range = offsets(heading.node);
    if (heading.pinned && range && source[range[0]] === '#') {
      // The twin's readers slug `## Setup` as `setup`; the site numbered it around a `{#setup}`.
      edits.push({ start: range[1], end: range[1], text: ` {#${heading.id}}` });
    }
    if (heading.classes && range && source[range[0]] === '#') {
      // Classes style the HTML only: the twin keeps the heading's text and, if written, its `{#id}`.
      const block = /[ \t]*\{[^{}]*\}[ \t]*$/.exec(source.slice(range[0], range[1]));
      if (block) {
        const start = range[0] + block.index;
        edits.push({ start, end: range[1], text: /\{[^}]*#/.test(block[0]) ? ` {#${heading.id}}` : '' });
      }
    }
    if (heading.anchorBlock) {
      const blockRange = offsets(heading.anchorBlock);
      if (range && blockRange) edits.push({ start: blockRange[0], end: range[0], text: '' });
      const names = heading.anchorBlock.type === 'html' ? anchorNamesIn(heading.anchorBlock.value) : null;
      if (context.htmlInput === 'allow' && !context.sanitize && (names === null || names.length <= 1)) {
        dropped.add(heading.anchorBlock);
      }
      // Agents keep the anchor the site uses, so `read_page` sections and links still match.
      if (range && source[range[0]] === '#' && slugger.slug(heading.text, true) !== heading.id) {
        const line = source.slice(range[0], range[1]);
        if (!/\{#[^}]+\}\s*$/.test(line)) edits.push({ start: range[1], end: range[1], text: ` {#${heading.id}}` });
      }
    }
  }

  const includedFiles: CacheEntry['includes'] = [];
  await Promise.all(
    includes.map(async (include) => {
      const { node, parent, directive } = include;
      if (!reader || !context.snippetsRoot) {
        problem(
          'snippets.missing',
          `Snippet "<<< @/${directive.path}" is not included: this set has no snippets.root.`,
          node,
          'Set snippets.root for the set (database sets include nothing without one).',
        );
        return;
      }
      let text: string;
      try {
        checkSnippetPath(directive.path);
        text = await reader.read(context.snippetsRoot, directive.path);
      } catch {
        const error = snippetRefused(directive.path);
        problem('snippets.missing', error.message, node, 'Point the include at a readable file under snippets.root.');
        return;
      }
      includedFiles.push({ path: directive.path, text });
      const selected = selectSnippet(text, directive);
      if (selected === null) {
        const what = directive.region
          ? `region "${directive.region}"`
          : `lines ${directive.lines?.from}-${directive.lines?.to}`;
        problem(
          'snippets.missing',
          `Snippet "<<< @/${directive.path}" has no ${what}.`,
          node,
          'Mark the region with `#region name` and `#endregion` comments, or fix the line range.',
        );
        return;
      }
      const lang = snippetLanguage(directive);
      const code: Code = { type: 'code', lang: lang || null, meta: null, value: selected };
      const siblings = parent.children as RootContent[];
      siblings[siblings.indexOf(node)] = code;
      if (lang) codeBlocks.push(code);
      const range = offsets(node);
      if (range) {
        // Inside a list item or quote, every fence line needs the container's indent or `>`.
        const prefix = continuationPrefix(source, range[0]) ?? '';
        edits.push({ start: range[0], end: range[1], text: indentLines(fence(selected, lang), prefix) });
      }
    }),
  );

  const highlighted = new Map<Code, Element>();
  const trusted = new WeakSet<object>();
  if (context.highlight !== false) {
    await Promise.all(
      withinHighlightBudget(codeBlocks).map(async (code) => {
        const element = await highlightCode(code.value, code.lang as string, lineMarks.get(code));
        if (element) {
          highlighted.set(code, element);
          trusted.add(element);
        }
      }),
    );
  }

  const escapeRaw = context.sanitize || context.htmlInput !== 'allow';
  const hastHandlers = ({ defaultHandlers }: HastTools): Handlers =>
    ({
      heading(state, node) {
        const element = defaultHandlers.heading(state, node);
        const heading = headingInfo.get(node);
        if (heading) element.properties.id = heading.id;
        if (heading?.alias) {
          element.children.unshift({
            type: 'element',
            tagName: 'span',
            properties: { id: heading.alias },
            children: [],
          });
        }
        return element;
      },
      html(_state, node) {
        if (dropped.has(node)) return undefined;
        if (escapeRaw) return { type: 'text', value: node.value };
        return { type: 'raw', value: dropFilteredElements(node.value).html } as unknown as ElementContent;
      },
      paragraph(state, node) {
        if (dropped.has(node)) return undefined;
        return defaultHandlers.paragraph(state, node);
      },
      blockquote(state, node) {
        const kind = callouts.get(node);
        if (!kind) return defaultHandlers.blockquote(state, node);
        const title: Element = {
          type: 'element',
          tagName: 'p',
          properties: { className: ['callout-title'] },
          children: [{ type: 'text', value: kind.charAt(0).toUpperCase() + kind.slice(1) }],
        };
        return {
          type: 'element',
          tagName: 'div',
          properties: { className: ['callout', `callout-${kind}`], dataCallout: kind },
          children: state.wrap([title, ...state.all(node)], true),
        };
      },
      code(state, node) {
        const pre = highlighted.get(node) ?? defaultHandlers.code(state, node);
        return codeFrameHast(pre, node.lang?.split(/\s+/)[0], codeTitles.get(node));
      },
      kitComponent(state, node: ComponentNode) {
        if (node.html !== undefined) return { type: 'raw', value: node.html } as unknown as ElementContent;
        return state.all(node as unknown as Parents);
      },
    }) as Handlers;

  const serializeOptions: Omit<ArticleHtmlOptions, 'filterComponentHtml'> = {
    headings: headingInfo,
    dropped,
    callouts,
    highlighted,
    codeTitles,
    escapeRaw,
  };
  const nodesToHtml = async (nodes: RootContent[]) => {
    const html = articleHtml(nodes, { ...serializeOptions, filterComponentHtml: false });
    if (html !== null) return html;
    const tools = await loadHastTools();
    const hast = tools.toHast({ type: 'root', children: nodes } as Root, {
      allowDangerousHtml: true,
      handlers: hastHandlers(tools),
    }) as HastRoot;
    return tools.toHtml(hast, { allowDangerousHtml: true });
  };

  for (const component of componentNodes) {
    const definition = components.get(component.name);
    if (!definition) {
      problem(
        'components.unknown',
        `Unknown component <${component.name}>.`,
        component,
        `Register it with registerComponent('${component.name}', { html, markdown }), or write it in lower case if it is an HTML tag.`,
      );
      component.html = escapeHtml(source.slice(component.start, component.innerStart));
      const closing = source.slice(component.innerEnd, component.end);
      const inner = await nodesToHtml(component.children);
      component.html = `${component.html}${inner}${escapeHtml(closing)}`;
      continue;
    }
    const report = (found: { rule: string; message: string; fix?: string }) =>
      problem(found.rule, found.message, component, found.fix);
    const base = { render: context, pagePath: page.path, report };
    const hasChildren = component.children.length > 0;
    // A block component in a list item or quote: its children lose the container prefix for the
    // component, and its Markdown gets it back on every line.
    const prefix = continuationPrefix(source, component.start) ?? '';
    const [html, markdown] = await Promise.all([
      definition.html(
        component.props,
        hasChildren ? { ...base, children: await nodesToHtml(component.children) } : base,
      ),
      definition.markdown(
        component.props,
        hasChildren
          ? {
              ...base,
              children: outdentLines(
                applyEdits(source, edits, component.innerStart, component.innerEnd),
                prefix,
              ).trim(),
            }
          : base,
      ),
    ]);
    component.html = html;
    edits.push({ start: component.start, end: component.end, text: indentLines(markdown, prefix) });
    // What a self-closing component says is part of the page for search, as its agent Markdown.
    if (!hasChildren && markdown.trim() !== '') component.children = parseMarkdown(markdown).children;
  }

  // Sanitizing works on hast; everything else is written straight from mdast (same HTML, no hast tree).
  let html = !withHtml
    ? ''
    : context.sanitize
      ? null
      : articleHtml(tree.children, { ...serializeOptions, filterComponentHtml: !escapeRaw });
  if (html === null) {
    const tools = await loadHastTools();
    const hast = tools.toHast(tree, { allowDangerousHtml: true, handlers: hastHandlers(tools) }) as HastRoot;
    if (context.sanitize) sanitizeTree(hast, trusted, await loadFragmentParser());
    else if (!escapeRaw) filterRawNodes(hast);
    html = tools.toHtml(hast, { allowDangerousHtml: !context.sanitize });
  }

  const toc: TocEntry[] = headings
    .filter((h) => h.topLevel && h.depth >= 2 && h.depth <= 3)
    .map((h) => ({ depth: h.depth, text: h.text, id: context.sanitize ? `user-content-${h.id}` : h.id }));

  const markdown = `${applyEdits(source, edits)
    .replace(/^[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;

  return {
    page: {
      html,
      toc,
      markdown,
      sections: sectionsFromTree(tree, headings),
      anchors,
      links,
      problems,
    },
    includes: includedFiles,
  };
}

/**
 * The code blocks a page highlights: tokenizing costs tens of microseconds a character, so a block
 * longer than `HIGHLIGHT_LIMITS.blockCharacters`, and every block past the page's budget
 * (`pageCharacters`, `blocks`), is shown as plain code.
 */
function withinHighlightBudget(codeBlocks: Code[]): Code[] {
  let spent = 0;
  let count = 0;
  return codeBlocks.filter((code) => {
    if (code.value.length > HIGHLIGHT_LIMITS.blockCharacters) return false;
    if (spent + code.value.length > HIGHLIGHT_LIMITS.pageCharacters || count >= HIGHLIGHT_LIMITS.blocks) return false;
    spent += code.value.length;
    count++;
    return true;
  });
}

/** A page too complex to parse in bounded time: shown as plain text, reported, never parsed. */
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
