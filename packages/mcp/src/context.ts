import { type DocSet, type Kit, KitError, type Viewer } from '@kit/core';

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
  /**
   * The service's base address, for the `$schema` (`{base_url}/schemas/3.x/kit.json`) that
   * `update_manifest` writes when it creates or upgrades `kit.json`. Default: `origin`.
   */
  schemaOrigin?: string | undefined;
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

/** Makes a site URL path absolute when the server knows its origin; absolute URLs pass unchanged. */
export function absoluteUrl(url: string, origin: string | undefined): string {
  return origin && url.startsWith('/') ? `${origin.replace(/\/$/, '')}${url}` : url;
}
