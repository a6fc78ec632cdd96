import type { RenderContext } from '@kit/core';
import type { Code, Paragraph, Parents, RootContent } from 'mdast';
import {
  checkSnippetPath,
  parseSnippetDirective,
  type SnippetDirective,
  type SnippetReader,
  selectSnippet,
  snippetLanguage,
  snippetRefused,
} from '../snippets/policy.js';
import { fence } from './agent-edits.js';
import type { Edit } from './edits.js';
import type { PageText, ReportProblem } from './page-text.js';
import { continuationPrefix, indentLines } from './positions.js';

/** A `<<< @/path` line found in the tree, to be replaced by the file's code. */
export interface Include {
  node: RootContent;
  parent: Parents;
  directive: SnippetDirective;
  written: string;
}

/** A snippet file a render included, with its text then: a render whose file changed since is stale. */
export interface IncludedFile {
  path: string;
  text: string;
}

/**
 * The include a paragraph starts with, if any. A paragraph that goes on under the include line is
 * cut in two in `parent` (the include, then the rest), so the rest renders as it would alone.
 */
export function takeInclude(text: PageText, parent: Parents, index: number, node: Paragraph): Include | null {
  const first = node.children[0];
  const range = text.offsets(node);
  if (first?.type !== 'text' || !first.value.startsWith('<<<') || !range) return null;
  const written = text.source.slice(range[0], range[1]);
  const newline = written.indexOf('\n');
  const directive = parseSnippetDirective(newline === -1 ? written : written.slice(0, newline));
  const include = directive && newline !== -1 ? splitIncludeLine(text, node, range[0] + newline) : node;
  if (!directive || !include) return null;
  if (include !== node) (parent.children as RootContent[]).splice(index, 1, include, node);
  return { node: include, parent, directive, written: directive.path };
}

/**
 * Cuts the include line off the top of `paragraph`, which keeps the lines after it (text right
 * under an include, with no blank line, is its own paragraph). Null when the first line also
 * holds inline markup, so it cannot be cut cleanly.
 */
function splitIncludeLine(text: PageText, paragraph: Paragraph, lineEnd: number): Paragraph | null {
  const { source, locate } = text;
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
}

/** Warns about `<<<` lines inside a paragraph: only a paragraph's first line can be an include. */
export function reportStrayIncludes(written: string, node: Paragraph, report: ReportProblem): void {
  if (!written.includes('<<<')) return;
  const lines = written.split('\n');
  for (let at = 1; at < lines.length; at++) {
    const directive = parseSnippetDirective((lines[at] as string).replace(/^[ \t>]*/, ''));
    if (!directive) continue;
    const line = (node.position as NonNullable<Paragraph['position']>).start.line + at;
    report(
      'snippets.missing',
      `Snippet "<<< @/${directive.path}" is not included: an include must start its own paragraph, and this one continues the text above it.`,
      { position: { start: { line, column: 1 }, end: { line, column: 1 } } },
      'Put a blank line before the <<< line.',
    );
  }
}

/** What reading includes needs and adds to: code blocks to highlight, agent Markdown edits. */
export interface IncludeDeps {
  text: PageText;
  context: RenderContext;
  reader: SnippetReader | undefined;
  report: ReportProblem;
  edits: Edit[];
  codeBlocks: Code[];
}

/**
 * Reads every include and puts its code block in the tree in place of the include line, and its
 * fence in the agent Markdown. An include that cannot be read is reported and left as written.
 */
export async function resolveIncludes(includes: Include[], deps: IncludeDeps): Promise<IncludedFile[]> {
  const includedFiles: IncludedFile[] = [];
  await Promise.all(includes.map((include) => resolveInclude(include, deps, includedFiles)));
  return includedFiles;
}

async function resolveInclude(include: Include, deps: IncludeDeps, includedFiles: IncludedFile[]): Promise<void> {
  const { text, context, reader, report, edits } = deps;
  const { node, parent, directive } = include;
  if (!reader || !context.snippetsRoot) {
    report(
      'snippets.missing',
      `Snippet "<<< @/${directive.path}" is not included: this set has no snippets.root.`,
      node,
      'Set snippets.root for the set (database sets include nothing without one).',
    );
    return;
  }
  let fileText: string;
  try {
    checkSnippetPath(directive.path);
    fileText = await reader.read(context.snippetsRoot, directive.path);
  } catch {
    const error = snippetRefused(directive.path);
    report('snippets.missing', error.message, node, 'Point the include at a readable file under snippets.root.');
    return;
  }
  includedFiles.push({ path: directive.path, text: fileText });
  const selected = selectSnippet(fileText, directive);
  if (selected === null) {
    const what = directive.region
      ? `region "${directive.region}"`
      : `lines ${directive.lines?.from}-${directive.lines?.to}`;
    report(
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
  if (lang) deps.codeBlocks.push(code);
  const range = text.offsets(node);
  if (range) {
    // Inside a list item or quote, every fence line needs the container's indent or `>`.
    const prefix = continuationPrefix(text.source, range[0]) ?? '';
    edits.push({ start: range[0], end: range[1], text: indentLines(fence(selected, lang), prefix) });
  }
}
