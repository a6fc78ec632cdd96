import { type DocSet, isKitError, type Viewer } from '@kit/core';
import { withoutContentHashLine } from '@kit/core/internal';
import { type Tool, tool } from 'ai';
import { z } from 'zod';

/** A page the assistant read during one answer: what citations may point at. */
export interface ReadPage {
  title: string;
  version: string;
  locale: string;
  path: string;
  /** Site URL of the page, without a fragment. */
  url: string;
  markdownUrl: string;
  /** Anchor ids of the page's headings. */
  anchors: string[];
}

/** What one answer's tools share: the reader's scope, and the pages read so far. */
export interface AskToolScope {
  set: DocSet;
  viewer: Viewer;
  /** The reader's version and locale: the tools' defaults. */
  version: string | undefined;
  locale: string | undefined;
  /** Filled as the assistant reads; keyed by {@link readPageKey}. */
  read: Map<string, ReadPage>;
}

/** The key of a page read: its version, locale and path, what a URL of the set resolves to. */
export function readPageKey(ref: { version: string; locale: string; path: string }): string {
  return `${ref.version}\u0000${ref.locale}\u0000${ref.path}`;
}

/** The names of the tools Ask AI offers, the read tools agents use over MCP. */
export const ASK_TOOL_NAMES = ['search_docs', 'read_page', 'list_pages'] as const;

/** A tool's failure as the model reads it: the message with its fix, never a stack. */
function failure(error: unknown): { error: string } {
  if (isKitError(error) && error.code !== 'internal' && error.code !== 'database.unavailable') {
    return { error: `${error.code}: ${error.message}` };
  }
  throw error;
}

/**
 * The read tools of the MCP server, for the model: the same `DocSet` calls with the asking
 * reader as viewer, so private versions and pages reach it only when `viewKit` allows that reader.
 * `version` and `locale` default to the page the reader asked from.
 */
export function askTools(scope: AskToolScope): Record<(typeof ASK_TOOL_NAMES)[number], Tool> {
  const { set, viewer } = scope;
  const versionArg = z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(`Docs version. Default: the reader's version${scope.version ? ` (${scope.version})` : ''}.`);
  const localeArg = z
    .string()
    .min(1)
    .max(35)
    .optional()
    .describe(`Language code. Default: the reader's language${scope.locale ? ` (${scope.locale})` : ''}.`);
  const defaults = (input: { version?: string | undefined; locale?: string | undefined }) => ({
    version: input.version ?? scope.version,
    locale: input.locale ?? scope.locale,
  });
  return {
    search_docs: tool({
      description:
        'Finds the best matching pages for a query, with the matching section and a snippet. Search first, then read_page the results you use.',
      inputSchema: z.object({
        query: z.string().min(1).max(200).describe('The words to look for.'),
        version: versionArg,
        locale: localeArg,
      }),
      execute: async (input) => {
        try {
          const found = await set.search({ query: input.query, ...defaults(input), limit: 8 }, viewer, 'ask');
          return {
            version: found.version,
            results: found.results.map((hit) => ({
              title: hit.title,
              heading: hit.heading,
              path: hit.path,
              url: hit.url,
              snippet: hit.snippet,
            })),
          };
        } catch (error) {
          return failure(error);
        }
      },
    }),
    read_page: tool({
      description:
        'Reads one page as Markdown, by path ("queues") or URL, optionally one section (heading text or anchor). Read a page before citing it; the result lists the section anchors to cite.',
      inputSchema: z.object({
        path: z.string().min(1).max(300).describe('Page path, or its URL.'),
        section: z.string().min(1).max(200).optional().describe('Heading text or anchor id of one section.'),
        version: versionArg,
        locale: localeArg,
      }),
      execute: async (input) => {
        try {
          const wanted = defaults(input);
          const page = await set.readPage(
            { path: input.path, ...wanted, ...(input.section ? { section: input.section } : {}) },
            viewer,
          );
          const view = await set.getPage(
            { version: page.meta.version, locale: page.meta.locale, path: page.meta.path },
            viewer,
          );
          const sections = (view?.rendered.toc ?? []).map((entry) => ({ heading: entry.text, anchor: entry.id }));
          scope.read.set(readPageKey(page.meta), {
            title: page.meta.title,
            version: page.meta.version,
            locale: page.meta.locale,
            path: page.meta.path,
            url: page.meta.url,
            markdownUrl: page.meta.markdown_url,
            anchors: view?.rendered.anchors ?? sections.map((section) => section.anchor),
          });
          return {
            title: page.meta.title,
            url: page.meta.url,
            version: page.meta.version,
            locale: page.meta.locale,
            sections,
            markdown: withoutContentHashLine(page.text, page.meta.content_hash),
          };
        } catch (error) {
          return failure(error);
        }
      },
    }),
    list_pages: tool({
      description:
        'Lists the docs as the navigation shows them: groups in order, then their pages with title, path and description.',
      inputSchema: z.object({ version: versionArg, locale: localeArg }),
      execute: async (input) => {
        try {
          const listing = await set.listPages(defaults(input), viewer);
          return { version: listing.version, locale: listing.locale, groups: listing.groups };
        } catch (error) {
          return failure(error);
        }
      },
    }),
  };
}
