import { isKitError, KitError } from '../errors/kit-error.js';
import type { KitEventMap } from '../events/types.js';
import type { AuthorRevision } from '../outcomes/outcomes.js';
import type { DocSet, KitEvents, Viewer } from '../ports/docset.js';
import type { DraftChange, ReviewStore, RevisionEntry } from '../ports/review-store.js';
import { cleanPagePath, createUrlLayout } from '../urls/set-urls.js';
import { assetDraftView } from './asset-drafts.js';
import { unifiedDiff } from './diff.js';
import type { DraftView } from './draft-view.js';
import { reviewerIdentity, SELF_PUBLISH_RULE, selfPublishRefusal } from './review-rule.js';

export type { DraftView } from './draft-view.js';

/**
 * The outcome of a review decision. `published`, `conflicted`, `unchanged` and `rejected` mean what
 * they mean for the author tools; `discarded` is a draft thrown away.
 */
export type ReviewOutcome = 'published' | 'discarded' | 'conflicted' | 'unchanged' | 'rejected';

export const reviewOutcomes: readonly ReviewOutcome[] = [
  'published',
  'discarded',
  'conflicted',
  'unchanged',
  'rejected',
];

/** Who reviews, and through which door. */
export interface ReviewCall {
  /** Who asks: on the web the signed-in user; locally `{ user: null, local: true, operator }`. */
  viewer: Viewer;
  /**
   * `local`: the local operator (CLI commands, `kit mcp`), admitted on every database set and
   * identified by `viewer.operator`. `web`: the review screen or a set's MCP endpoint: a signed-in
   * user the `reviewKit` gate allows, identified by their `id` (else `email`).
   */
  channel: 'local' | 'web';
  /** Where the decision is made, for the events. */
  source: 'cli' | 'screen' | 'mcp';
  /** The kit's event bus, which hears `DraftPublished`, `DraftDiscarded` and `PageRestored`. */
  events?: KitEvents;
  /**
   * A name for the history when the caller has no identity of its own (the local server's
   * `agent:<client name>` when the operator has no account name). The identity wins: it is what
   * the review rule compares with a draft's author, and the author of the revisions a publish or a
   * restore records.
   */
  by?: string;
}

/** One entry of a page's history. */
export interface HistoryEntry {
  id: string;
  action: 'write' | 'delete' | 'restore';
  /** `published`, `draft` (waiting), `applied` (a draft that was published, recorded again as published) or `discarded`. */
  status: RevisionEntry['status'];
  author: string | null;
  summary: string | null;
  created_at: string;
  content_hash: string;
  based_on: string | null;
}

/** What `kit history`, the history screen and `list_revisions` show. */
export interface PageHistory {
  set: string;
  version: string;
  locale: string;
  path: string;
  /** Content hash of the live page; null when it is deleted or was never written. Pass it as `based_on` to restore. */
  current_hash: string | null;
  revisions: HistoryEntry[];
}

/** What a review decision returns. */
export interface ReviewResult {
  outcome: ReviewOutcome;
  message: string;
  /** The draft decided on, as it was listed. */
  draft: DraftView | null;
  /** The revision the decision recorded (`content_hash` to chain on); for `conflicted`, the live hash. */
  revision: AuthorRevision | null;
  /** The rule that refused a `rejected` decision: `review.self_publish` when the caller may not decide this draft. */
  rule?: typeof SELF_PUBLISH_RULE;
}

/**
 * The review store of a set when the caller may review it; throws `review.unavailable` on a set
 * that keeps no drafts (a repository set: its changes are files, reviewed in pull requests) and
 * `access.denied` for a web caller who is not signed in or whom the `reviewKit` gate does not allow
 * (`manageKit` never stands in for it: writing a change and publishing it are separate rights).
 */
