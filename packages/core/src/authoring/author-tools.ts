import { isKitError, KitError } from '../errors/kit-error.js';
import { contentHash, normalizeForHash } from '../hash/content-hash.js';
import { serializeManifest } from '../manifest/document.js';
import { applyManifestPatch } from '../manifest/patch.js';
import type { NavigationFile, SourceProblem } from '../model/types.js';
import { deriveNavigation } from '../navigation/derive.js';
import { navigationPages } from '../navigation/pages.js';
import { parseNavigation } from '../navigation/parse.js';
import { applyNavigationPatch } from '../navigation/patch.js';
import {
  type AuthorToolResult,
  type AuthorValidation,
  applied,
  checkBasedOn,
  conflicted,
  outcomeForChange,
  rejected,
  summarizeValidation,
  unchanged,
} from '../outcomes/outcomes.js';
import { composePageFile, parsePageFile } from '../pages/page-file.js';
import type { ChangeRecord, ContentWriter, PageAddress, WriteReceipt } from '../ports/content-writer.js';
import type { DocSet, Viewer } from '../ports/docset.js';
import type { ValidationIssue } from '../schemas/documents.js';
import { validateAgainstSchema } from '../schemas/registry.js';
import { pagePathProblem, showPagePath } from '../urls/page-path.js';
import { unservablePagePath } from '../urls/servable.js';
import { cleanPagePath, createUrlLayout, type UrlLayout } from '../urls/set-urls.js';
import { addedSecret, describeFinding, frontmatterRefusal } from './secrets.js';

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

/** `write_page` arguments. */
export interface WritePageArguments extends AuthorArguments {
  path: string;
  /** Replaces the page's frontmatter; absent keeps the frontmatter the page has (none for a new page). */
  frontmatter?: Record<string, unknown>;
  /** Markdown without the frontmatter block. */
  body: string;
}

/** `move_page` arguments. */
export interface MovePageArguments extends AuthorArguments {
  from: string;
  to: string;
  to_version?: string;
  to_locale?: string;
}

/** `delete_page` arguments. */
export interface DeletePageArguments extends AuthorArguments {
  path: string;
}

/** `update_navigation` arguments: a whole `tree`, a `patch` applied in order, or both (the patch applies to the tree). */
export interface UpdateNavigationArguments extends AuthorArguments {
  tree?: unknown;
  patch?: unknown;
}

