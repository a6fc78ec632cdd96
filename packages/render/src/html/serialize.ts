import type { Element } from 'hast';
import type { Blockquote, Code, Heading, List, ListItem, Nodes, Parents, Root, RootContent, Table } from 'mdast';
import { normalizeUri } from 'micromark-util-sanitize-uri';
import { trimLines } from 'trim-lines';
import { highlightedHtml } from '../highlight/highlight.js';
import type { HeadingInfo } from '../markdown/headings.js';
import { codeFrameHtml } from './code-frame.js';
import { dropFilteredElements, filterTags } from './tagfilter.js';

/** What the renderer decided about the tree before it is written out as HTML. */
export interface ArticleHtmlOptions {
  headings: Map<Heading, HeadingInfo>;
  /** Anchor blocks and paragraphs that produce no HTML. */
  dropped: WeakSet<object>;
  /** Block quotes that are callouts, with their kind (`note`, `tip`, ...). */
  callouts: WeakMap<Blockquote, string>;
  /** Code blocks already highlighted. */
  highlighted: Map<Code, Element>;
  /** File titles of code blocks (` ```php title="routes/web.php" `). */
  codeTitles: WeakMap<Code, string>;
  /** Raw HTML is shown as text (`htmlInput: 'escape'`). */
  escapeRaw: boolean;
  /** Component HTML goes through the GFM tagfilter too (the raw HTML of repository pages). */
  filterComponentHtml: boolean;
}

/** A node type only mdast-util-to-hast renders (footnotes, references, `data.h*` overrides). */
class Unsupported extends Error {}

/**
 * What mdast-util-to-hast trims after a hard break, and here: `text` trims the node's result when
 * it is a text node, `head` also trims the first child of an element result when that is text.
 */
type Trim = 'none' | 'text' | 'head';

function trimMarkdownSpaceStart(value: string): string {
  let index = 0;
  let code = value.charCodeAt(index);
  while (code === 9 || code === 32) {
    index++;
    code = value.charCodeAt(index);
  }
  return value.slice(index);
}