export async function reviewAccess(docSet: DocSet, call: Pick<ReviewCall, 'viewer' | 'channel'>): Promise<ReviewStore> {
  const store = docSet.source.review;
  if (docSet.source.kind !== 'database' || !store) {
    throw new KitError(
      'review.unavailable',
      `The set "${docSet.key}" is a repository set: it has no drafts and no revision list. Its changes are files in the working tree, reviewed and merged in pull requests; a page's history is git's (git log -p <file>), and a deleted page comes back with git restore.`,
    );
  }
  if (call.channel === 'local') {
    if (call.viewer.local === true) return store;
    throw new KitError('access.denied', 'Local review is for the local operator only.');
  }
  if (call.viewer.user === null || call.viewer.user === undefined) {
    throw new KitError('access.denied', 'Sign in to review changes.');
  }
  if (!(await docSet.canReviewChanges(call.viewer))) {
    throw new KitError('access.denied', `The reviewKit gate does not allow you to review the set "${docSet.key}".`);
  }
  return store;
}

/** Whether a caller may review a set: {@link reviewAccess} without the refusal. */
export async function canReview(docSet: DocSet, call: Pick<ReviewCall, 'viewer' | 'channel'>): Promise<boolean> {
  try {
    await reviewAccess(docSet, call);
    return true;
  } catch (error) {
    if (isKitError(error, 'review.unavailable') || isKitError(error, 'access.denied')) return false;
    throw error;
  }
}

/**
 * Every pending draft of a set, oldest first, with what it changes: the live text, the text it
 * would make live, a unified diff between them, and whether the page moved on since (`stale`).
 *
 * @example
 * const { drafts } = await listDrafts(docSet, { viewer: { user: null, local: true }, channel: 'local', source: 'cli' });
 */
export async function listDrafts(docSet: DocSet, call: ReviewCall): Promise<{ set: string; drafts: DraftView[] }> {
  const store = await reviewAccess(docSet, call);
  const changes = await store.drafts();
  const drafts: DraftView[] = [];
  for (const change of changes) drafts.push(await draftView(docSet, store, change));
  return { set: docSet.key, drafts };
}

/** One draft by id (pending or decided), or null. */
export async function showDraft(docSet: DocSet, id: string, call: ReviewCall): Promise<DraftView | null> {
  const store = await reviewAccess(docSet, call);
  const change = await store.change(String(id).trim());
  return change ? draftView(docSet, store, change) : null;
}

/**
 * Publishes a draft: its change goes live, all or nothing (a drafted move moves the page or leaves
 * both places as they are). A draft written against content that changed since is `conflicted`
 * and nothing is written; one published already (by another editor, a moment before) is
 * `unchanged`; a discarded or unknown one is `rejected`, and so is one the caller may not decide
 * under the review rule (`rule: 'review.self_publish'`: its author, unless the set sets
 * `review_self_publish`). Fires `DraftPublished`, naming the author and the publisher.
 */