/** `update_manifest` arguments: a JSON merge patch (RFC 7386). */
export interface UpdateManifestArguments {
  patch: unknown;
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

function checkVersion(docSet: DocSet, layout: UrlLayout, requested: string | undefined): string {
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

function checkLocale(docSet: DocSet, layout: UrlLayout, requested: string | undefined): string {
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

/**
 * The clean page path an author named, or why it cannot be one. A path that names a new place
 * (write_page, move_page `to`) must keep the page-path rule (`pagePathProblem`); one that names a
 * page already there (`existing`: delete_page, move_page `from`) need not, so a page stored under
 * such a path before the rule can still be moved to a good one or removed.
 */
function pagePathOf(
  input: string,
  layout: UrlLayout,
  what: string,
  existing = false,
): { path: string } | { refusal: string } {
  const path = typeof input === 'string' ? cleanPagePath(input) : null;
  if (path === null) {
    return {
      refusal: `${showPagePath(input)} is not a page path for ${what}: use segments of letters, digits, "-" and "_" separated by "/", without ".." or backslashes, e.g. "guides/installation" ("index" is the landing page).`,
    };
  }
  const problem = existing ? null : pagePathProblem(path);
  if (problem) {
    return {
      refusal: `The page path ${showPagePath(path)} is refused for ${what}: ${problem}. Use segments of letters, digits, "-" and "_" joined by "/", e.g. "guides/installation".`,
    };
  }
  const unservable = unservablePagePath(path, {
    versions: layout.versions.map((entry) => entry.id),
    locales: layout.locales.map((entry) => entry.code),
    versioned: layout.versioned,
  });
  if (unservable) return { refusal: `The page path "${path}" cannot be used for ${what}: ${unservable}.` };
  return { path };
}

const FRONTMATTER_IN_BODY = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

function where(version: string, locale: string, layout: UrlLayout): string {
  const parts = [layout.versioned ? version : null, layout.locales.length > 1 ? locale : null].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** Longest recorded summary, in characters (code points), as the MCP tools check it. */
const SUMMARY_LIMIT = 500;

/** How a change is recorded: the tool, draft or not, its one-line summary and author. */
export function changeRecord(
  call: AuthorCall,
  tool: ChangeRecord['tool'],
  summary: string | undefined,
  draft: boolean,
): ChangeRecord {
  const line = summary?.replace(/\s+/g, ' ').trim();
  return {
    tool,
    draft,
    // Cut by characters: a cut by UTF-16 units could split an emoji and store half of it.
    ...(line ? { summary: [...line].slice(0, SUMMARY_LIMIT).join('') } : {}),
    ...(call.author ? { author: call.author } : {}),
  };
}

/** Turns a writer's refusal into the outcome an agent acts on; other failures stay errors. */
export async function written(
  write: () => Promise<WriteReceipt>,
  currentHash: () => Promise<string | null>,
): Promise<WriteReceipt | AuthorToolResult> {
  try {
    return await write();
  } catch (error) {
    if (isKitError(error, 'content.conflict')) return conflicted(error.message, await currentHash().catch(() => null));
    if (isKitError(error, 'page.exists') || isKitError(error, 'page.invalid_path')) return rejected(error.message);
    throw error;
  }
}

/** True when a write went through (a receipt), false for the outcome a refusal became. */
export function isReceipt(value: WriteReceipt | AuthorToolResult): value is WriteReceipt {
  return !('message' in value);
}

/** The sentence a drafted change's message ends with: it goes live when a person publishes it. */
export function draftNote(receipt: WriteReceipt): string {
  return receipt.outcome === 'drafted'
    ? ' It is a draft: review is required for changes made outside a pull request, so it goes live when a person publishes it.'
    : '';
}

async function validationAfter(
  docSet: DocSet,
  call: AuthorCall,
  version: string,
  touches: (issue: ValidationIssue) => boolean,
  own: readonly SourceProblem[],
  receipt: WriteReceipt,
  pages?: readonly string[],
): Promise<AuthorValidation> {
  // A draft is not live, so the set's validation would not see it: only the text's own checks apply.
  if (!call.validate || receipt.outcome === 'drafted') return summarizeValidation(own);
  // `pages` names every page whose own issues `touches` can keep (none when it keeps only
  // manifest or navigation issues), so the other pages are not rendered or checked.
  const report = await call.validate({ set: docSet.key, version, ...(pages ? { pages } : {}) });
  return summarizeValidation(report.issues.filter(touches));
}

function mentions(issue: ValidationIssue, path: string): boolean {
  return (
    issue.message.includes(`"${path}"`) || issue.message.includes(`/${path}`) || issue.message.includes(`${path}.md`)
  );
}

/**
 * `write_page`: creates or replaces one page. The page file is the frontmatter (given, else the
 * page's own) and the body; a change whose `based_on` is stale is `conflicted`, writing what is
 * there is `unchanged`, bad input (path, frontmatter, secrets, a frontmatter block inside the
 * body) is `rejected`; else the change is `published`, or `drafted` where review is required.
 *
 * @example
 * await writePageTool(docSet, { path: 'webhooks', frontmatter: { title: 'Webhooks' }, body: '# Webhooks\n' }, { viewer: { user: null, local: true }, channel: 'local' });
 */
export async function writePageTool(
  docSet: DocSet,
  input: WritePageArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, layout, version, locale, draft } = await prepare(docSet, call, input);
  const named = pagePathOf(input.path, layout, 'write_page');
  if ('refusal' in named) return rejected(named.refusal);
  const { path } = named;
  if (typeof input.body !== 'string')
    return rejected("`body` is required: the page's Markdown, without the frontmatter block.");
  if (FRONTMATTER_IN_BODY.test(input.body)) {
    return rejected(
      '`body` starts with a frontmatter block. Pass the frontmatter as the `frontmatter` object and the Markdown after it as `body`.',
    );
  }
  if (
    input.frontmatter !== undefined &&
    (typeof input.frontmatter !== 'object' || input.frontmatter === null || Array.isArray(input.frontmatter))
  ) {
    return rejected('`frontmatter` must be an object of keys, e.g. {"title": "Webhooks", "description": "..."}.');
  }
  const frontmatterProblem = input.frontmatter ? frontmatterRefusal(input.frontmatter) : null;
  if (frontmatterProblem) return rejected(`Nothing was written: ${frontmatterProblem}`);
  const current = await docSet.source.getPage(version, locale, path);
  const secret = addedSecret(input.body, current?.body ?? null);
  if (secret) {
    return rejected(
      `Nothing was written: the body holds ${describeFinding(secret)}. Secrets never belong in docs: remove it or use a placeholder such as <API_KEY>, and rotate the credential if it was real.`,
    );
  }

  const stale = checkBasedOn(input.based_on, current?.contentHash ?? null, `page "${path}"`);
  if (stale) return stale;

  const body = input.body.endsWith('\n') || input.body === '' ? input.body : `${input.body}\n`;
  const parsed = parsePageFile(composePageFile(input.frontmatter ?? current?.frontmatter ?? {}, body));
  const frontmatterErrors = parsed.problems.filter((problem) => problem.severity === 'error');
  if (frontmatterErrors.length > 0) {
    return rejected(
      `Nothing was written: the frontmatter breaks the page schema. ${frontmatterErrors.map((problem) => `${problem.message}${problem.fix ? ` ${problem.fix}` : ''}`).join(' ')}`,
    );
  }
  if (current && current.contentHash === parsed.contentHash) {
    return unchanged(
      `Page "${path}"${where(version, locale, layout)} already holds exactly this; nothing was written.`,
      current.contentHash,
    );
  }

  const page: PageAddress = { version, locale, path };
  const outcome = await written(
    () =>
      writer.writePage(
        page,
        parsed.document,
        current?.contentHash ?? null,
        changeRecord(call, 'write_page', input.summary, draft),
      ),
    async () => (await docSet.source.getPage(version, locale, path))?.contentHash ?? null,
  );
  if (!isReceipt(outcome)) return outcome;

  const listed =
    current || outcome.outcome === 'drafted' ? null : await listedInNavigation(docSet, version, locale, path);
  const navigationHint =
    listed === false
      ? ` It is not in navigation.json yet: add it with update_navigation (patch [{"op": "add", "path": "${path}", "group": "<group label>"}]).`
      : '';
  const validation = await validationAfter(
    docSet,
    call,
    version,
    (issue) => issue.version === version && issue.locale === locale && issue.page === path,
    parsed.problems,
    outcome,
    [path],
  );
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted' : current ? 'Updated' : 'Created'} page "${path}"${where(version, locale, layout)}.${draftNote(outcome)}${navigationHint}${validationNote(validation)}`,
    revision: outcome.revision,
    validation,
    docs_migration: outcome.docs_migration,
  });
}

/**
 * `move_page`: moves a page within the set, across versions and locales too. A page already at
 * the new place is never overwritten (`rejected`); links and navigation are the caller's to update
 * afterwards, and the result says how.
 */
export async function movePageTool(
  docSet: DocSet,
  input: MovePageArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, layout, version, locale, draft } = await prepare(docSet, call, input);
  const toVersion = input.to_version === undefined ? version : checkVersion(docSet, layout, input.to_version);
  const toLocale = input.to_locale === undefined ? locale : checkLocale(docSet, layout, input.to_locale);
  const fromNamed = pagePathOf(input.from, layout, 'move_page `from`', true);
  if ('refusal' in fromNamed) return rejected(fromNamed.refusal);
  const toNamed = pagePathOf(input.to, layout, 'move_page `to`');
  if ('refusal' in toNamed) return rejected(toNamed.refusal);
  const from: PageAddress = { version, locale, path: fromNamed.path };
  const to: PageAddress = { version: toVersion, locale: toLocale, path: toNamed.path };

