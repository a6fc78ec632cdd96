import type { RenderContext, RenderedPage } from '@kit/core';
import type { Blockquote, Code, Definition, Image, Link, Paragraph, Parents, Root, RootContent, Text } from 'mdast';
import type { ComponentRegistry } from '../components/registry.js';
import { fenceInfo, type LineRanges } from '../highlight/highlight.js';
import { replaceVersion, resolveLink } from '../links/links.js';
import { joinFenceLikeLines, rewriteDestination } from './agent-edits.js';
import { type ComponentNode, isPascalTag, wrapOrReport } from './component-nodes.js';
import type { Edit } from './edits.js';
import { type Include, reportStrayIncludes, takeInclude } from './includes.js';
import type { PageText, ReportProblem } from './page-text.js';
import { scanRawHtml } from './raw-html.js';

const CALLOUT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\r?\n|$)/i;

/** What the scan of a page found, for the steps after it. */
export interface PageScan {
  links: RenderedPage['links'];
  includes: Include[];
  /** Innermost first, so a component's children are rendered before the component. */
  componentNodes: ComponentNode[];
  /** Code blocks with a language, to highlight. */
  codeBlocks: Code[];
  lineMarks: WeakMap<Code, LineRanges>;
  codeTitles: WeakMap<Code, string>;
  callouts: WeakMap<Blockquote, string>;
}

/** What the scan reads and where it reports and edits. */
export interface ScanDeps {
  text: PageText;
  context: RenderContext;
  pagePath: string;
  components: ComponentRegistry;
  report: ReportProblem;
  edits: Edit[];
}

/**
 * Walks the tree once, in document order: finds includes, components, callouts and code blocks,
 * resolves links and `{{version}}` for readers, and records the agent Markdown edits they need.
 */
export function scanTree(tree: Root, deps: ScanDeps): PageScan {
  const scan: PageScan = {
    links: [],
    includes: [],
    componentNodes: [],
    codeBlocks: [],
    lineMarks: new WeakMap(),
    codeTitles: new WeakMap(),
    callouts: new WeakMap(),
  };
  const walk = (parent: Parents) => {
    const children = parent.children as RootContent[];
    for (let index = 0; index < children.length; index++) {
      const node = scanNode(deps, scan, parent, index, children[index] as RootContent);
      if (node && 'children' in node) {
        walk(node as Parents);
        if (node.type === 'kitComponent') scan.componentNodes.push(node);
      }
    }
  };
  walk(tree);
  return scan;
}

/** Scans one node; returns the node whose children are scanned next, or null to leave them. */
function scanNode(
  deps: ScanDeps,
  scan: PageScan,
  parent: Parents,
  index: number,
  node: RootContent,
): RootContent | null {
  switch (node.type) {
    case 'code':
      scanCode(scan, node);
      return null;
    case 'inlineCode':
    case 'yaml':
      return null;
    case 'paragraph':
      return scanParagraph(deps, scan, parent, index, node) ? null : node;
    case 'blockquote':
      markCallout(scan, node);
      return node;
    case 'html':
      if (isPascalTag(node.value.trim())) {
        const component = wrapOrReport(deps.text, deps.components, deps.report, parent, index, node);
        return component as unknown as RootContent | null;
      }
      scanRawHtml({ ...deps, links: scan.links }, parent, index, node);
      return null;
    case 'text':
      replaceVersionIn(deps, node);
      return null;
    case 'link':
    case 'definition':
      scanLink(deps, scan, node);
      return node;
    case 'image':
      scanImage(deps, scan, node);
      return null;
    default:
      return node;
  }
}

function scanCode(scan: PageScan, node: Code): void {
  if (!node.lang) return;
  // ```js{2} names the language `js{2}` to the parser; the braces mark lines, not a language.
  const info = fenceInfo(node.lang, node.meta);
  node.lang = info.lang === '' ? null : info.lang;
  if (info.lines.length > 0) scan.lineMarks.set(node, info.lines);
  if (info.title) scan.codeTitles.set(node, info.title);
  if (node.lang) scan.codeBlocks.push(node);
}

/** True when the paragraph is an include (its children are not scanned). */
function scanParagraph(deps: ScanDeps, scan: PageScan, parent: Parents, index: number, node: Paragraph): boolean {
  const include = takeInclude(deps.text, parent, index, node);
  if (include) {
    scan.includes.push(include);
    return true;
  }
  const range = deps.text.offsets(node);
  const written = range ? deps.text.source.slice(range[0], range[1]) : '';
  if (range) joinFenceLikeLines(written, range[0], deps.edits);
  reportStrayIncludes(written, node, deps.report);
  return false;
}

/** `> [!NOTE]` and its kin: the marker comes out of the text, the kind is kept for the HTML. */
function markCallout(scan: PageScan, node: Blockquote): void {
  const first = node.children[0];
  const text = first?.type === 'paragraph' ? first.children[0] : undefined;
  const match = text?.type === 'text' ? CALLOUT.exec(text.value) : null;
  if (match && text?.type === 'text' && first?.type === 'paragraph') {
    scan.callouts.set(node, (match[1] as string).toLowerCase());
    text.value = text.value.slice(match[0].length);
    if (text.value === '') first.children.shift();
    if (first.children.length === 0) node.children.shift();
  }
}

function replaceVersionIn(deps: ScanDeps, node: Text): void {
  if (!node.value.includes('{{')) return;
  const { source, offsets } = deps.text;
  node.value = replaceVersion(node.value, deps.context.versionSegment);
  const range = offsets(node);
  if (range) {
    const written = source.slice(range[0], range[1]);
    const replaced = replaceVersion(written, deps.context.versionSegment);
    if (replaced !== written) deps.edits.push({ start: range[0], end: range[1], text: replaced });
  }
}

function scanLink(deps: ScanDeps, scan: PageScan, node: Link | Definition): void {
  const { text, edits } = deps;
  const line = text.lineOf(node);
  scan.links.push(line === undefined ? { href: node.url } : { href: node.url, line });
  const resolved = resolveLink(node.url, deps.pagePath, deps.context);
  const range = text.offsets(node);
  if (resolved.agent === '' && node.url !== '' && range && text.source[range[0]] === '<') {
    // An autolink (`<javascript:...>`) has no destination to empty: the twin keeps its text
    // with the brackets escaped, so it reads as written and links nowhere, as in the HTML.
    const written = text.source.slice(range[0], range[1]);
    edits.push({ start: range[0], end: range[1], text: `\\<${written.slice(1, -1)}\\>` });
  } else {
    rewriteDestination(text, edits, node, node.url, resolved.agent);
  }
  node.url = resolved.site;
}

function scanImage(deps: ScanDeps, scan: PageScan, node: Image): void {
  const line = deps.text.lineOf(node);
  scan.links.push(line === undefined ? { href: node.url, image: true } : { href: node.url, line, image: true });
  const resolved = resolveLink(node.url, deps.pagePath, deps.context);
  // Readers get the URL the file is served at; agents an absolute one, like every link in the twin.
  rewriteDestination(deps.text, deps.edits, node, node.url, resolved.agent);
  node.url = resolved.site;
}
