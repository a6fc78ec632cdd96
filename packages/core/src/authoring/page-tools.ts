import { navigationPages } from '../navigation/pages.js';
import { parseNavigation } from '../navigation/parse.js';
import { type AuthorToolResult, applied, checkBasedOn, conflicted, rejected, unchanged } from '../outcomes/outcomes.js';
import { composePageFile, parsePageFile } from '../pages/page-file.js';
import type { PageAddress } from '../ports/content-writer.js';
import type { DocSet } from '../ports/docset.js';
import { type AuthorArguments, type AuthorCall, checkLocale, checkVersion, prepare } from './author-call.js';
import { changeRecord, draftNote, isReceipt, written } from './change-record.js';
import { pagePathOf, where } from './page-path.js';
import { addedSecret, describeFinding, frontmatterRefusal } from './secrets.js';
import { mentions, validationAfter, validationNote } from './validation-after.js';

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

const FRONTMATTER_IN_BODY = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

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