  const current = await docSet.source.getPage(from.version, from.locale, from.path);
  if (!current) {
    if (input.based_on)
      return conflicted(
        `The page "${from.path}"${where(version, locale, layout)} no longer exists; it was moved or deleted after you read it. Call list_pages to find it.`,
        null,
      );
    return rejected(
      `No page "${from.path}"${where(version, locale, layout)} to move. Call list_pages to see the paths.`,
    );
  }
  const stale = checkBasedOn(input.based_on, current.contentHash, `page "${from.path}"`);
  if (stale) return stale;
  if (from.version === to.version && from.locale === to.locale && from.path === to.path) {
    return unchanged(`"${from.path}" is already at that place; nothing was moved.`, current.contentHash);
  }
  if (await docSet.source.getPage(to.version, to.locale, to.path)) {
    return rejected(
      `A page already exists at "${to.path}"${where(to.version, to.locale, layout)}; move_page never overwrites one. Choose another path, or delete that page first with delete_page.`,
    );
  }

  const outcome = await written(
    () => writer.movePage(from, to, current.contentHash, changeRecord(call, 'move_page', input.summary, draft)),
    async () => (await docSet.source.getPage(from.version, from.locale, from.path))?.contentHash ?? null,
  );
  if (!isReceipt(outcome)) return outcome;

