import { type DocSet, type Kit, KitError, type Viewer } from '@kit/core';
import { mcpEndpointPath, setOfUrl } from '@kit/core/internal';
import type { ArgumentExamples } from './arguments.js';

/** Which sets a server answers for: every set (the local stdio server) or one set (a web endpoint). */
export type McpScope = { kind: 'local' } | { kind: 'web'; set: string };

/**
 * Runs the same check as `kit validate --json` and returns its report. The CLI supplies it; without
 * one the `validate_docs` tool is not offered.
 */
/**
 * `validate_docs`: the `kit validate --json` report of one set. `pages` (the author tools' check
 * after a change) limits the per-page checks to those pages.
 */
export type ValidateDocs = (input: {
  set: string;
  version?: string;
  pages?: readonly string[];
}) => Promise<Record<string, unknown>>;

/** What `affected_pages` is asked: the same options as `kit affected`. */
export interface AffectedPagesInput {
  base?: string;
  head?: string;
  uncommitted?: boolean;
  set?: string;
  drift?: boolean;
}

/**
 * Runs the same check as `kit affected --json` (pages whose `sources:` match changed files). It reads
 * the working tree, so only the local server offers it; the CLI supplies it.
 */
export type AffectedPages = (input: AffectedPagesInput) => Promise<object>;

/** What every tool, resource and prompt of one server shares. */
export interface McpContext {
  kit: Kit;
  scope: McpScope;
  viewer: Viewer;
  /** Absolute origin (`https://example.com`) that URL paths in results are prefixed with, if known. */
  origin: string | undefined;
  /** Version ids and locale codes the tool descriptions quote: the served sets' own (see {@link argumentExamples}). */
  examples: ArgumentExamples;
  /**
   * The service's base address, for the `$schema` (`{base_url}/schemas/3.x/kit.json`) that
   * `update_manifest` writes when it creates or upgrades `kit.json`. Default: `origin`.
   */
  schemaOrigin?: string | undefined;
}

/**
 * The version ids and locale codes tool descriptions quote: those of the served sets (the default
 * set first) that `viewer` may see, so a guest is never shown a private version's name.
 */
export async function argumentExamples(kit: Kit, scope: McpScope, viewer: Viewer): Promise<ArgumentExamples> {
  const keys =
    scope.kind === 'web'
      ? [scope.set]
      : [kit.config.default, ...[...kit.sets.keys()].filter((key) => key !== kit.config.default)];
  const versions = new Set<string>();
  const locales = new Set<string>();
  for (const key of keys) {
    const docSet = kit.sets.get(key);
    if (!docSet) continue;
    const visible = await docSet.versions(viewer);
    // A set without versions answers one, "current": nothing to quote.
    if ((await docSet.manifest()).versioned) {
      for (const version of [...visible.filter((v) => v.default), ...visible.filter((v) => !v.default)])
        versions.add(version.id);
    }
    if (visible.length === 0) continue;
    for (const locale of await docSet.locales()) locales.add(locale.code);
  }
  return { versions: [...versions], locales: [...locales] };
}

/**
 * The set a call reads. A web endpoint is bound to its own set: naming another is refused, and the
 * caller's access is checked again on every call. The local server resolves the key (default: the
 * configured default set) and lists the keys when it is unknown.
 */
export async function resolveSet(context: McpContext, requested: string | undefined): Promise<DocSet> {
  const { kit, scope, viewer } = context;
  if (scope.kind === 'local') return kit.set(requested);
  if (requested !== undefined && requested !== scope.set) {
    throw new KitError(
      'set.foreign',
      `This endpoint serves only the set "${scope.set}"; omit \`set\` or send "${scope.set}". Connect to the other set's own MCP endpoint to read it.`,
    );
  }
  const docSet = kit.set(scope.set);
  if (!(await docSet.canView(viewer, {}))) {
    throw new KitError('access.denied', `You may no longer read the set "${scope.set}". Sign in again and retry.`);
  }
  return docSet;
}

/**
 * The set a call about one page reads, when the page is given as a URL: a URL of another set
 * (same site, another prefix) is refused on a web endpoint with `set.foreign` naming that set's
 * own endpoint; the local server reads it from that set unless `set` names another. A page path
 * or a URL of this set resolves as {@link resolveSet} does.
 */
export async function resolvePageSet(
  context: McpContext,
  requested: string | undefined,
  page: string,
): Promise<DocSet> {
  const owner = setOfUrl(context.kit, page);
  const { scope } = context;
  if (owner && scope.kind === 'web' && owner.key !== scope.set) {
    const endpoint = absoluteUrl(mcpEndpointPath(owner.config.route.prefix, owner.config.mcp.web.path), context.origin);
    throw new KitError(
      'set.foreign',
      `"${page}" is a page of the set "${owner.key}", not of "${scope.set}" that this endpoint serves. Read it through that set's own MCP endpoint, ${endpoint}, or pass a page path of "${scope.set}".`,
      { details: { set: owner.key, endpoint } },
    );
  }
  if (owner && scope.kind === 'local' && requested !== undefined && requested !== owner.key) {
    throw new KitError(
      'set.foreign',
      `"${page}" is a page of the set "${owner.key}", not of "${requested}". Send set "${owner.key}", or omit set.`,
      { details: { set: owner.key } },
    );
  }
  return resolveSet(context, scope.kind === 'local' && owner ? owner.key : requested);
}

/** Makes a site URL path absolute when the server knows its origin; absolute URLs pass unchanged. */
export function absoluteUrl(url: string, origin: string | undefined): string {
  return origin && url.startsWith('/') ? `${origin.replace(/\/$/, '')}${url}` : url;
}
