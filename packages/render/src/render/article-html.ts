import type { RenderContext } from '@kit/core';
import type { Element, ElementContent, Nodes as HastNodes, Root as HastRoot } from 'hast';
import type { Blockquote, Code, Heading, Parents, Root, RootContent } from 'mdast';
import type { Handlers } from 'mdast-util-to-hast';
import { highlightCode, type LineRanges } from '../highlight/highlight.js';
import { codeFrameHast } from '../html/code-frame.js';
import { filterRawNodes, sanitizeTree } from '../html/sanitize.js';
import { type ArticleHtmlOptions, articleHtml } from '../html/serialize.js';
import { dropFilteredElements } from '../html/tagfilter.js';
import { HIGHLIGHT_LIMITS } from '../markdown/complexity.js';
import type { HeadingInfo } from '../markdown/headings.js';
import { renderShortcutsOn } from '../shortcuts.js';
import type { ComponentNode } from './component-nodes.js';

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

/** Highlighted code blocks, and the elements sanitizing must leave alone because Kit made them. */
export interface HighlightedCode {
  highlighted: Map<Code, Element>;
  trusted: WeakSet<object>;
}

/** Highlights the code blocks within the page's budget; none when the context turns highlighting off. */
export async function highlightBlocks(
  context: RenderContext,
  codeBlocks: Code[],
  lineMarks: WeakMap<Code, LineRanges>,
): Promise<HighlightedCode> {
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
  return { highlighted, trusted };
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

/** What the article HTML is written from, besides the tree: what the earlier steps decided. */
export interface ArticleParts {
  context: RenderContext;
  headingInfo: Map<Heading, HeadingInfo>;
  dropped: WeakSet<object>;
  callouts: WeakMap<Blockquote, string>;
  codeTitles: WeakMap<Code, string>;
  highlighted: Map<Code, Element>;
  trusted: WeakSet<object>;
}

/** The HTML writer of one page: component children while components render, then the article. */
export interface ArticleWriter {
  /** Writes some nodes (a component's children) as HTML, their raw HTML unfiltered. */
  nodesToHtml(nodes: RootContent[]): Promise<string>;
  /** Writes the whole article: straight from mdast when it can, through hast when sanitizing. */
  articleToHtml(tree: Root): Promise<string>;
}

/** Creates the HTML writer for a page from what the earlier steps decided. */
export function createArticleWriter(parts: ArticleParts): ArticleWriter {
  const { context } = parts;
  const escapeRaw = context.sanitize || context.htmlInput !== 'allow';
  const serializeOptions: Omit<ArticleHtmlOptions, 'filterComponentHtml'> = {
    headings: parts.headingInfo,
    dropped: parts.dropped,
    callouts: parts.callouts,
    highlighted: parts.highlighted,
    codeTitles: parts.codeTitles,
    escapeRaw,
  };
  return {
    async nodesToHtml(nodes) {
      const html = renderShortcutsOn() ? articleHtml(nodes, { ...serializeOptions, filterComponentHtml: false }) : null;
      if (html !== null) return html;
      const tools = await loadHastTools();
      const hast = tools.toHast({ type: 'root', children: nodes } as Root, {
        allowDangerousHtml: true,
        handlers: hastHandlers(tools, parts, escapeRaw),
      }) as HastRoot;
      return tools.toHtml(hast, { allowDangerousHtml: true });
    },
    async articleToHtml(tree) {
      // Sanitizing works on hast; everything else is written straight from mdast (same HTML, no hast tree).
      // With the render shortcuts off, every page takes the hast road.
      const html =
        context.sanitize || !renderShortcutsOn()
          ? null
          : articleHtml(tree.children, { ...serializeOptions, filterComponentHtml: !escapeRaw });
      if (html !== null) return html;
      const tools = await loadHastTools();
      const hast = tools.toHast(tree, {
        allowDangerousHtml: true,
        handlers: hastHandlers(tools, parts, escapeRaw),
      }) as HastRoot;
      if (context.sanitize) sanitizeTree(hast, parts.trusted, await loadFragmentParser());
      else if (!escapeRaw) filterRawNodes(hast);
      return tools.toHtml(hast, { allowDangerousHtml: !context.sanitize });
    },
  };
}

/** The mdast-to-hast handlers that give the hast road the same HTML `articleHtml` writes. */
function hastHandlers({ defaultHandlers }: HastTools, parts: ArticleParts, escapeRaw: boolean): Handlers {
  const { headingInfo, dropped, callouts, highlighted, codeTitles } = parts;
  return {
    heading(state, node) {
      const element = defaultHandlers.heading(state, node);
      const heading = headingInfo.get(node);
      if (heading) element.properties.id = heading.id;
      if (heading?.classes) element.properties.className = heading.classes;
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
  } as Handlers;
}