  const validation = await validationAfter(
    docSet,
    call,
    from.version,
    (issue) =>
      issue.version === from.version &&
      issue.locale === from.locale &&
      (issue.page === to.path || mentions(issue, from.path)),
    [],
    outcome,
  );
  const follow =
    outcome.outcome === 'drafted'
      ? ''
      : ` Now update links to it and its navigation entry: update_navigation with patch [{"op": "rename", "path": "${from.path}", "to": "${to.path}"}]${from.version !== to.version || from.locale !== to.locale ? ` in ${from.version}/${from.locale}, and add it in ${to.version}/${to.locale}` : ''}, then validate_docs.`;
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted the move of' : 'Moved'} page "${from.path}"${where(from.version, from.locale, layout)} to "${to.path}"${where(to.version, to.locale, layout)}.${draftNote(outcome)}${follow}${validationNote(validation)}`,
    revision: outcome.revision,
    validation,
    docs_migration: outcome.docs_migration,
  });
}

/** `delete_page`: deletes one page; navigation is the caller's to update afterwards. */
export async function deletePageTool(
  docSet: DocSet,
  input: DeletePageArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, layout, version, locale, draft } = await prepare(docSet, call, input);
  const named = pagePathOf(input.path, layout, 'delete_page', true);
  if ('refusal' in named) return rejected(named.refusal);
  const page: PageAddress = { version, locale, path: named.path };
  const current = await docSet.source.getPage(version, locale, page.path);
  if (!current) {
    if (input.based_on)
      return conflicted(
        `The page "${page.path}"${where(version, locale, layout)} no longer exists; it was moved or deleted after you read it.`,
        null,
      );
    return rejected(
      `No page "${page.path}"${where(version, locale, layout)} to delete. Call list_pages to see the paths.`,
    );
  }
  const stale = checkBasedOn(input.based_on, current.contentHash, `page "${page.path}"`);
  if (stale) return stale;

  const outcome = await written(
    () => writer.deletePage(page, current.contentHash, changeRecord(call, 'delete_page', input.summary, draft)),
    async () => (await docSet.source.getPage(version, locale, page.path))?.contentHash ?? null,
  );
  if (!isReceipt(outcome)) return outcome;
  const validation = await validationAfter(
    docSet,
    call,
    version,
    (issue) => issue.version === version && issue.locale === locale && mentions(issue, page.path),
    [],
    outcome,
  );
  const kept = docSet.source.kind === 'database' ? ' It stays in the revision history and can be restored.' : '';
  const follow =
    outcome.outcome === 'drafted'
      ? ''
      : ` Now remove it from navigation (update_navigation with patch [{"op": "remove", "path": "${page.path}"}]) and fix links to it, then validate_docs.`;
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted the deletion of' : 'Deleted'} page "${page.path}"${where(version, locale, layout)}.${kept}${draftNote(outcome)}${follow}${validationNote(validation)}`,
    revision: outcome.revision,
    validation,
    docs_migration: outcome.docs_migration,
  });
}

