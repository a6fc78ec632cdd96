import type { RenderContext, RenderedPage } from '@kit/core';
import type { Html, Parents, RootContent } from 'mdast';
import { dropFilteredElements } from '../html/tagfilter.js';
import { anchorNamesIn } from '../markdown/headings.js';
import type { Edit } from './edits.js';
import type { PageText, ReportProblem } from './page-text.js';

const ANCHOR_ONLY = /^<a\s(?![^>]*\bhref\s*=)[^>]*\b(?:name|id)\s*=[^>]*>$/i;
const ANCHOR_CLOSE = /^<\/a\s*>$/i;
const RAW_HREF = /<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

/** What scanning raw HTML needs and adds to. */
export interface RawHtmlDeps {
  text: PageText;
  context: RenderContext;
  report: ReportProblem;
  links: RenderedPage['links'];
  edits: Edit[];
}

/**
 * Scans a raw HTML node (not a component): reports elements the tag filter leaves out, records the
 * links it holds, and drops anchors that only mark ids from the agent twin.
 */
export function scanRawHtml(deps: RawHtmlDeps, parent: Parents, index: number, node: Html): void {
  const { text, context, edits } = deps;
  if (context.htmlInput === 'allow' && !context.sanitize) reportFiltered(node, deps.report);
  for (const match of node.value.matchAll(RAW_HREF)) {
    const href = match[1] ?? match[2] ?? match[3];
    const line = text.lineOf(node);
    if (href) deps.links.push(line === undefined ? { href } : { href, line });
  }
  // Raw anchors only mark ids; the agent twin drops them (`</a>` right after goes too).
  const value = node.value.trim();
  const range = text.offsets(node);
  if (
    range &&
    (ANCHOR_ONLY.test(value) ||
      (parent.type !== 'paragraph' &&
        anchorNamesIn(value).length > 0 &&
        /^(?:\s*<a\s[^>]*>\s*(?:<\/a\s*>)?)+\s*$/i.test(value)))
  ) {
    edits.push({ start: range[0], end: range[1], text: '' });
    const next = (parent.children as RootContent[])[index + 1];
    const nextRange = next ? text.offsets(next) : null;
    if (next?.type === 'html' && ANCHOR_CLOSE.test(next.value.trim()) && nextRange) {
      edits.push({ start: nextRange[0], end: nextRange[1], text: '' });
    }
  }
}

function reportFiltered(node: Html, report: ReportProblem): void {
  const { dropped: filtered } = dropFilteredElements(node.value);
  if (filtered.length === 0) return;
  const tags = [...new Set(filtered)].map((name) => `<${name}>`).join(', ');
  report(
    'html.filtered',
    `Raw HTML ${tags} is left out of the page with everything it holds: readers never get these elements (the tags GitHub filters).`,
    node,
    'Remove it, or move what it does into the theme: styles to a file named in assets.css, scripts to the site instead of a page.',
  );
}
