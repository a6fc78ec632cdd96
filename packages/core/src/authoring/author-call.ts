import { KitError } from '../errors/kit-error.js';
import { outcomeForChange } from '../outcomes/outcomes.js';
import type { ContentWriter } from '../ports/content-writer.js';
import type { DocSet, Viewer } from '../ports/docset.js';
import type { ValidationIssue } from '../schemas/documents.js';
import { createUrlLayout, type UrlLayout } from '../urls/set-urls.js';

/** Where an author tool call comes from, and what it may use. */
export interface AuthorCall {
  viewer: Viewer;
  /**
   * `local`: the local server (`kit mcp`), whose changes travel in the developer's pull request.
   * `web`: a set's MCP endpoint, where `review: 'required'` turns every change into a draft.
   */
  channel: 'local' | 'web';
  /** Who makes the change, for the revision: a user id, or `agent:<client name>`. */
  author?: string;
  /**
   * Validates one version of the set after a change (the CLI supplies `kit validate`'s check); the
   * issues about what the change touched come back in the result's `validation`. Without it,
   * `validation` holds only the checks of the written text itself.
   */
  validate?: (input: {
    set: string;
    version: string;
    /** Check only these pages' own issues (see `ValidateDocSetOptions.pages`); absent checks the whole version. */
    pages?: readonly string[];
  }) => Promise<{ issues: readonly ValidationIssue[] }>;
  /**
   * The `$schema` `update_manifest` writes when it creates or upgrades `kit.json`: the service's
   * `{base_url}/schemas/3.x/kit.json` (`manifestSchemaUrl`). Without it `$schema` is left as it is.
   */
  manifestSchemaUrl?: string;
}

/** Common arguments of the author tools (`update_manifest` takes neither `version` nor `locale`). */
export interface AuthorArguments {
  version?: string;
  locale?: string;
  summary?: string;
  based_on?: string;
}

/**
 * Whether a caller may use the author tools on a set, and why not. The local server may on every
 * set that can be written; a web endpoint only on a database set with `mcp.web.author_tools` on,
 * for a signed-in caller the `manageKit` gate allows (a repository set never writes from the web:
 * its changes belong in a pull request).
 *
 * @example
 * const access = await authorAccess(docSet, { viewer, channel: 'web' });
 * if (access.allowed) registerAuthorTools(...);
 */
export async function authorAccess(
  docSet: DocSet,
  call: Pick<AuthorCall, 'viewer' | 'channel'>,
): Promise<{ allowed: true; writer: ContentWriter } | { allowed: false; reason: string }> {
  const writer = docSet.source.writer;
  if (!writer) {
    return { allowed: false, reason: `The set "${docSet.key}" has a content source that cannot be written.` };
  }
  if (call.channel === 'local') {
    return call.viewer.local === true
      ? { allowed: true, writer }
      : { allowed: false, reason: 'Author tools of the local server are for the local operator only.' };
  }
  if (docSet.source.kind !== 'database') {
    return {
      allowed: false,
      reason: `The set "${docSet.key}" is a repository set: its pages are files, changed in a pull request. Use the local server (kit mcp) in a clone of the repository to write them.`,
    };
  }
  if (!docSet.config.mcp.web.author_tools) {
    return {
      allowed: false,
      reason: `Author tools are off on this endpoint (mcp.web.author_tools is false for the set "${docSet.key}").`,
    };
  }
  if (call.viewer.user === null || call.viewer.user === undefined) {
    return { allowed: false, reason: 'Sign in to use the author tools.' };
  }
  if (!(await docSet.canManage(call.viewer))) {
    return { allowed: false, reason: `The manageKit gate does not allow you to change the set "${docSet.key}".` };
  }
  return { allowed: true, writer };
}

/** What every author tool starts from: the writer, the set's URL layout, the version and locale named, and whether the change is a draft. */
export interface Prepared {
  writer: ContentWriter;
  layout: UrlLayout;
  version: string;
  locale: string;
  draft: boolean;
}

/**
 * The start of every author tool call: access checked again (`access.denied` naming why), the
 * version and locale resolved to the set's (defaults for the ones left out), and whether `review`
 * makes the change a draft.
 */
export async function prepare(
  docSet: DocSet,
  call: AuthorCall,
  input: { version?: string; locale?: string },
): Promise<Prepared> {
  const access = await authorAccess(docSet, call);
  if (!access.allowed) throw new KitError('access.denied', access.reason);
  const layout = createUrlLayout(docSet.config.route.prefix, await docSet.manifest());
  const version = checkVersion(docSet, layout, input.version);
  const locale = checkLocale(docSet, layout, input.locale);
  const draft =
    outcomeForChange({ review: docSet.config.review, outsidePullRequest: call.channel === 'web' }) === 'drafted';
  return { writer: access.writer, layout, version, locale, draft };
}

/** The version an author tool names, or the default one; `version.not_found` for one the set lacks. */
export function checkVersion(docSet: DocSet, layout: UrlLayout, requested: string | undefined): string {
  // Author tools default to the default version (read tools to the current one).
  const version = requested?.trim() || layout.defaultVersion;
  const ids = layout.versions.map((entry) => entry.id);
  if (!ids.includes(version)) {
    throw new KitError(
      'version.not_found',
      `No version "${version}" in the "${docSet.key}" docs. Use one of: ${ids.join(', ')} (default ${layout.defaultVersion}), or omit version. To add a version, add it to kit.json with update_manifest first.`,
      { details: { version, versions: ids } },
    );
  }
  return version;
}

/** The locale an author tool names, or the default one; `locale.not_found` for one the set lacks. */
export function checkLocale(docSet: DocSet, layout: UrlLayout, requested: string | undefined): string {
  const locale = requested?.trim() || layout.defaultLocale;
  const codes = layout.locales.map((entry) => entry.code);
  if (!codes.includes(locale)) {
    throw new KitError(
      'locale.not_found',
      `No locale "${locale}" in the "${docSet.key}" docs. Use one of: ${codes.join(', ')} (default ${layout.defaultLocale}), or omit locale.`,
      { details: { locale, locales: codes } },
    );
  }
  return locale;
}
