import type { PageSection, RenderedPage } from '../ports/renderer.js';

/**
 * One section of a page's agent Markdown, found by heading text or anchor id, from its heading
 * down to the next heading of the same or a higher level. Null when the page has no such section.
 *
 * Core cannot use `@kit/render`, so this works on what the renderer already produced: the
 * sections and table of contents tell which heading an anchor belongs to, and the agent Markdown
 * is cut at its ATX and setext headings outside fenced code blocks.
 */
export function extractRenderedSection(rendered: RenderedPage, wanted: string): string | null {
  const lines = rendered.markdown.split('\n');
  const range = sectionRange(rendered, lines, markdownHeadings(lines), wanted, true);
  return range ? lines.slice(range.start, range.end).join('\n').trim() : null;
}

/** Lines `[start, end)` of a page's agent Markdown that one section covers. */
export interface SectionLines {
  start: number;
  end: number;
  /** The heading text as the page shows it. */
  heading: string;
}

/**
 * Where one section sits in the agent Markdown split into `lines`: from its heading down to the
 * next heading of the same or a higher level, or, without `subsections`, down to the next heading
 * of any level (the section's own text only). Null when the page has no such section.
 */
export function sectionRange(
  rendered: RenderedPage,
  lines: string[],
  headings: MarkdownHeading[],
  wanted: string,
  subsections: boolean,
): SectionLines | null {
  const target = findSection(rendered, wanted);
  if (!target) return null;
  const candidates = headings.filter((heading) => sameText(heading.text, target.heading));
  const occurrence = rendered.sections
    .filter((section) => section.heading !== '' && sameText(section.heading, target.heading))
    .indexOf(target);
  const start = candidates[Math.max(0, occurrence)] ?? candidates[0];
  if (!start) return null;
  const end = headings.find((heading) => heading.line > start.line && (!subsections || heading.depth <= start.depth));
  return { start: start.line, end: end ? end.line : lines.length, heading: target.heading };
}

/** Heading texts a caller may ask for, for the error that lists them. */
export function sectionNames(rendered: RenderedPage): string[] {
  return rendered.sections.filter((section) => section.heading !== '').map((section) => section.heading);
}

function findSection(rendered: RenderedPage, wanted: string): PageSection | null {
  const asked = wanted.trim().replace(/^#/, '');
  if (asked === '') return null;
  const named = rendered.sections.filter((section) => section.heading !== '');
  const byAnchor = named.find((section) => section.anchor === asked);
  if (byAnchor) return byAnchor;
  const tocEntry = rendered.toc.find((entry) => entry.id === asked);
  if (tocEntry) {
    const byToc = named.find((section) => sameText(section.heading, tocEntry.text));
    if (byToc) return byToc;
  }
  const byText = named.find((section) => sameText(section.heading, asked));
  if (byText) return byText;
  return named.find((section) => slug(section.heading) === slug(asked)) ?? null;
}

/** A heading of agent Markdown: its line index, level and plain text. */
export interface MarkdownHeading {
  line: number;
  depth: number;
  text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** Lines that open a list item or a block quote: a paragraph under them is not a setext heading. */
const CONTAINER = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|^ {0,3}>/;
const INDENTED_CODE = /^(?: {4}|\t)/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** HTML blocks that run to the next blank line (CommonMark kinds 1 to 7, loosely). */
const HTML_BLOCK =
  /^ {0,3}(?:<(?:script|pre|style|textarea)(?:[\s>]|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\[|<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[\s/>]|$)|(?:<[A-Za-z][A-Za-z\d-]*(?:\s[^<>]*)?\/?>|<\/[A-Za-z][A-Za-z\d-]*\s*>)[ \t]*$)/i;

/**
 * The headings of agent Markdown, as the renderer's parser sees them: ATX (`## Usage`) and setext
 * (a paragraph underlined with `===` for level 1 or `---` for level 2), outside fenced code, HTML
 * blocks and tables. A setext heading starts at its first text line, so a section cut there keeps
 * its text and its underline. Under a list item or quote, or after a blank line, `---` is a
 * thematic break, not a heading.
 */
export function markdownHeadings(lines: string[]): MarkdownHeading[] {
  const headings: MarkdownHeading[] = [];
  let fence: string | null = null;
  /** First line of the paragraph being read, or null between paragraphs. */
  let paragraph: number | null = null;
  /** Inside a list item or quote (until a blank line followed by an unindented line). */
  let container = false;
  /** Inside an HTML block or a table: both run to the next blank line. */
  let block = false;
  let afterBlank = true;
  lines.forEach((line, index) => {
    if (fence !== null) {
      const marker = FENCE.exec(line)?.[1];
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return;
    }
    if (line.trim() === '') {
      paragraph = null;
      block = false;
      afterBlank = true;
      return;
    }
    if (block) return;
    const opening = FENCE.exec(line)?.[1];
    if (opening) {
      fence = opening;
      paragraph = null;
      afterBlank = false;
      return;
    }
    const wasBlank = afterBlank;
    afterBlank = false;
    const indented = /^[ \t]/.test(line);
    const atx = ATX.exec(line);
    // An unindented line after a blank one, or an unindented heading, is back at the top level.
    if (container && !indented && (wasBlank || atx)) container = false;
    if (atx) {
      if (!container) headings.push({ line: index, depth: atx[1]!.length, text: plain(atx[2] ?? '') });
      paragraph = null;
      return;
    }
    const underline = SETEXT_UNDERLINE.exec(line);
    if (underline && paragraph !== null) {
      headings.push({
        line: paragraph,
        depth: underline[1]![0] === '=' ? 1 : 2,
        text: plain(lines.slice(paragraph, index).join(' ')),
      });
      paragraph = null;
      return;
    }
    if (paragraph !== null && TABLE_DELIMITER.test(line) && line.includes('|')) {
      // The paragraph's last line was a table header: the table runs to the next blank line.
      paragraph = null;
      block = true;
      return;
    }
    if (THEMATIC_BREAK.test(line)) {
      paragraph = null;
      return;
    }
    if (CONTAINER.test(line)) {
      container = true;
      paragraph = null;
      return;
    }
    if (paragraph !== null || container) return;
    if (HTML_BLOCK.test(line)) {
      block = true;
      return;
    }
    if (INDENTED_CODE.test(line)) return;
    paragraph = index;
  });
  return headings;
}

/** Heading Markdown to the plain text sections carry: no `{#id}`, tags, link targets or emphasis marks. */
function plain(markdown: string): string {
  return markdown
    .replace(/\s*\{#[^}]*\}\s*$/, '')
    .replace(/<[^>]+>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_~]/g, '')
    .replace(/\\(.)/g, '$1')
    .trim();
}

function sameText(a: string, b: string): boolean {
  return normalize(a) === normalize(b);
}

function normalize(text: string): string {
  return plain(text).replace(/\s+/g, ' ').toLowerCase();
}

function slug(text: string): string {
  return normalize(text)
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}