/**
 * `update_navigation`: replaces the navigation file of one version and locale with `tree`, and/or
 * applies `patch` operations in order (to `tree` when given, else to the current file; a version
 * without one starts from the navigation derived from its folders). A patch that fails or would
 * make the file invalid is `rejected` and nothing is written.
 */
export async function updateNavigationTool(
  docSet: DocSet,
  input: UpdateNavigationArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, version, locale, draft } = await prepare(docSet, call, input);
  if (input.tree === undefined && input.patch === undefined) {
    return rejected(
      'Pass `tree` (the whole navigation file: {"groups": [...]} or {"tabs": [...]}) or `patch` (a list of operations), or both.',
    );
  }
  const file = await docSet.source.readNavigation(version, locale);
  const currentHash = file ? contentHash(normalizeForHash(file.text)) : null;
  const stale = checkBasedOn(input.based_on, currentHash, `navigation of ${version}/${locale}`);
  if (stale) return stale;

  let start: NavigationFile;
  if (input.tree !== undefined) {
    const issues = validateAgainstSchema('navigation', input.tree);
    if (issues.length > 0) {
      return rejected(
        `Nothing was written: \`tree\` is not a valid navigation file. ${issues.map((issue) => issue.message).join(' ')}`,
      );
    }
    start = input.tree as NavigationFile;
  } else if (file) {
    const parsed = parseNavigation(file.text, file.file);
    if (!parsed.navigation || parsed.problems.some((problem) => problem.severity === 'error')) {
      return rejected(
        `The navigation file of ${version}/${locale} has errors, so a patch cannot be applied safely: ${parsed.problems.map((problem) => problem.message).join(' ')} Pass the whole corrected file as \`tree\` instead.`,
      );
    }
    start = JSON.parse(file.text) as NavigationFile;
  } else {
    start = deriveNavigation(await docSet.source.listPages(version, locale));
  }

  let next: NavigationFile;
  try {
    next = input.patch === undefined ? start : applyNavigationPatch(start, input.patch as unknown[]);
  } catch (error) {
    if (error instanceof KitError) return rejected(`Nothing was written: ${error.message}`);
    throw error;
  }
  const text = `${JSON.stringify(next, null, 2)}\n`;
  const secret = addedSecret(text, file?.text ?? null);
  if (secret) {
    return rejected(
      `Nothing was written: the navigation holds ${describeFinding(secret)}. Secrets never belong in docs: remove it or use a placeholder.`,
    );
  }
  const nextHash = contentHash(text);
  if (nextHash === currentHash) {
    return unchanged(
      `The navigation of ${version}/${locale} already holds exactly this; nothing was written.`,
      nextHash,
    );
  }
  const outcome = await written(
    () =>
      writer.writeNavigation(
        { version, locale },
        text,
        currentHash,
        changeRecord(call, 'update_navigation', input.summary, draft),
      ),
    async () => {
      const now = await docSet.source.readNavigation(version, locale);
      return now ? contentHash(normalizeForHash(now.text)) : null;
    },
  );
  if (!isReceipt(outcome)) return outcome;
  const validation = await validationAfter(
    docSet,
    call,
    version,
    (issue) =>
      issue.rule.startsWith('navigation.') &&
      issue.version === version &&
      (issue.locale === undefined || issue.locale === locale),
    [],
    outcome,
    [],
  );
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted a change to' : 'Updated'} the navigation of ${version}/${locale}.${draftNote(outcome)}${chainNote(outcome)}${validationNote(validation)}`,
    revision: outcome.revision,
    validation,
    docs_migration: outcome.docs_migration,
  });
}