const TEXT_SPECIAL = /[<&]/g;
const ATTRIBUTE_SPECIAL = /[\0"&'`]/g;
const hex = (character: string) => `&#x${character.charCodeAt(0).toString(16).toUpperCase()};`;

/** Text escaped as hast-util-to-html escapes it (`<` and `&` as hexadecimal references). */
function escapeText(value: string): string {
  return value.indexOf('<') === -1 && value.indexOf('&') === -1 ? value : value.replace(TEXT_SPECIAL, hex);
}

/** A double-quoted attribute value escaped as hast-util-to-html escapes it. */
function escapeAttribute(value: string): string {
  return value.replace(ATTRIBUTE_SPECIAL, hex);
}

/**
 * Writes mdast straight to HTML: byte for byte what `toHtml(toHast(tree, { allowDangerousHtml,
 * handlers }), { allowDangerousHtml: true })` with the renderer's handlers gives, followed by the
 * GFM tagfilter on raw HTML, without building a hast tree (and copying every node's position) only
 * to serialize it again. Returns null for trees holding node types it leaves to mdast-util-to-hast
 * (footnotes, link and image references, `data.hName` overrides); the caller then takes that road.
 *
 * @example
 * articleHtml(parseMarkdown('# Hi').children, options); // '<h1 id="hi">Hi</h1>' with the heading's info
 */
export function articleHtml(nodes: RootContent[], options: ArticleHtmlOptions): string | null {
  try {
    return new ArticleWriter(options).root({ type: 'root', children: nodes });
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

class ArticleWriter {
  constructor(private readonly options: ArticleHtmlOptions) {}

  root(node: Root): string {
    return wrap(this.all(node, 'none'), false);
  }

  /** The hast children of `parent`, one string per hast node. */
  private all(parent: Parents, first: Trim): string[] {
    const out: string[] = [];
    const children = parent.children as RootContent[];
    for (let index = 0; index < children.length; index++) {
      const node = children[index] as RootContent;
      const trim =
        index > 0 && (children[index - 1] as RootContent).type === 'break' ? 'head' : out.length === 0 ? first : 'none';
      this.one(node, parent, trim, out);
    }
    return out;
  }

  private inner(node: Parents, trim: Trim): string {
    return this.all(node, trim === 'head' ? 'text' : 'none').join('');
  }

  private one(node: RootContent | ListItem, parent: Parents, trim: Trim, out: string[]): void {
    if (hasHastData(node as Nodes)) throw new Unsupported(node.type);
    const options = this.options;
    switch (node.type) {
      case 'text': {
        const value = trimLines(String(node.value));
        out.push(escapeText(trim === 'none' ? value : trimMarkdownSpaceStart(value)));
        return;
      }
      case 'paragraph':
        if (options.dropped.has(node)) return;
        out.push(`<p>${this.inner(node, trim)}</p>`);
        return;
      case 'heading': {
        const info = options.headings.get(node);
        const inner = this.inner(node, trim);
        const id = info ? ` id="${escapeAttribute(info.id)}"` : '';
        const classes = info?.classes ? ` class="${escapeAttribute(info.classes.join(' '))}"` : '';
        const alias = info?.alias ? `<span id="${escapeAttribute(info.alias)}"></span>` : '';
        out.push(`<h${node.depth}${id}${classes}>${alias}${inner}</h${node.depth}>`);
        return;
      }
      case 'emphasis':
        out.push(`<em>${this.inner(node, trim)}</em>`);
        return;
      case 'strong':
        out.push(`<strong>${this.inner(node, trim)}</strong>`);
        return;
      case 'delete':
        out.push(`<del>${this.inner(node, trim)}</del>`);
        return;
      case 'inlineCode': {
        const value = node.value.replace(/\r?\n|\r/g, ' ');
        out.push(`<code>${escapeText(trim === 'head' ? trimMarkdownSpaceStart(value) : value)}</code>`);
        return;
      }
      case 'break':
        out.push('<br>', '\n');
        return;
      case 'thematicBreak':
        out.push('<hr>');
        return;
      case 'link': {
        const title = node.title === null || node.title === undefined ? '' : ` title="${escapeAttribute(node.title)}"`;
        out.push(`<a href="${escapeAttribute(normalizeUri(node.url))}"${title}>${this.inner(node, trim)}</a>`);
        return;
      }
      case 'image': {
        const alt = node.alt === null || node.alt === undefined ? '' : ` alt="${escapeAttribute(node.alt)}"`;
        const title = node.title === null || node.title === undefined ? '' : ` title="${escapeAttribute(node.title)}"`;
        out.push(`<img src="${escapeAttribute(normalizeUri(node.url))}"${alt}${title}>`);
        return;
      }
      case 'html':
        if (options.dropped.has(node)) return;
        if (options.escapeRaw) out.push(escapeText(trim === 'none' ? node.value : trimMarkdownSpaceStart(node.value)));
        else out.push(dropFilteredElements(node.value).html);
        return;
      case 'kitComponent': {
        if (node.html === undefined) {
          out.push(...this.all(node as unknown as Parents, 'none'));
          return;
        }
        out.push(options.filterComponentHtml ? filterTags(node.html) : node.html);
        return;
      }
      case 'code': {
        const highlighted = options.highlighted.get(node);
        const language = node.lang ? node.lang.split(/\s+/)[0] : undefined;
        const className = language === undefined ? '' : ` class="${escapeAttribute(`language-${language}`)}"`;
        const pre = highlighted
          ? highlightedHtml(highlighted)
          : `<pre><code${className}>${escapeText(node.value ? `${node.value}\n` : '')}</code></pre>`;
        out.push(codeFrameHtml(pre, language, options.codeTitles.get(node)));
        return;
      }
      case 'blockquote': {
        const kind = options.callouts.get(node);
        if (!kind) {
          out.push(`<blockquote>${wrap(this.all(node, 'none'), true)}</blockquote>`);
          return;
        }
        const title = `<p class="callout-title">${escapeText(kind.charAt(0).toUpperCase() + kind.slice(1))}</p>`;
        const children = wrap([title, ...this.all(node, 'none')], true);
        out.push(
          `<div class="${escapeAttribute(`callout callout-${kind}`)}" data-callout="${escapeAttribute(kind)}">${children}</div>`,
        );
        return;
      }
      case 'list':
        out.push(this.list(node));
        return;
      case 'listItem':
        out.push(this.listItem(node, parent));
        return;
      case 'table':
        out.push(this.table(node));
        return;
      case 'yaml':
      case 'definition':
        return;
      default:
        // Footnotes, link and image references, table parts outside a table, `toml`, unknown nodes.
        throw new Unsupported(node.type);
    }
  }

  private list(node: List): string {
    const items = this.all(node, 'none');
    let attributes = '';
    if (typeof node.start === 'number' && node.start !== 1)
      attributes += ` start="${escapeAttribute(String(node.start))}"`;
    if (node.children.some((item) => typeof item.checked === 'boolean')) attributes += ' class="contains-task-list"';
    const tag = node.ordered ? 'ol' : 'ul';
    return `<${tag}${attributes}>${wrap(items, true)}</${tag}>`;
  }

  private listItem(node: ListItem, parent: Parents): string {
    const loose = parent.type === 'list' ? listLoose(parent) : listItemLoose(node);
    // Each hast child of the item: a paragraph keeps its inner HTML apart, as a tight item unwraps it.
    const results: Array<{ paragraph: string[] | null; html: string }> = [];
    for (const child of node.children) {
      if (child.type === 'paragraph' && !this.options.dropped.has(child) && !hasHastData(child)) {
        const inner = this.all(child, 'none');
        results.push({ paragraph: inner, html: '' });
      } else {
        const out: string[] = [];
        this.one(child, node, 'none', out);
        for (const html of out) results.push({ paragraph: null, html });
      }
    }
    let attributes = '';
    if (typeof node.checked === 'boolean') {
      let head = results[0];
      if (!head?.paragraph) {
        head = { paragraph: [], html: '' };
        results.unshift(head);
      }
      const paragraph = head.paragraph as string[];
      if (paragraph.length > 0) paragraph.unshift(' ');
      paragraph.unshift(node.checked ? '<input type="checkbox" checked disabled>' : '<input type="checkbox" disabled>');
      attributes = ' class="task-list-item"';
    }
    const parts: string[] = [];
    for (let index = 0; index < results.length; index++) {
      const result = results[index] as (typeof results)[number];
      if (loose || index !== 0 || !result.paragraph) parts.push('\n');
      if (result.paragraph && !loose) parts.push(result.paragraph.join(''));
      else parts.push(result.paragraph ? `<p>${result.paragraph.join('')}</p>` : result.html);
    }
    const tail = results[results.length - 1];
    if (tail && (loose || !tail.paragraph)) parts.push('\n');
    return `<li${attributes}>${parts.join('')}</li>`;
  }

  private table(node: Table): string {
    const rows = node.children.map((row, rowIndex) => {
      const tag = rowIndex === 0 ? 'th' : 'td';
      const align = node.align;
      const length = align ? align.length : row.children.length;
      const cells: string[] = [];
      for (let cellIndex = 0; cellIndex < length; cellIndex++) {
        const cell = row.children[cellIndex];
        const alignValue = align ? align[cellIndex] : undefined;
        const attributes = alignValue ? ` align="${escapeAttribute(alignValue)}"` : '';
        if (cell && hasHastData(cell)) throw new Unsupported(cell.type);
        const inner = cell ? this.all(cell, 'none').join('') : '';
        cells.push(`<${tag}${attributes}>${inner}</${tag}>`);
      }
      if (hasHastData(row)) throw new Unsupported(row.type);
      return `<tr>${wrap(cells, true)}</tr>`;
    });
    const content: string[] = [];
    const head = rows.shift();
    if (head !== undefined) content.push(`<thead>${wrap([head], true)}</thead>`);
    if (rows.length > 0) content.push(`<tbody>${wrap(rows, true)}</tbody>`);
    return `<table>${wrap(content, true)}</table>`;
  }
}

function hasHastData(node: Nodes): boolean {
  const data = (node as { data?: Record<string, unknown> }).data;
  return (
    data !== undefined && (data.hName !== undefined || data.hProperties !== undefined || data.hChildren !== undefined)
  );
}

/** mdast-util-to-hast's `wrap`: line endings between block children (and around them when loose). */
function wrap(items: string[], loose: boolean): string {
  if (!loose) return items.join('\n');
  return items.length > 0 ? `\n${items.join('\n')}\n` : '\n';
}

function listLoose(node: List): boolean {
  if (node.spread) return true;
  return node.children.some(listItemLoose);
}

function listItemLoose(node: ListItem): boolean {
  return node.spread === null || node.spread === undefined ? node.children.length > 1 : node.spread;
}
