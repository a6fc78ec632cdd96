import type { AskOptions } from '@kit/ai';
import type { Kit, RateLimitStore } from '@kit/core';
import type { McpHttpOptions } from '@kit/mcp';
import type { SiteRootFiles } from './agent-files/site-root.js';

/** Options of {@link createKitApp}. */
export interface KitAppOptions {
  kit: Kit;
  /** Only these sets (default: every set of the kit). */
  sets?: string[];
  /**
   * Where rate-limit counters live. Default: one process's memory. Give several server processes
   * one Redis store (`createRedisRateLimitStore`) so they share one limit.
   */
  rateLimitStore?: RateLimitStore;
  /** Passed to the MCP endpoint: the `kit validate --json` check offered to `manageKit` callers. */
  validate?: McpHttpOptions['validate'];
  /** Host names the MCP endpoint answers for (DNS-rebinding protection for servers on private addresses). */
  allowedHosts?: string[];
  /** Browser origins besides the site's own allowed to call the MCP endpoint. */
  allowedOrigins?: string[];
  /**
   * Public origin for absolute URLs (`https://docs.example.com`). Without it each request's own
   * origin is written, and what carries it (pages, `llms.txt`, the sitemap, schemas) is shared with
   * other callers (public, ETag) only when its Host is vouched for: one of `allowedHosts`, a set's
   * `route.domain`, or, with neither configured, a loopback name. Any other Host gets a private copy,
   * so a forged Host never reaches a cache.
   */
  origin?: string;
  /** Extra HTML injected before `</body>` of every page (the CLI's live-reload script). */
  injectHtml?: string;
  /**
   * Where the built reader script and stylesheet are kept between runs, so a restart with unchanged
   * reader sources does not build them again. Default `<root>/.kit/cache`; null keeps nothing on disk.
   */
  cacheDir?: string | null;
  /**
   * Ask AI's settings that are not configuration: the providers' environment (default
   * `process.env`), the clock of the daily budget, the wait for a silent provider. Its counts live
   * in `rateLimitStore`.
   */
  ask?: Omit<AskOptions, 'kit' | 'store'>;
  /**
   * The discovery files at the site root: `/llms.txt`, `/robots.txt` and the MCP catalog under
   * `/.well-known/mcp` (see `siteRootRoutes`). On by default; false, or false for one file, leaves
   * that path to the host application. Routes the host registers before mounting Kit win anyway.
   */
  siteRoot?: SiteRootFiles | false;
}