export async function publishDraft(docSet: DocSet, id: string, call: ReviewCall): Promise<ReviewResult> {
  const store = await reviewAccess(docSet, call);
  const wanted = String(id).trim();
  const change = await store.change(wanted);
  if (!change) return refused(`The set "${docSet.key}" has no draft ${wanted}. List the drafts to find its id.`);
  const draft = await draftView(docSet, store, change);
  if (draft.status !== 'draft') return decidedAlready(docSet, draft, 'publish');
  const refusal = refusedByRule(docSet, draft, call, 'publish');
  if (refusal) return refusal;
  let outcome: Awaited<ReturnType<ReviewStore['publish']>>;
  try {
    outcome = await store.publish(change.id, decider(call));
  } catch (error) {
    if (isKitError(error, 'content.conflict') || isKitError(error, 'page.exists')) {
      const currentHash = (error.details as { currentHash?: string | null } | undefined)?.currentHash ?? null;
      return {
        outcome: 'conflicted',
        message: `Draft ${draft.id} was not published: ${describe(draft)} changed since the draft was written (${error.message}) Nothing was written. Discard the draft and ask for the change again against the live content.`,
        draft: { ...draft, stale: true },
        revision: currentHash ? { content_hash: currentHash } : null,
      };
    }
    if (isKitError(error, 'version.not_found') || isKitError(error, 'locale.not_found')) {
      return { ...refused(`Draft ${draft.id} cannot be published: ${error.message}`), draft };
    }
    throw error;
  }
  if (outcome.outcome === 'decided') {
    return decidedAlready(docSet, { ...draft, status: outcome.status }, 'publish');
  }
  const main = outcome.published[0] ?? null;
  call.events?.emit('DraftPublished', {
    ...draftEvent(docSet, draft, call),
    publisher: decider(call),
    revisions: outcome.published.map((revision) => revision.id),
  });
  if (!main) {
    return {
      outcome: 'unchanged',
      message: `Draft ${draft.id}: ${describe(draft)} already holds exactly this, so nothing changed; the draft is marked published.`,
      draft: { ...draft, status: 'applied' },
      revision: draft.current_hash ? { content_hash: draft.current_hash } : null,
    };
  }
  return {
    outcome: 'published',
    message: `Published draft ${draft.id}: ${describe(draft)} is live${draft.summary ? ` ("${draft.summary}")` : ''}.`,
    draft: { ...draft, status: 'applied' },
    revision: toAuthorRevision(main),
  };
}

/** What `DraftPublished` and `DraftDiscarded` both say of the draft a person decided on. */
function draftEvent(
  docSet: DocSet,
  draft: DraftView,
  call: ReviewCall,
): Omit<KitEventMap['DraftDiscarded'], 'discarder'> {
  return {
    set: docSet.key,
    draft: draft.id,
    kind: draft.kind,
    action: draft.action,
    version: draft.version,
    locale: draft.locale,
    path: draft.path,
    author: draft.author,
    summary: draft.summary,
    user: call.viewer.user ?? null,
    source: call.source,
  };
}

/** Who decides, as the history and the events record them: the caller's identity, else its `by`. */
function decider(call: ReviewCall): string | null {
  return reviewerIdentity(call) ?? call.by ?? null;
}

/** The review rule's refusal of this decision, as a result; null when the caller may decide the draft. */
function refusedByRule(
  docSet: DocSet,
  draft: DraftView,
  call: ReviewCall,
  decision: 'publish' | 'discard',
): ReviewResult | null {
  const message = selfPublishRefusal({ draft, decision, call, selfPublish: docSet.config.review_self_publish });
  return message ? { outcome: 'rejected', message, draft, revision: null, rule: SELF_PUBLISH_RULE } : null;
}

/**
 * Discards a draft: nothing live changes and the draft stays in the history as `discarded`.
 * Discarding one discarded already is `unchanged`; a published or unknown draft is `rejected`, and
 * so is one the caller may not decide under the review rule (as {@link publishDraft}). Fires
 * `DraftDiscarded`, naming the author and who discarded it.
 */
export async function discardDraft(docSet: DocSet, id: string, call: ReviewCall): Promise<ReviewResult> {
  const store = await reviewAccess(docSet, call);
  const wanted = String(id).trim();
  const change = await store.change(wanted);
  if (!change) return refused(`The set "${docSet.key}" has no draft ${wanted}. List the drafts to find its id.`);
  const draft = await draftView(docSet, store, change);
  if (draft.status !== 'draft') return decidedAlready(docSet, draft, 'discard');
  const refusal = refusedByRule(docSet, draft, call, 'discard');
  if (refusal) return refusal;
  const outcome = await store.discard(change.id);
  if (outcome.outcome === 'decided') return decidedAlready(docSet, { ...draft, status: outcome.status }, 'discard');
  call.events?.emit('DraftDiscarded', { ...draftEvent(docSet, draft, call), discarder: decider(call) });
  return {
    outcome: 'discarded',
    message: `Discarded draft ${draft.id} (${describe(draft)}); nothing live changed. It stays in the history as discarded.`,
    draft: { ...draft, status: 'discarded' },
    revision: null,
  };
}

