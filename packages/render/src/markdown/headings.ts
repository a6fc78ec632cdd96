import GithubSlugger from 'github-slugger';
import type { Heading, Html, Nodes, Paragraph, Parents, Root, RootContent } from 'mdast';
import { plainText } from './plain-text.js';

/** A heading with the id it gets on the page and the raw anchor tags that named it. */
export interface HeadingInfo {
  node: Heading;
  depth: number;
  /** Plain heading text, without a trailing attribute block (`{#id}`, `{.class}`, `{#id .class}`). */
  text: string;
  id: string;
  /** Classes of a trailing attribute block (`{.collection-method}`), kept on the HTML heading. */
  classes?: string[];
  /** The block right before the heading that only holds `<a name>` tags and gave it its id. */
  anchorBlock?: Paragraph | Html;
  /** True when the heading sits directly in the root (it then opens a section). */
  topLevel: boolean;
  /**
   * GitHub's slug of a heading named by an `<a name>` block, when it differs and no other id
   * uses it: GitHub serves both, so links written against either keep working.
   */
  alias?: string;
  /**
   * True when the slug was numbered only because an explicit `{#id}` elsewhere on the page holds
   * the plain one: the agent twin then writes the id, since a reader of the Markdown would slug it
   * differently.
   */
  pinned?: boolean;
}

export interface CollectAnchorsOptions {
  /**
   * Raw HTML reaches the page as written (`html_input: 'allow'`, not sanitized), so its `<a name>`
   * and `<a id>` tags are anchors. An `<a name>` block right before a heading still names the heading.
   * @default true
   */
  rawHtml?: boolean;
}

export interface PageAnchors {
  headings: HeadingInfo[];
  /** Every id a link can target: headings, `{#id}`, `<a name>` and `<a id>`, in page order. */
  anchors: string[];
  /** Headings whose id an earlier heading on the page already has (from `{#id}` or `<a name>`). */
  duplicates: HeadingInfo[];
}

