import type { PageSection, RenderedPage } from '../ports/renderer.js';

/**
 * One section of a page's agent Markdown, found by heading text or anchor id, from its heading
 * down to the next heading of the same or a higher level. Null when the page has no such section.
 *
 * Core cannot use `@kit/render`, so this works on what the renderer already produced: the
 * sections and table of contents tell which heading an anchor belongs to, and the agent Markdown
 * is cut at ATX headings outside fenced code blocks.
 */
export function extractRenderedSection(rendered: RenderedPage, wanted: string): string | null {
  const target = findSection(rendered, wanted);
  if (!target) return null;
  const lines = rendered.markdown.split('\n');
  const headings = markdownHeadings(lines);
  const candidates = headings.filter((heading) => sameText(heading.text, target.heading));
  const occurrence = rendered.sections
    .filter((section) => section.heading !== '' && sameText(section.heading, target.heading))
    .indexOf(target);
  const start = candidates[Math.max(0, occurrence)] ?? candidates[0];
  if (!start) return null;
  const end = headings.find((heading) => heading.line > start.line && heading.depth <= start.depth);
  return lines
    .slice(start.line, end ? end.line : lines.length)
    .join('\n')
    .trim();
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

interface MarkdownHeading {
  line: number;
  depth: number;
  text: string;
}

function markdownHeadings(lines: string[]): MarkdownHeading[] {
  const headings: MarkdownHeading[] = [];
  let fence: string | null = null;
  lines.forEach((line, index) => {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      return;
    }
    if (fence !== null) return;
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) headings.push({ line: index, depth: heading[1]!.length, text: plain(heading[2]!) });
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
