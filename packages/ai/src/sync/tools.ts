import { type Tool, tool } from 'ai';
import { z } from 'zod';
import type { SyncCodeReader, SyncDocsWriter, SyncPage, SyncPageText, SyncWriteResult } from './ports.js';

/** The tools the docs agent is given, in the order the provider sees them. */
export const SYNC_TOOL_NAMES = ['read_page', 'write_page', 'read_file', 'list_files'] as const;

/** What one run's tools share: the pages it may change and what happened to each. */
export interface SyncToolScope {
  /** The pages of this run, by the id the model uses. */
  pages: Map<string, SyncPage>;
  docs: SyncDocsWriter;
  code: SyncCodeReader;
  /** Filled as the model writes: the last write of each page, by id. */
  writes: Map<string, SyncWriteResult>;
}

const CHANGED = new Set<SyncWriteResult['outcome']>(['published', 'drafted', 'proposed']);

/** True when a write result changed the page (or, in a dry run, would). */
export function changedPage(result: SyncWriteResult | undefined): boolean {
  return result !== undefined && CHANGED.has(result.outcome);
}

/**
 * The docs agent's tools: read and write the run's pages through the docs writer (the author
 * tools' rules, with `based_on`), and read the project's code inside the deny rules. A page that
 * conflicted is not written again in the same run: a person changed it, and their edit wins.
 */
export function syncTools(scope: SyncToolScope): Record<'read_page' | 'write_page' | 'read_file' | 'list_files', Tool> {
  const pageArg = z
    .string()
    .min(1)
    .max(400)
    .describe(`Page id, one of: ${[...scope.pages.keys()].join(', ')}.`);
  const unknownPage = (id: string) => ({
    error: `"${id}" is not a page of this run. Use one of: ${[...scope.pages.keys()].join(', ')}. Only the stale pages listed may be changed.`,
  });
  return {
    read_page: tool({
      description: 'Reads one stale page again: its Markdown and the content_hash to pass as based_on.',
      inputSchema: z.object({ page: pageArg }),
      execute: async ({ page: id }) => {
        const page = scope.pages.get(id);
        if (!page) return unknownPage(id);
        const read: SyncPageText | null = await scope.docs.read(page);
        if (!read) return { error: `The page ${id} no longer exists; leave it.` };
        return { page: id, content_hash: read.contentHash, markdown: read.text };
      },
    }),
    write_page: tool({
      description:
        'Replaces the Markdown body of one stale page (and its frontmatter, when given). based_on must be the content_hash the page was read with; a page a person changed since is refused as conflicted.',
      inputSchema: z.object({
        page: pageArg,
        body: z.string().max(500_000).describe('The whole new Markdown body, without the frontmatter block.'),
        frontmatter: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("Replaces the frontmatter; omit it to keep the page's own (recommended)."),
        based_on: z.string().min(1).max(200).describe('The content_hash the page was read with.'),
        summary: z.string().max(500).optional().describe('One line saying what changed.'),
      }),
      execute: async (input) => {
        const page = scope.pages.get(input.page);
        if (!page) return unknownPage(input.page);
        if (scope.writes.get(input.page)?.outcome === 'conflicted') {
          return {
            outcome: 'rejected',
            message: `The page ${input.page} conflicted: a person changed it during this run. It is left for them; do not write it again.`,
          };
        }
        const result = await scope.docs.write(page, {
          body: input.body,
          basedOn: input.based_on,
          ...(input.frontmatter ? { frontmatter: input.frontmatter } : {}),
          ...(input.summary ? { summary: input.summary } : {}),
        });
        const before = scope.writes.get(input.page);
        // A later failed attempt does not undo a change already made.
        if (changedPage(result) || !changedPage(before)) scope.writes.set(input.page, result);
        return {
          outcome: result.outcome,
          message: result.message,
          ...(result.revision ? { content_hash: result.revision.content_hash } : {}),
          ...(result.validation && result.validation.issues.length > 0
            ? {
                validation: result.validation.issues.map(
                  (issue) => `${issue.severity} ${issue.rule}: ${issue.message}`,
                ),
              }
            : {}),
        };
      },
    }),
    read_file: tool({
      description: "Reads one of the project's files as text, by path relative to the project root.",
      inputSchema: z.object({ path: z.string().min(1).max(1024).describe('File path, e.g. "src/router.ts".') }),
      execute: async ({ path }) => {
        const read = await scope.code.read(path);
        return 'error' in read
          ? read
          : { path, text: read.text, ...(read.truncated ? { note: 'The file is longer; this is its start.' } : {}) };
      },
    }),
    list_files: tool({
      description: "Lists one folder of the project (folders end with /). Omit path for the project's root.",
      inputSchema: z.object({ path: z.string().max(1024).optional().describe('Folder path, e.g. "src".') }),
      execute: async ({ path }) => scope.code.list(path ?? ''),
    }),
  };
}
