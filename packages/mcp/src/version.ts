import { readFileSync } from 'node:fs';

/**
 * The installed `@kit/mcp` package's version, which every Kit MCP server reports as
 * `serverInfo.version` (`package.json` sits one folder above both `src/` and `dist/`).
 */
export const MCP_PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
