import { MIN_READ_CHARS } from '@kit/core/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  cursorArgument,
  localeArgument,
  maxCharsArgument,
  pathArgument,
  type SetArgument,
  sectionArgument,
  subsectionsArgument,
  toolArguments,
  versionArgument,
} from '../arguments.js';
import { absoluteUrl, type McpContext, resolvePageSet } from '../context.js';
import { READ_TOOL } from './annotations.js';
import { guarded } from './guarded.js';

/** Registers `read_page`: one page as Markdown, whole, in parts, or some of its sections. */
export function registerReadPage(server: McpServer, context: McpContext, set: SetArgument): void {
  const { origin } = context;
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
}