/**
 * `update_manifest`: a JSON merge patch (RFC 7386) on `kit.json`, limited to presentation and
 * structure (`PATCHABLE_MANIFEST_KEYS`); anything else is `rejected` with where it belongs.
 */
export async function updateManifestTool(
  docSet: DocSet,
  input: UpdateManifestArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, draft } = await prepare(docSet, call, {});
  const file = await docSet.source.readManifest();
  const currentHash = file ? contentHash(normalizeForHash(file.text)) : null;
  const stale = checkBasedOn(input.based_on, currentHash, 'manifest (kit.json)');
  if (stale) return stale;

  let raw: Record<string, unknown> | null = null;
  if (file) {
    try {
      const parsed: unknown = JSON.parse(file.text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      raw = parsed as Record<string, unknown>;
    } catch {
      return rejected(
        `${file.file ?? 'kit.json'} is not a JSON object, so a patch cannot be applied safely. Fix the file by hand first (kit validate shows where).`,
      );
    }
  }
  let result: { manifest: Record<string, unknown>; changed: boolean };
  try {
    result = applyManifestPatch(raw, input.patch, { schemaUrl: call.manifestSchemaUrl });
  } catch (error) {
    if (error instanceof KitError) return rejected(`Nothing was written: ${error.message}`);
    throw error;
  }
  const text = serializeManifest(result.manifest);
  const secret = addedSecret(text, file?.text ?? null);
  if (secret)
    return rejected(
      `Nothing was written: the manifest would hold ${describeFinding(secret)}. Secrets belong in the environment file, never in kit.json: remove it from the patch.`,
    );
  const nextHash = contentHash(text);
  if (!result.changed || nextHash === currentHash) {
    return unchanged('The manifest already holds exactly this; nothing was written.', currentHash ?? nextHash);
  }
  const outcome = await written(
    () => writer.writeManifest(text, currentHash, changeRecord(call, 'update_manifest', input.summary, draft)),
    async () => {
      const now = await docSet.source.readManifest();
      return now ? contentHash(normalizeForHash(now.text)) : null;
    },
  );
  if (!isReceipt(outcome)) return outcome;
  const layout = createUrlLayout(docSet.config.route.prefix, await docSet.manifest());
  const validation = await validationAfter(
    docSet,
    call,
    layout.defaultVersion,
    (issue) => issue.file === (file?.file ?? 'kit.json') || /^(manifest|redirects|assets)\./.test(issue.rule),
    [],
    outcome,
    [],
  );
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted a change to' : 'Updated'} the manifest (kit.json).${draftNote(outcome)}${chainNote(outcome)}${validationNote(validation)}`,
    revision: outcome.revision,
    validation,
    docs_migration: outcome.docs_migration,
  });
}

/** How to change a file again: a published change's hash is the next `based_on`; a draft's is not live. */
export function chainNote(receipt: WriteReceipt): string {
  return receipt.outcome === 'drafted'
    ? ' Until it is published, further changes are made against the live file: omit based_on or pass the hash you read before.'
    : ' Pass revision.content_hash as based_on to change it again.';
}

function validationNote(validation: AuthorValidation): string {
  if (validation.errors === 0 && validation.warnings === 0) return '';
  const parts = [
    validation.errors > 0 ? `${validation.errors} error${validation.errors === 1 ? '' : 's'}` : null,
    validation.warnings > 0 ? `${validation.warnings} warning${validation.warnings === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  return ` Validation found ${parts.join(' and ')} in what changed: see validation.issues and fix them.`;
}

async function listedInNavigation(
  docSet: DocSet,
  version: string,
  locale: string,
  path: string,
): Promise<boolean | null> {
  const file = await docSet.source.readNavigation(version, locale);
  if (!file) return null; // derived navigation lists every page on its own
  const parsed = parseNavigation(file.text, file.file);
  if (!parsed.navigation) return null;
  return navigationPages(parsed.navigation).some((entry) => entry.path === path);
}