/** Resolves the version, locale and clean path a review call names, with the set's defaults. */
async function pageScope(
  docSet: DocSet,
  input: { path: string; version?: string; locale?: string },
): Promise<{ version: string; locale: string; path: string }> {
  const layout = createUrlLayout(docSet.config.route.prefix, await docSet.manifest());
  const version = input.version?.trim() || layout.defaultVersion;
  const versions = layout.versions.map((entry) => entry.id);
  if (!versions.includes(version)) {
    throw new KitError(
      'version.not_found',
      `No version "${version}" in the "${docSet.key}" docs. Use one of: ${versions.join(', ')} (default ${layout.defaultVersion}).`,
    );
  }
  const locale = input.locale?.trim() || layout.defaultLocale;
  const locales = layout.locales.map((entry) => entry.code);
  if (!locales.includes(locale)) {
    throw new KitError(
      'locale.not_found',
      `No locale "${locale}" in the "${docSet.key}" docs. Use one of: ${locales.join(', ')} (default ${layout.defaultLocale}).`,
    );
  }
  const path = typeof input.path === 'string' ? cleanPagePath(input.path.replace(/\.md$/, '')) : null;
  if (path === null) {
    throw new KitError(
      'argument.invalid',
      `"${String(input.path).slice(0, 80)}" is not a page path: use segments of letters, digits, "-" and "_" joined by "/", e.g. "guides/installation" ("index" is the landing page).`,
    );
  }
  return { version, locale, path };
}

/**
 * A page's history, newest first: every published change, pending and decided drafts, deletions
 * and restores. Works for a deleted page too (that is how one finds what to restore).
 */
export async function pageHistory(
  docSet: DocSet,
  input: { path: string; version?: string; locale?: string; limit?: number },
  call: ReviewCall,
): Promise<PageHistory> {
  const store = await reviewAccess(docSet, call);
  const scope = await pageScope(docSet, input);
  const revisions = await store.history({ kind: 'page', ...scope, limit: input.limit ?? 100 });
  const current = await store.current({ kind: 'page', ...scope });
  return {
    set: docSet.key,
    ...scope,
    current_hash: current?.contentHash ?? null,
    revisions: revisions.map((revision) => ({
      id: revision.id,
      action: revision.action,
      status: revision.status,
      author: revision.author,
      summary: revision.summary,
      created_at: revision.createdAt,
      content_hash: revision.contentHash,
      based_on: revision.basedOn,
    })),
  };
}

/**
 * The unified diff between two revisions of the same page, navigation file or manifest: `to`
 * against `from`. Without `to`, the live content against `from`.
 */
export async function revisionDiff(
  docSet: DocSet,
  input: { from: string; to?: string },
  call: ReviewCall,
): Promise<{ from: string; to: string; diff: string }> {
  const store = await reviewAccess(docSet, call);
  const from = await store.revision(String(input.from).trim());
  if (!from || from.kind === 'asset') {
    throw new KitError(
      'argument.invalid',
      `The set "${docSet.key}" has no page revision ${input.from}. List a page's revisions to pick one.`,
    );
  }
  const name =
    from.path ?? (from.kind === 'manifest' ? 'kit.json' : `navigation.json (${from.version}/${from.locale})`);
  const text = (revision: RevisionEntry) => (revision.action === 'delete' ? null : revision.snapshot);
  if (input.to === undefined) {
    const current = await store.current({
      kind: from.kind,
      version: from.version,
      locale: from.locale,
      path: from.path,
    });
    return {
      from: from.id,
      to: 'live',
      diff: unifiedDiff(text(from), current?.text ?? null, {
        from: `${name} (revision ${from.id})`,
        to: `${name} (live)`,
      }),
    };
  }
  const to = await store.revision(String(input.to).trim());
  if (
    !to ||
    to.kind !== from.kind ||
    to.path !== from.path ||
    to.version !== from.version ||
    to.locale !== from.locale
  ) {
    throw new KitError(
      'argument.invalid',
      `Revision ${input.to} is not a revision of the same ${from.kind === 'page' ? `page "${from.path}"` : from.kind} as revision ${from.id}. Compare two revisions of one page.`,
    );
  }
  return {
    from: from.id,
    to: to.id,
    diff: unifiedDiff(text(from), text(to), {
      from: `${name} (revision ${from.id})`,
      to: `${name} (revision ${to.id})`,
    }),
  };
}

