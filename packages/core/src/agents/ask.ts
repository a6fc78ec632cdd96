import type { DocSet, PageRef, Viewer } from '../ports/docset.js';
import type { SearchResult } from '../ports/search-driver.js';
import { markdownUrl } from '../urls/set-urls.js';
import { type AgentFileScope, agentFilePath, cleanOrigin, layoutOf } from './scope.js';

/**
 * Search results as Markdown for agents (the `GET /ask?q=` answer): the query, then each hit as a
 * numbered link to its `.md` twin with the section, the page URL and the snippet.
 *
 * @example
 * askMarkdown(await docs.search({ query: 'retry jobs' }, viewer, 'http'));
 */
export function askMarkdown(result: SearchResult): string {
  const lines = [`# Search results for "${result.query.replace(/\s+/g, ' ')}"`, ''];
  lines.push(
    `Set \`${result.set}\`, version \`${result.version}\`: ${result.results.length} ${result.results.length === 1 ? 'result' : 'results'}.`,
    '',
  );
  if (result.results.length === 0) {
    lines.push('Nothing matched. Try fewer or different words, or another version.', '');
  }
  result.results.forEach((hit, index) => {
    const title = hit.heading ? `${hit.title} › ${hit.heading}` : hit.title;
    lines.push(`${index + 1}. [${title.replace(/([[\]\\])/g, '\\$1')}](${hit.markdown_url})`);
    lines.push(`   Page: ${hit.url}`);
    if (hit.description) lines.push(`   ${hit.description.replace(/\s+/g, ' ')}`);
    const snippet = hit.snippet.replace(/\s+/g, ' ').trim();
    if (snippet) lines.push(`   > ${snippet}`);
    for (const section of hit.sections ?? []) {
      lines.push(`   - Also on this page: ${section.heading ?? hit.title} (${section.url})`);
      const more = section.snippet.replace(/\s+/g, ' ').trim();
      if (more) lines.push(`     > ${more}`);
    }
    lines.push('');
  });
  lines.push('Read a page in full by fetching its `.md` URL.', '');
  return lines.join('\n');
}

/** The agent links of a page: its Markdown twin and the `llms.txt` that describes it. */
export interface AgentLinks {
  markdownUrl: string;
  /** Null when `agents.llms_txt` is off for the set. */
  llmsTxtUrl: string | null;
}

/**
 * The URLs a page's HTML head and `Link` header point agents to: `rel="alternate"
 * type="text/markdown"` (the `.md` twin) and `rel="describedby"` (the `llms.txt` of the page's
 * version and locale). Absolute when `origin` is given, else paths.
 *
 * @example
 * await agentLinksFor(docs, { version: '12.x', locale: 'en', path: 'routing' });
 * // { markdownUrl: '/docs/12.x/routing.md', llmsTxtUrl: '/docs/12.x/llms.txt' }
 */
export async function agentLinksFor(
  set: DocSet,
  ref: Omit<PageRef, 'set'>,
  options: { origin?: string } = {},
): Promise<AgentLinks> {
  const origin = cleanOrigin(options.origin ?? '');
  const { layout } = await layoutOf(set);
  return {
    markdownUrl: origin + markdownUrl(layout, ref),
    llmsTxtUrl: set.config.agents.llms_txt ? origin + agentFilePath(layout, ref, 'llms.txt') : null,
  };
}

/** One page's agent Markdown size, for the `markdown.size` rule. */
export interface AgentMarkdownSize {
  version: string;
  locale: string;
  path: string;
  file?: string;
  /** Characters of the agent Markdown (with its `content_hash` line). */
  characters: number;
  /** `agents.markdown_budget` of the set. */
  budget: number;
}

/**
 * The agent Markdown size of every page a viewer may see in one version and locale, with the set's
 * `agents.markdown_budget`, so validation can warn `markdown.size` for the pages over it.
 *
 * @example
 * const over = (await agentMarkdownSizes(docs, { user: null, local: true })).filter((s) => s.characters > s.budget);
 */
export async function agentMarkdownSizes(
  set: DocSet,
  viewer: Viewer,
  scope: AgentFileScope = {},
): Promise<AgentMarkdownSize[]> {
  const pages = await set.visiblePages(scope, viewer);
  const sizes: AgentMarkdownSize[] = [];
  for (const page of pages) {
    const result = await set.readPage({ path: page.path, version: page.version, locale: page.locale }, viewer);
    sizes.push({
      version: page.version,
      locale: page.locale,
      path: page.path,
      ...(page.file ? { file: page.file } : {}),
      characters: result.text.length,
      budget: set.config.agents.markdown_budget,
    });
  }
  return sizes;
}
