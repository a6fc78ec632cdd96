import type { SourcePage, SourceProblem } from '@kit/core';
import type { Nodes } from 'mdast';
import { lineIndex } from './positions.js';

/** Anything with an mdast position: a node, or a made-up place to report at. */
export interface Positioned {
  position?: Nodes['position'];
}

/** A page's Markdown and the ways every render step points back into it. */
export interface PageText {
  /** The page body as written (front matter cut). */
  source: string;
  /** The line in the page file a node starts on, front matter counted. */
  lineOf(node: Positioned): number | undefined;
  /** The `[start, end)` offsets of a node in `source`; null when the node has no position. */
  offsets(node: Positioned): [number, number] | null;
  /** The line and column of an offset in `source`. */
  locate(offset: number): { line: number; column: number };
}

/** Reports a problem on the page at a node. */
export type ReportProblem = (rule: string, message: string, node: Positioned, fix?: string) => void;

/**
 * The position helpers of one page. The line index is built the first time an offset is located,
 * since most pages never need it.
 */
export function createPageText(page: SourcePage): PageText {
  const source = page.body;
  const lineOffset = page.bodyLine - 1;
  let lines: ReturnType<typeof lineIndex> | undefined;
  return {
    source,
    lineOf: (node) => (node.position ? node.position.start.line + lineOffset : undefined),
    offsets(node) {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      return start === undefined || end === undefined ? null : [start, end];
    },
    locate(offset) {
      lines ??= lineIndex(source);
      return lines(offset);
    },
  };
}

/** The warnings a render collects, in the order they are found, with the file and line filled in. */
export function createProblemLog(
  page: SourcePage,
  text: PageText,
): { problems: SourceProblem[]; report: ReportProblem } {
  const problems: SourceProblem[] = [];
  const report: ReportProblem = (rule, message, node, fix) => {
    const entry: SourceProblem = { rule, severity: 'warning', message };
    if (page.file) entry.file = page.file;
    const line = text.lineOf(node);
    if (line !== undefined) entry.line = line;
    if (fix) entry.fix = fix;
    problems.push(entry);
  };
  return { problems, report };
}
