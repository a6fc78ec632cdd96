import type { RenderContext } from '@kit/core';
import GithubSlugger from 'github-slugger';
import type { Heading, Root } from 'mdast';
import { anchorNamesIn, collectAnchors, type HeadingInfo } from '../markdown/headings.js';
import type { Edit } from './edits.js';
import type { PageText, ReportProblem } from './page-text.js';

/** The page's headings with their ids, and what the HTML leaves out because a heading took it over. */
export interface PageHeadings {
  headings: HeadingInfo[];
  headingInfo: Map<Heading, HeadingInfo>;
  /** Every id a link can target, in page order. */
  anchors: string[];
  /** Anchor blocks the heading they name carries in the HTML, so the HTML does not write them. */
  dropped: WeakSet<object>;
}

/** What naming headings reads and where it reports and edits. */
export interface AnchorDeps {
  text: PageText;
  context: RenderContext;
  report: ReportProblem;
  edits: Edit[];
}

/**
 * Gives each heading its id, reports ids used twice, and edits the agent Markdown so its readers
 * find the same ids the site uses (`{#id}` written where their own slug would differ).
 */
export function nameHeadings(tree: Root, deps: AnchorDeps): PageHeadings {
  const { context } = deps;
  const rawHtml = context.htmlInput === 'allow' && !context.sanitize;
  const { headings, anchors, duplicates } = collectAnchors(tree, { rawHtml });
  const headingInfo = new Map(headings.map((h) => [h.node, h]));
  for (const heading of duplicates) {
    deps.report(
      'anchors.duplicate',
      `The heading id "${heading.id}" is already used by an earlier heading on this page; links to #${heading.id} land on the first one.`,
      heading.node,
      `Give each heading an id of its own: change the {#${heading.id}} (or the <a name> before the heading) on one of them.`,
    );
  }
  const dropped = new WeakSet<object>();
  const slugger = new GithubSlugger();
  for (const heading of headings) editHeading(heading, deps, rawHtml, slugger, dropped);
  return { headings, headingInfo, anchors, dropped };
}

function editHeading(
  heading: HeadingInfo,
  deps: AnchorDeps,
  rawHtml: boolean,
  slugger: GithubSlugger,
  dropped: WeakSet<object>,
): void {
  const { source, offsets } = deps.text;
  const { edits } = deps;
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
  if (!heading.anchorBlock) return;
  const blockRange = offsets(heading.anchorBlock);
  if (range && blockRange) edits.push({ start: blockRange[0], end: range[0], text: '' });
  const names = heading.anchorBlock.type === 'html' ? anchorNamesIn(heading.anchorBlock.value) : null;
  if (rawHtml && (names === null || names.length <= 1)) dropped.add(heading.anchorBlock);
  // Agents keep the anchor the site uses, so `read_page` sections and links still match.
  if (range && source[range[0]] === '#' && slugger.slug(heading.text, true) !== heading.id) {
    const line = source.slice(range[0], range[1]);
    if (!/\{#[^}]+\}\s*$/.test(line)) edits.push({ start: range[1], end: range[1], text: ` {#${heading.id}}` });
  }
}
