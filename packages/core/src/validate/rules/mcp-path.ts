import { mcpEndpointPath } from '../../urls/set-urls.js';
import type { Scope, ValidationRun } from '../run.js';

/**
 * `mcp.path_page`: the MCP endpoint shares its URL with the default version's page at
 * `mcp.web.path`. Browsers still get the page, but every other GET there (an MCP client, curl, a
 * crawler) gets the endpoint's 405.
 */
export async function checkMcpPath(run: ValidationRun, scope: Scope): Promise<void> {
  const { docSet, layout } = run;
  const { byPath } = await run.pagesOf(scope);
  const mcpPagePath = docSet.config.mcp.web.path.trim().replace(/^\/+|\/+$/g, '');
  const mcpPage = byPath.get(mcpPagePath);
  if (
    !docSet.config.mcp.web.enabled ||
    scope.version !== layout.defaultVersion ||
    scope.locale !== layout.defaultLocale ||
    !mcpPage
  ) {
    return;
  }
  run.add(
    {
      rule: 'mcp.path_page',
      severity: 'warning',
      message: `The page "${mcpPage.path}" sits at the MCP endpoint (mcp.web.path "${docSet.config.mcp.web.path}"): browsers get the page, but any other GET of ${mcpEndpointPath(layout.prefix, docSet.config.mcp.web.path)} gets the endpoint's 405.`,
      ...(mcpPage.file ? { file: mcpPage.file } : {}),
      fix: `Set mcp.web.path to a path no page uses (for example "_mcp"), or move the page.`,
    },
    { version: scope.version, locale: scope.locale, page: mcpPage.path },
  );
}
