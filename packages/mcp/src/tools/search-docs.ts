import type { SearchResult } from '@kit/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  limitArgument,
  localeArgument,
  queryArgument,
  type SetArgument,
  sectionsArgument,
  toolArguments,
  versionArgument,
} from '../arguments.js';
import { absoluteUrl, type McpContext, resolveSet } from '../context.js';
import { READ_TOOL } from './annotations.js';
import { count } from './count.js';
import { guarded } from './guarded.js';

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

/** Registers `search_docs`: the best matching pages for a query, with their best sections. */
export function registerSearchDocs(server: McpServer, context: McpContext, set: SetArgument): void {
  const { origin } = context;
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
}
