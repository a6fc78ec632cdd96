import type { PageSection } from '@kit/core';
import GithubSlugger from 'github-slugger';
import type { Root } from 'mdast';
import { type HeadingInfo, collectAnchors } from '../markdown/headings.js';
import { tooComplex } from '../markdown/complexity.js';
import { parseMarkdown } from '../markdown/parse.js';
import { plainText } from '../markdown/plain-text.js';

function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Splits a parsed page into sections at its top-level headings; `headings` from `collectAnchors`. */
export function sectionsFromTree(tree: Root, headings: HeadingInfo[]): PageSection[] {
  const byNode = new Map(headings.filter((h) => h.topLevel).map((h) => [h.node, h]));
  const sections: PageSection[] = [];
  const path: HeadingInfo[] = [];
  let current: PageSection = { heading: '', headingPath: [], depth: 0, text: '' };
  let parts: string[] = [];
  const close = () => {
    current.text = tidy(parts.join(''));
    if (current.depth > 0 || current.text !== '') sections.push(current);
  };
  for (const node of tree.children) {
    const heading = node.type === 'heading' ? byNode.get(node) : undefined;
    if (!heading) {
      parts.push(plainText(node));
      continue;
    }
    close();
    while (path.length > 0 && (path[path.length - 1] as HeadingInfo).depth >= heading.depth) path.pop();
    path.push(heading);
    current = {
      heading: heading.text,
      headingPath: path.map((h) => h.text),
      anchor: heading.id,
      depth: heading.depth,
      text: '',
    };
    parts = [];
  }
  close();
  return sections;
}

/**
 * Splits Markdown into its sections (the unit of search): the text before the first heading, then
 * one section per heading with its anchor id and the path of headings above it.
 *
 * @example
 * sectionsFromMarkdown('# Routing\n\n<a name="basics"></a>\n## Basic Routing\n\nText.');
 * // [{ heading: 'Routing', depth: 1, anchor: 'routing', ... },
 * //  { heading: 'Basic Routing', headingPath: ['Routing', 'Basic Routing'], anchor: 'basics', depth: 2, text: 'Text.' }]
 */
export function sectionsFromMarkdown(markdown: string): PageSection[] {
  if (tooComplex(markdown)) {
    const text = markdown.trim();
    return text === '' ? [] : [{ heading: '', headingPath: [], depth: 0, text }];
  }
  try {
    const tree = parseMarkdown(markdown);
    return sectionsFromTree(tree, collectAnchors(tree).headings);
  } catch (error) {
    // As the renderer does: a page that exhausts the parser is searched as one block of text.
    if (!(error instanceof RangeError)) throw error;
    const text = markdown.trim();
    return text === '' ? [] : [{ heading: '', headingPath: [], depth: 0, text }];
  }
}

function findHeading(headings: HeadingInfo[], section: string): HeadingInfo | undefined {
  const wanted = section.trim().replace(/^#/, '');
  if (wanted === '') return undefined;
  const lower = wanted.toLowerCase();
  const slug = new GithubSlugger().slug(wanted);
  return (
    headings.find((h) => h.id === wanted) ??
    headings.find((h) => h.text === wanted) ??
    headings.find((h) => h.text.toLowerCase() === lower) ??
    headings.find((h) => h.id === slug)
  );
}

/**
 * Returns one section of a Markdown page, from its heading down to the next heading of the same or
 * a higher level (subsections included), as the Markdown written. `section` is the heading text
 * (case-insensitive) or the anchor id (with or without `#`). Null when no heading matches.
 *
 * @example
 * extractSection(page, 'route-group-middleware'); // '### Middleware\n\n...'
 * extractSection(page, 'Named Routes');
 */
export function extractSection(markdown: string, section: string): string | null {
  if (tooComplex(markdown)) return null;
  let tree: ReturnType<typeof parseMarkdown>;
  try {
    tree = parseMarkdown(markdown);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  const headings = collectAnchors(tree).headings.filter((h) => h.topLevel);
  const target = findHeading(headings, section);
  const start = target?.node.position?.start.offset;
  if (!target || start === undefined) return null;
  const index = headings.indexOf(target);
  const next = headings.slice(index + 1).find((h) => h.depth <= target.depth);
  const end = next ? (next.anchorBlock ?? next.node).position?.start.offset : undefined;
  return `${markdown.slice(start, end ?? markdown.length).trimEnd()}\n`;
}