/**
 * Restores a page: a deleted one as it was when deleted, or a live one to an older published
 * revision (`revision`). `based_on` (the live page's content hash, as `read_page` or the history
 * gives it) makes it refuse as `conflicted` when the page changed since. `unchanged` when the page
 * holds that content already; `rejected` for a draft or unknown revision, or nothing to restore.
 * Fires `PageRestored`.
 */
export async function restorePageChange(
  docSet: DocSet,
  input: { path: string; version?: string; locale?: string; revision?: string; based_on?: string },
  call: ReviewCall,
): Promise<ReviewResult> {
  const store = await reviewAccess(docSet, call);
  const scope = await pageScope(docSet, input);
  const revisionId = input.revision === undefined || input.revision === '' ? undefined : String(input.revision).trim();
  let result: Awaited<ReturnType<ReviewStore['restore']>>;
  try {
    result = await store.restore(scope, {
      ...(revisionId === undefined ? {} : { revisionId }),
      ...(input.based_on ? { basedOn: input.based_on } : {}),
      ...(decider(call) ? { author: decider(call) } : {}),
    });
  } catch (error) {
    if (isKitError(error, 'content.conflict')) {
      const currentHash = (error.details as { currentHash?: string | null } | undefined)?.currentHash ?? null;
      return {
        outcome: 'conflicted',
        message: `Page "${scope.path}" was not restored: ${error.message}`,
        draft: null,
        revision: currentHash ? { content_hash: currentHash } : null,
      };
    }
    if (isKitError(error, 'page.not_found') || isKitError(error, 'argument.invalid')) {
      return refused(error.message);
    }
    throw error;
  }
  if (result.outcome === 'unchanged' || !result.revision) {
    return {
      outcome: 'unchanged',
      message: `Page "${scope.path}" already holds the content of revision ${result.restoredFrom}; nothing was written.`,
      draft: null,
      revision: { content_hash: result.contentHash },
    };
  }
  call.events?.emit('PageRestored', {
    set: docSet.key,
    ...scope,
    from_revision: result.restoredFrom,
    revision: result.revision.id,
    content_hash: result.contentHash,
    user: call.viewer.user ?? null,
    source: call.source,
  } satisfies KitEventMap['PageRestored']);
  return {
    outcome: 'published',
    message: `Restored page "${scope.path}" (${scope.version}/${scope.locale}) from revision ${result.restoredFrom}; it is live as revision ${result.revision.id}.`,
    draft: null,
    revision: toAuthorRevision(result.revision),
  };
}

function refused(message: string): ReviewResult {
  return { outcome: 'rejected', message, draft: null, revision: null };
}

function decidedAlready(docSet: DocSet, draft: DraftView, wanted: 'publish' | 'discard'): ReviewResult {
  if (draft.status === 'applied') {
    return wanted === 'publish'
      ? {
          outcome: 'unchanged',
          message: `Draft ${draft.id} of the set "${docSet.key}" was published already; nothing more to do.`,
          draft,
          revision: null,
        }
      : {
          ...refused(
            `Draft ${draft.id} was published already, so it cannot be discarded. To undo it, restore an older revision of ${describe(draft)}.`,
          ),
          draft,
        };
  }
  return wanted === 'discard'
    ? {
        outcome: 'unchanged',
        message: `Draft ${draft.id} was discarded already; nothing more to do.`,
        draft,
        revision: null,
      }
    : {
        ...refused(`Draft ${draft.id} was discarded, so it cannot be published. Ask for the change again.`),
        draft,
      };
}