// A trailing attribute block: `{#id}`, `{.class}` or both in any order (`{#id .a .b}`), as
// markdown-it-attrs and Pandoc write them; Laravel marks 600+ method headings `{.collection-method}`.
const ATTRIBUTE_BLOCK = /[ \t]*\{[ \t]*((?:[#.][A-Za-z_][\w:.-]*[ \t]*)+)\}[ \t]*$/;

interface HeadingAttributes {
  /** Where the block starts in the heading's last text node. */
  index: number;
  id?: string;
  classes: string[];
}
const ANCHOR_TAG = /<a\s+(?:[^>]*?\s)?(?:name|id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))[^>]*>/gi;
const ANCHOR_OPEN_ONLY = /^<a\s[^>]*>$/i;
const ANCHOR_CLOSE = /^<\/a\s*>$/i;
const ANCHOR_BLOCK = /^(?:\s*<a\s[^>]*>\s*(?:<\/a\s*>)?)+\s*$/i;

/** Names and ids of the `<a name>`/`<a id>` tags in a raw HTML string. */
export function anchorNamesIn(html: string): string[] {
  const names: string[] = [];
  for (const match of html.matchAll(ANCHOR_TAG)) {
    const name = match[1] ?? match[2] ?? match[3];
    if (name) names.push(name);
  }
  return names;
}

function anchorBlockNames(node: RootContent | undefined): string[] | null {
  if (!node) return null;
  if (node.type === 'html') {
    return ANCHOR_BLOCK.test(node.value) ? anchorNamesIn(node.value) : null;
  }
  if (node.type !== 'paragraph') return null;
  const names: string[] = [];
  for (const child of node.children) {
    if (child.type === 'html') {
      if (ANCHOR_CLOSE.test(child.value)) continue;
      if (!ANCHOR_OPEN_ONLY.test(child.value)) return null;
      const found = anchorNamesIn(child.value);
      if (found.length === 0) return null;
      names.push(...found);
    } else if (!(child.type === 'text' && child.value.trim() === '')) {
      return null;
    }
  }
  return names.length > 0 ? names : null;
}

function attributesOf(heading: Heading): HeadingAttributes | null {
  const last = heading.children[heading.children.length - 1];
  const match = last?.type === 'text' ? ATTRIBUTE_BLOCK.exec(last.value) : null;
  if (!match) return null;
  const attributes: HeadingAttributes = { index: match.index, classes: [] };
  for (const token of (match[1] as string).trim().split(/[ \t]+/)) {
    // The last `#id` wins, as in markdown-it-attrs; a class name stops at characters CSS would need escaped.
    if (token.startsWith('#')) attributes.id = token.slice(1);
    else if (/^\.[A-Za-z_][\w-]*$/.test(token)) attributes.classes.push(token.slice(1));
    else return null;
  }
  return attributes;
}

function explicitIdOf(heading: Heading): string | undefined {
  return attributesOf(heading)?.id;
}

/** Removes a trailing attribute block from the heading, so it never shows as text, and returns it. */
function takeAttributes(heading: Heading): HeadingAttributes | null {
  const attributes = attributesOf(heading);
  if (!attributes) return null;
  const last = heading.children[heading.children.length - 1] as { value: string };
  last.value = last.value.slice(0, attributes.index);
  if (last.value === '') heading.children.pop();
  return attributes;
}

/** Every `{#id}` written on a heading, so automatic slugs can step around them wherever they are. */
function explicitIds(tree: Root): string[] {
  const ids: string[] = [];
  const walk = (parent: Parents) => {
    for (const node of parent.children as Nodes[]) {
      if (node.type === 'heading') {
        const id = explicitIdOf(node);
        if (id) ids.push(id);
      } else if (node.type !== 'code' && 'children' in node) walk(node as Parents);
    }
  };
  walk(tree);
  return ids;
}

/**
 * Gives every heading its id, the way the corpus expects: a trailing `{#id}` wins, then an
 * `<a name="x"></a>` block directly before the heading (the Laravel convention), else GitHub's
 * slug of the heading text (unique per page, as github-slugger numbers repeats, and never one a
 * `{#id}` on the page claims: `## Setup` next to `## Install {#setup}` gets `setup-1`). Strips the
 * attribute block (`{#id}`, `{.class}`, `{#id .class}`) from the tree so it never shows as text;
 * its classes are kept in `classes` for the HTML. Headings that repeat an id are returned in
 * `duplicates` for the caller to report.
 */
export function collectAnchors(tree: Root, options: CollectAnchorsOptions = {}): PageAnchors {
  const rawHtml = options.rawHtml ?? true;
  const slugger = new GithubSlugger();
  // What the slug would be without the explicit ids, to tell which slugs were numbered for them.
  const plainSlugger = new GithubSlugger();
  for (const id of explicitIds(tree)) slugger.occurrences[id] = 0;
  const headings: HeadingInfo[] = [];
  const anchors: string[] = [];
  const seen = new Set<string>();
  const add = (id: string) => {
    if (!seen.has(id)) {
      seen.add(id);
      anchors.push(id);
    }
  };

  const walk = (parent: Parents, topLevel: boolean) => {
    const children = parent.children as RootContent[];
    for (let index = 0; index < children.length; index++) {
      const node = children[index] as Nodes;
      if (node.type === 'heading') {
        const attributes = takeAttributes(node);
        const explicit = attributes?.id;
        const previous = children[index - 1];
        const blockNames = anchorBlockNames(previous);
        const text = plainText(node).trim();
        let id: string;
        let alias: string | undefined;
        let pinned = false;
        if (explicit) id = explicit;
        else if (blockNames) {
          id = blockNames[blockNames.length - 1] as string;
          alias = slugger.slug(text);
          plainSlugger.slug(text);
        } else {
          id = slugger.slug(text);
          pinned = id !== plainSlugger.slug(text);
        }
        const info: HeadingInfo = { node, depth: node.depth, text, id, topLevel };
        if (alias && alias !== id) info.alias = alias;
        if (attributes && attributes.classes.length > 0) info.classes = attributes.classes;
        if (pinned) info.pinned = true;
        if (blockNames && previous) info.anchorBlock = previous as Paragraph | Html;
        headings.push(info);
        add(id);
        continue;
      }
      if (node.type === 'html') {
        // Escaped, the tag shows as text and gives no element an id.
        if (rawHtml) for (const name of anchorNamesIn(node.value)) add(name);
        continue;
      }
      if (node.type === 'code' || node.type === 'inlineCode') continue;
      if ('children' in node) walk(node as Parents, false);
    }
  };
  walk(tree, true);
  for (const heading of headings) {
    if (heading.alias === undefined) continue;
    if (seen.has(heading.alias)) delete heading.alias;
    else add(heading.alias);
  }
  const headingIds = new Set<string>();
  const duplicates: HeadingInfo[] = [];
  for (const heading of headings) {
    if (headingIds.has(heading.id)) duplicates.push(heading);
    else headingIds.add(heading.id);
  }
  return { headings, anchors, duplicates };
}
