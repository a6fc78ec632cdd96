/**
 * The files a site answers at its root for agents and crawlers that know only the host name:
 * `/llms.txt` naming each documentation set's own llms.txt, `/robots.txt` with a `Sitemap:` line per
 * set, and the MCP catalog of the sets' endpoints. These follow conventions that are still drafts
 * (llmstxt.org, the MCP Server Card extension); the builders here only format what the caller
 * decided to list, so a private set is never in them unless the caller put it there.
 */

/** One documentation set as the site's root `llms.txt` lists it. */
export interface SiteLlmsTxtEntry {
  /** The set's name (manifest `name`). */
  name: string;
  /** Absolute URL of the set's own llms.txt. */
  url: string;
  description?: string;
  /** Absolute URL of the set's web MCP endpoint, when it has one. */
  mcpUrl?: string;
}

/**
 * The site root's `llms.txt`: an H1, a summary, and one link per documentation set to its own
 * llms.txt (llmstxt.org's structure, so checkers and agents read it like any other).
 *
 * @example
 * buildSiteLlmsTxt([{ name: 'Kit', url: 'https://example.com/docs/llms.txt' }]);
 * // '# Documentation\n\n> …\n\n## Documentation sets\n\n- [Kit](https://example.com/docs/llms.txt)\n'
 */
export function buildSiteLlmsTxt(entries: SiteLlmsTxtEntry[]): string {
  const lines = [
    '# Documentation',
    '',
    '> The documentation sets on this site. Each has its own llms.txt listing its pages as Markdown (a page URL with .md added); read the one you need.',
    '',
    '## Documentation sets',
    '',
  ];
  for (const entry of entries) {
    const description = entry.description?.replace(/\s+/g, ' ').trim();
    lines.push(`- [${entry.name.replace(/[[\]]/g, '')}](${entry.url})${description ? `: ${description}` : ''}`);
  }
  const endpoints = entries.filter((entry) => entry.mcpUrl);
  if (endpoints.length > 0) {
    lines.push('', '## MCP endpoints', '');
    for (const entry of endpoints) lines.push(`- [${entry.name.replace(/[[\]]/g, '')} MCP server](${entry.mcpUrl})`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The site's `robots.txt`: every crawler may read everything, and each sitemap given is named on a
 * `Sitemap:` line (absolute URLs, as the Sitemaps protocol requires).
 *
 * @example
 * buildRobotsTxt(['https://example.com/docs/sitemap.xml']);
 * // 'User-agent: *\nDisallow:\n\nSitemap: https://example.com/docs/sitemap.xml\n'
 */
export function buildRobotsTxt(sitemaps: string[]): string {
  const lines = ['User-agent: *', 'Disallow:'];
  if (sitemaps.length > 0) lines.push('', ...sitemaps.map((url) => `Sitemap: ${url}`));
  return `${lines.join('\n')}\n`;
}

/** One server of an MCP catalog. */
export interface McpCatalogEntry {
  /** `urn:mcp:server:` and the server card's `name`. */
  identifier: string;
  displayName: string;
  mediaType: 'application/mcp-server+json';
  /** Absolute URL of the server card. */
  url: string;
}

/** An MCP catalog (the discovery document of the MCP Server Card extension, draft). */
export interface McpCatalog {
  specVersion: 'draft';
  entries: McpCatalogEntry[];
}

/**
 * The MCP catalog of a site: one entry per server card, as the draft's `/.well-known/mcp/catalog.json`
 * describes (`specVersion`, `entries` with `identifier`, `displayName`, `mediaType`, `url`).
 *
 * @example
 * buildMcpCatalog([{ name: 'com.example/docs', title: 'Kit', url: 'https://example.com/docs/mcp/server-card' }]);
 */
export function buildMcpCatalog(cards: Array<{ name: string; title: string; url: string }>): McpCatalog {
  return {
    specVersion: 'draft',
    entries: cards.map((card) => ({
      identifier: `urn:mcp:server:${card.name}`,
      displayName: card.title,
      mediaType: 'application/mcp-server+json',
      url: card.url,
    })),
  };
}