/** A recorded change in the shape author tools return (`revision` of `write_page` and the others). */
export function toAuthorRevision(revision: RevisionEntry): AuthorRevision {
  return {
    content_hash: revision.contentHash,
    id: revision.id,
    kind: revision.kind,
    ...(revision.version === null ? {} : { version: revision.version }),
    ...(revision.locale === null ? {} : { locale: revision.locale }),
    ...(revision.path === null ? {} : { path: revision.path }),
    ...(revision.summary === null ? {} : { summary: revision.summary }),
    created_at: revision.createdAt,
  };
}

/** What a draft changes, in words: `page "guides/routing" (3.x/en)`. */
export function describe(draft: Pick<DraftView, 'kind' | 'version' | 'locale' | 'path' | 'action' | 'from'>): string {
  if (draft.kind === 'manifest') return 'the manifest (kit.json)';
  if (draft.kind === 'navigation') return `the navigation of ${draft.version}/${draft.locale}`;
  if (draft.kind === 'asset') return `the file "${draft.path}"`;
  if (draft.action === 'move' && draft.from) {
    return `page "${draft.from.path}" (${draft.from.version}/${draft.from.locale}) moving to "${draft.path}" (${draft.version}/${draft.locale})`;
  }
  return `page "${draft.path}" (${draft.version}/${draft.locale})`;
}

/** A drafted change as a reviewer sees it, with the live content it would replace. */
async function draftView(docSet: DocSet, store: ReviewStore, change: DraftChange): Promise<DraftView> {
  const first = change.revisions[0]!;
  const written = change.revisions.find((revision) => revision.action !== 'delete');
  const removed = change.revisions.find((revision) => revision.action === 'delete');
  const status = change.revisions.every((revision) => revision.status === 'draft')
    ? 'draft'
    : change.revisions.some((revision) => revision.status === 'discarded')
      ? 'discarded'
      : 'applied';
  if (first.kind === 'asset') return assetDraftView(docSet, change.id, first, status);
  const kind = first.kind;
  const isMove = Boolean(written && removed);
  const main = isMove ? written! : first;
  // A move replaces the page at its old place; anything else the record it names.
  const subject = isMove ? removed! : main;
  const current = await store.current({ kind, version: subject.version, locale: subject.locale, path: subject.path });
  const before = current?.text ?? null;
  const after = main.action === 'delete' ? null : main.snapshot;
  const basedOn = isMove ? removed!.basedOn : main.basedOn;
  let stale = (current?.contentHash ?? null) !== basedOn;
  if (isMove && !stale) {
    stale = (await store.current({ kind, version: main.version, locale: main.locale, path: main.path })) !== null;
  }
  const name = (revision: RevisionEntry) =>
    kind === 'manifest'
      ? 'kit.json'
      : kind === 'navigation'
        ? `${revision.version}/${revision.locale}/navigation.json`
        : `${revision.version}/${revision.locale}/${revision.path}.md`;
  return {
    id: change.id,
    kind,
    action: isMove ? 'move' : main.action,
    version: main.version,
    locale: main.locale,
    path: main.path,
    ...(isMove
      ? { from: { version: removed!.version ?? '', locale: removed!.locale ?? '', path: removed!.path ?? '' } }
      : {}),
    author: main.author,
    summary: main.summary,
    created_at: main.createdAt,
    based_on: basedOn,
    current_hash: current?.contentHash ?? null,
    stale: status === 'draft' ? stale : false,
    before,
    after,
    diff: unifiedDiff(before, after, { from: `a/${name(subject)}`, to: `b/${name(main)}` }),
    status,
  };
}
