import { KitError, MIN_READ_CHARS, type PageListing, type SearchResult } from '@kit/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  commentArgument,
  groupArgument,
  helpfulArgument,
  limitArgument,
  localeArgument,
  pathArgument,
  queryArgument,
  cursorArgument,
  maxCharsArgument,
  optionalFlag,
  optionalName,
  sectionArgument,
  sectionsArgument,
  setArgument,
  subsectionsArgument,
  toolArguments,
  versionArgument,
} from './arguments.js';
import {
  type AffectedPages,
  absoluteUrl,
  type McpContext,
  resolvePageSet,
  resolveSet,
  type ValidateDocs,
} from './context.js';
import { toolError } from './errors.js';

/** The names of every tool this package serves, in the order `tools/list` shows them. */
export const MCP_TOOL_NAMES = [
  'search_docs',
  'read_page',
  'list_pages',
  'submit_feedback',
  'validate_docs',
  'affected_pages',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

const READ_TOOL: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const FEEDBACK_TOOL: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

const searchOutput = z.object({
  set: z.string(),
  version: z.string(),
  query: z.string(),
  results: z.array(
    z.object({
      title: z.string(),
      path: z.string(),
      url: z.string(),
      markdown_url: z.string(),
      heading: z.string().nullable(),
      snippet: z.string(),
      description: z.string().nullable(),
      score: z.number(),
      sections: z.array(
        z.object({ heading: z.string().nullable(), url: z.string(), snippet: z.string(), score: z.number() }),
      ),
    }),
  ),
});

const listOutput = z.object({
  set: z.string(),
  version: z.string(),
  locale: z.string(),
  groups: z.array(
    z.object({
      label: z.string(),
      tab: z.string().optional(),
      pages: z.array(z.object({ title: z.string(), path: z.string(), description: z.string().nullable() })),
    }),
  ),
});

/** Which optional tools this caller gets; decided once per server, before `tools/list`. */
export interface ToolOffer {
  feedback: boolean;
  validate: ValidateDocs | undefined;
  /** Local server only. */
  affected?: AffectedPages | undefined;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Runs a tool's body and turns any failure into the tool error an agent reads. */
export async function guarded(context: McpContext, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolError(error, context.scope.kind === 'local');
  }
}

function searchText(result: SearchResult): string {
  if (result.results.length === 0) {
    return `Nothing in the ${result.set} ${result.version} docs matches "${result.query}": these docs may not cover it. Try the docs' own words for it, or call list_pages to browse.`;
  }
  const lines = [
    `${count(result.results.length, 'result')} for "${result.query}" in ${result.set} ${result.version}:`,
    '',
  ];
  result.results.forEach((hit, index) => {
    lines.push(`${index + 1}. ${hit.heading ? `${hit.title} › ${hit.heading}` : hit.title} (path: ${hit.path})`);
    lines.push(`   ${hit.url}`);
    if (hit.snippet) lines.push(`   ${hit.snippet.replace(/\s+/g, ' ')}`);
    for (const section of hit.sections ?? []) {
      lines.push(`   Also on this page: ${section.heading ?? hit.title} (${section.url})`);
      if (section.snippet) lines.push(`     ${section.snippet.replace(/\s+/g, ' ')}`);
    }
  });
  lines.push('', 'Call read_page with a path (or URL) to read a page before citing it.');
  return lines.join('\n');
}

function listText(listing: PageListing): string {
  const pages = listing.groups.reduce((sum, group) => sum + group.pages.length, 0);
  const lines = [
    `${listing.set} ${listing.version} (${listing.locale}): ${count(pages, 'page')} in ${count(listing.groups.length, 'group')}.`,
  ];
  for (const group of listing.groups) {
    lines.push('', `## ${group.tab ? `${group.tab} › ` : ''}${group.label}`);
    for (const page of group.pages) {
      lines.push(`- ${page.title} (path: ${page.path})${page.description ? `: ${page.description}` : ''}`);
    }
  }
  return lines.join('\n');
}

/** Registers the tools this caller may use on `server`. */
export function registerTools(server: McpServer, context: McpContext, offer: ToolOffer): void {
  // The viewer is read from the context at call time: the web endpoint reuses a server across callers.
  const { kit, scope, origin } = context;
  const set = setArgument(scope.kind === 'local' ? { kind: 'local', defaultSet: kit.config.default } : scope);

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Finds the best matching pages for a query, each with its best matching section and a snippet, and other sections of the same page that match well (`sections`). No results means nothing in these docs matches. Search first, then read_page the results you use.',
      inputSchema: toolArguments('search_docs', {
        query: queryArgument,
        version: versionArgument(context.examples),
        locale: localeArgument(context.examples),
        limit: limitArgument,
        sections: sectionsArgument,
        set,
      }),
      outputSchema: searchOutput,
      annotations: READ_TOOL,
    },
    (args) =>
      guarded(context, async () => {
        const docSet = await resolveSet(context, args.set);
        const found = await docSet.search(
          { query: args.query, version: args.version, locale: args.locale, limit: args.limit, sections: args.sections },
          context.viewer,
          'mcp',
        );
        const result: SearchResult = {
          ...found,
          results: found.results.map((hit) => ({
            ...hit,
            url: absoluteUrl(hit.url, origin),
            markdown_url: absoluteUrl(hit.markdown_url, origin),
            sections: (hit.sections ?? []).map((section) => ({ ...section, url: absoluteUrl(section.url, origin) })),
          })),
        };
        return {
          content: [{ type: 'text', text: searchText(result) }],
          structuredContent: result as unknown as Record<string, unknown>,
        };
      }),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a docs page',
      description:
        'Reads one page as Markdown: by path ("routing"), page URL or .md URL, optionally some of its sections. A page longer than max_chars comes in parts: call again with the same path and the next_cursor from _meta (the last line of a part says so too) until no cursor is left. The text ends with the content_hash line; _meta carries title, path, version, locale, url, markdown_url and content_hash, plus range and next_cursor for a part, and stale when the code the page documents changed after it.',
      inputSchema: toolArguments('read_page', {
        path: pathArgument('the page path ("routing", "index" for the landing page), its URL or its .md URL.').describe(
          'Page path, or its URL or .md URL.',
        ),
        version: versionArgument(context.examples),
        locale: localeArgument(context.examples),
        section: sectionArgument,
        subsections: subsectionsArgument,
        max_chars: maxCharsArgument(MIN_READ_CHARS),
        cursor: cursorArgument,
        set,
      }),
      annotations: READ_TOOL,
    },
    (args) =>
      guarded(context, async () => {
        const docSet = await resolvePageSet(context, args.set, args.path);
        const page = await docSet.readPage(
          {
            path: args.path,
            version: args.version,
            locale: args.locale,
            section: args.section,
            subsections: args.subsections,
            maxChars: args.max_chars ?? 'budget',
            cursor: args.cursor,
            staleness: true,
          },
          context.viewer,
        );
        return {
          content: [{ type: 'text', text: page.text }],
          _meta: {
            ...page.meta,
            url: absoluteUrl(page.meta.url, origin),
            markdown_url: absoluteUrl(page.meta.markdown_url, origin),
          },
        };
      }),
  );

  server.registerTool(
    'list_pages',
    {
      title: 'List the docs pages',
      description:
        'Lists the docs as the navigation shows them: groups in order, then their pages with title, path and description.',
      inputSchema: toolArguments('list_pages', {
        version: versionArgument(context.examples),
        locale: localeArgument(context.examples),
        group: groupArgument,
        set,
      }),
      outputSchema: listOutput,
      annotations: READ_TOOL,
    },
    (args) =>
      guarded(context, async () => {
        const docSet = await resolveSet(context, args.set);
        const listing = await docSet.listPages(
          { version: args.version, locale: args.locale, group: args.group },
          context.viewer,
        );
        return {
          content: [{ type: 'text', text: listText(listing) }],
          structuredContent: listing as unknown as Record<string, unknown>,
        };
      }),
  );

  if (offer.feedback) {
    server.registerTool(
      'submit_feedback',
      {
        title: 'Send feedback on a page',
        description:
          'Tells the docs team whether a page helped, and what was wrong or missing. Use it when a page is wrong, outdated or lacks what you needed.',
        inputSchema: toolArguments('submit_feedback', {
          path: pathArgument('the path or URL of the page the feedback is about.').describe(
            'Page path or URL the feedback is about.',
          ),
          helpful: helpfulArgument,
          comment: commentArgument,
          version: versionArgument(context.examples),
          locale: localeArgument(context.examples),
          set,
        }),
        annotations: FEEDBACK_TOOL,
      },
      (args) =>
        guarded(context, async () => {
          const docSet = await resolvePageSet(context, args.set, args.path);
          if (!docSet.config.feedback.enabled) {
            throw new KitError(
              'argument.invalid',
              `Feedback is turned off for the set "${docSet.key}" (feedback.enabled is false); nothing was sent.`,
            );
          }
          const comment = args.comment?.trim() || undefined;
          await docSet.submitFeedback(
            { path: args.path, helpful: args.helpful, comment, version: args.version, locale: args.locale },
            context.viewer,
            'agent',
          );
          return {
            content: [
              {
                type: 'text',
                text: `Feedback on "${args.path}" sent to the docs team (${args.helpful ? 'helpful' : 'not helpful'}${comment ? ', with your comment' : ''}). Thank you.`,
              },
            ],
          };
        }),
    );
  }

  const validate = offer.validate;
  if (validate) {
    server.registerTool(
      'validate_docs',
      {
        title: 'Validate the docs',
        description:
          'Checks broken links and anchors, navigation entries without pages, schema errors in the manifest, navigation and frontmatter, unknown components, missing snippets and more. Each issue has a stable rule id and often a fix. Run it after writing.',
        inputSchema: toolArguments('validate_docs', {
          version: versionArgument(context.examples, 'Only this version. Default: every version.'),
          set,
        }),
        annotations: READ_TOOL,
      },
      (args) =>
        guarded(context, async () => {
          const docSet = await resolveSet(context, args.set);
          const report = await validate({ set: docSet.key, version: args.version });
          return {
            content: [{ type: 'text', text: JSON.stringify(report, null, 2) }],
            structuredContent: report,
          };
        }),
    );
  }

  const affected = offer.affected;
  if (affected) {
    server.registerTool(
      'affected_pages',
      {
        title: 'Pages affected by a change',
        description:
          'Lists pages whose `sources:` frontmatter matches files changed between base (default: the default branch) and head plus uncommitted work; each page is `updated` (the page changed too) or `stale` (update it in the same change). Same check as `kit affected`.',
        inputSchema: toolArguments('affected_pages', {
          base: optionalName(
            'base',
            'a commit, branch or tag such as "main"; omit it for the default branch.',
          ).describe('Commit, branch or tag to compare with. Default: the default branch.'),
          head: optionalName('head', 'a commit, branch or tag; omit it for HEAD.').describe('Default: HEAD.'),
          uncommitted: optionalFlag('uncommitted').describe(
            'Count staged, unstaged and untracked files. Default: true.',
          ),
          set: optionalName('set', 'a set key; omit it for every set.').describe('Only this set. Default: every set.'),
          drift: optionalFlag('drift').describe(
            'Also list pages that drifted before this change (a source changed after the page). Default: false.',
          ),
        }),
        annotations: READ_TOOL,
      },
      (args) =>
        guarded(context, async () => {
          if (args.set !== undefined) kit.set(args.set);
          const result = (await affected(args)) as Record<string, unknown>;
          return {
            content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
            structuredContent: result,
          };
        }),
    );
  }
}
