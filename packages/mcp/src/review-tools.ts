import type { DocSet, Kit, Viewer } from '@kit/core';
import {
  canReview,
  type DraftView,
  discardDraft,
  listDrafts,
  pageHistory,
  publishDraft,
  type ReviewCall,
  type ReviewResult,
  restorePageChange,
  reviewOutcomes,
  SELF_PUBLISH_RULE,
} from '@kit/core/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  localeArgument,
  optionalText,
  pathArgument,
  requiredArgumentError,
  setArgument,
  toolArguments,
  versionArgument,
} from './arguments.js';
import { type McpContext, resolveSet } from './context.js';
import { guarded } from './tools/guarded.js';

/** The review tools, in the order `tools/list` shows them. */
export const REVIEW_TOOL_NAMES = [
  'list_drafts',
  'publish_draft',
  'discard_draft',
  'list_revisions',
  'restore_page',
] as const;

const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const DECIDE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

const reviewOutput = z.object({
  outcome: z.enum(reviewOutcomes),
  message: z.string(),
  draft: z.looseObject({ id: z.string() }).nullable(),
  revision: z.looseObject({ content_hash: z.string() }).nullable(),
  rule: z.literal(SELF_PUBLISH_RULE).optional(),
});

const idArgument = z
  .string({
    error: requiredArgumentError(
      'Send `id`: the draft id list_drafts shows, e.g. "42".',
      '`id` must be a string such as "42" (the id list_drafts shows).',
    ),
  })
  .trim()
  .min(1, 'Send a non-empty `id`: the draft id list_drafts shows.')
  .describe('Draft id, as list_drafts shows it.');

/**
 * Whether a server offers the review tools. The local server: to the local operator, when one of
 * its sets keeps drafts (a database set; a repository set's changes are reviewed in pull requests).
 * A web endpoint: on a database set with `mcp.web.author_tools` on, to a signed-in caller the
 * `reviewKit` gate allows (core's `canReview`), whether or not `manageKit` lets them write.
 */
export async function offersReviewTools(kit: Kit, scope: McpContext['scope'], viewer: Viewer): Promise<boolean> {
  if (scope.kind === 'local') {
    return (
      viewer.local === true &&
      [...kit.sets.values()].some((docSet) => docSet.source.kind === 'database' && docSet.source.review)
    );
  }
  const docSet = kit.set(scope.set);
  return docSet.config.mcp.web.author_tools && (await canReview(docSet, { viewer, channel: 'web' }));
}

function decisionText(result: ReviewResult): string {
  const lines = [`${result.outcome}: ${result.message}`];
  if (result.revision) lines.push(`content_hash: ${result.revision.content_hash}`);
  return lines.join('\n');
}

function draftLine(draft: DraftView): string {
  const what =
    draft.kind === 'manifest'
      ? 'manifest'
      : draft.kind === 'navigation'
        ? `navigation ${draft.version}/${draft.locale}`
        : draft.kind === 'asset'
          ? `${draft.action} file ${draft.path}`
          : draft.action === 'move'
            ? `move ${draft.from?.path} → ${draft.path} (${draft.version}/${draft.locale})`
            : `${draft.action} ${draft.path} (${draft.version}/${draft.locale})`;
  return `- draft ${draft.id}: ${what} by ${draft.author ?? 'unknown'} at ${draft.created_at}${draft.summary ? ` — ${draft.summary}` : ''}${draft.stale ? ' [stale: the live content changed since; publishing would conflict]' : ''}`;
}

/**
 * Registers `list_drafts`, `publish_draft`, `discard_draft`, `list_revisions` and `restore_page`:
 * thin doors onto core's review functions, which check access again on every call, apply the
 * review rule (an author never decides their own draft) and fire the review events on the kit's
 * bus. `authorOf` names the caller in the history when it has no identity of its own.
 */
export function registerReviewTools(server: McpServer, context: McpContext, authorOf: () => string): void {
  const { kit, scope } = context;
  const set = setArgument(scope.kind === 'local' ? { kind: 'local', defaultSet: kit.config.default } : scope);

  const run = (
    requestedSet: string | undefined,
    work: (docSet: DocSet, call: ReviewCall) => Promise<{ text: string; structured: object }>,
  ): Promise<CallToolResult> =>
    guarded(context, async () => {
      const docSet = await resolveSet(context, requestedSet);
      const call: ReviewCall = {
        viewer: context.viewer,
        channel: scope.kind === 'local' ? 'local' : 'web',
        source: 'mcp',
        events: kit.events,
        by: authorOf(),
      };
      const { text, structured } = await work(docSet, call);
      return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
    });

  const decision = (result: ReviewResult) => ({ text: decisionText(result), structured: result });

  server.registerTool(
    'list_drafts',
    {
      title: 'List drafts waiting for review',
      description:
        'Lists the drafted changes of a database set waiting for a person to publish or discard them: author, summary, time, what each changes and a unified diff against the live content. `stale` marks a draft whose page changed since; publishing it would be conflicted.',
      inputSchema: toolArguments('list_drafts', { set }),
      annotations: READ,
    },
    (args) =>
      run(args.set, async (docSet, call) => {
        const result = await listDrafts(docSet, call);
        const drafts = result.drafts.map(({ before: _before, after: _after, ...draft }) => draft);
        const text =
          drafts.length === 0
            ? `No drafts wait for review in the "${result.set}" docs.`
            : [
                `${drafts.length} draft${drafts.length === 1 ? '' : 's'} in the "${result.set}" docs:`,
                ...result.drafts.map(draftLine),
                '',
                'Publish one with publish_draft, or throw it away with discard_draft.',
              ].join('\n');
        return { text, structured: { set: result.set, drafts } };
      }),
  );

  server.registerTool(
    'publish_draft',
    {
      title: 'Publish a draft',
      description:
        "Makes a drafted change live, all or nothing (a drafted move moves the page whole). Someone other than the draft's author must publish it (rule review.self_publish). Outcome: published; conflicted when the page changed since the draft was written (nothing is written); unchanged when it was published already; rejected for a discarded or unknown draft, or one you wrote (`rule` says so).",
      inputSchema: toolArguments('publish_draft', { id: idArgument, set }),
      outputSchema: reviewOutput,
      annotations: DECIDE,
    },
    (args) => run(args.set, async (docSet, call) => decision(await publishDraft(docSet, args.id, call))),
  );

  server.registerTool(
    'discard_draft',
    {
      title: 'Discard a draft',
      description:
        "Throws a drafted change away: nothing live changes, and the draft stays in the history as discarded. Someone other than the draft's author must discard it (rule review.self_publish). Outcome: discarded; unchanged when it was discarded already; rejected for a published or unknown draft, or one you wrote (`rule` says so).",
      inputSchema: toolArguments('discard_draft', { id: idArgument, set }),
      outputSchema: reviewOutput,
      annotations: DECIDE,
    },
    (args) => run(args.set, async (docSet, call) => decision(await discardDraft(docSet, args.id, call))),
  );

  server.registerTool(
    'list_revisions',
    {
      title: "List a page's revisions",
      description:
        "Lists a page's recorded changes, newest first: published changes, deletions, restores, and drafts (waiting, applied or discarded), with author, summary and content_hash. Works for a deleted page too. current_hash is the live page's hash (null when deleted): pass it as based_on to restore_page.",
      inputSchema: toolArguments('list_revisions', {
        path: pathArgument('the page path without .md, e.g. "guides/webhooks".').describe('Page path without .md.'),
        version: versionArgument(context.examples),
        locale: localeArgument(context.examples),
        set,
      }),
      annotations: READ,
    },
    (args) =>
      run(args.set, async (docSet, call) => {
        const history = await pageHistory(docSet, args, call);
        const text = [
          `${history.revisions.length} revision${history.revisions.length === 1 ? '' : 's'} of page "${history.path}" (${history.version}/${history.locale}); live content_hash: ${history.current_hash ?? 'none (deleted or never written)'}`,
          ...history.revisions.map(
            (revision) =>
              `- ${revision.id} ${revision.action} ${revision.status} by ${revision.author ?? 'unknown'} at ${revision.created_at}${revision.summary ? ` — ${revision.summary}` : ''} (${revision.content_hash})`,
          ),
        ].join('\n');
        return { text, structured: history };
      }),
  );

  server.registerTool(
    'restore_page',
    {
      title: 'Restore a page',
      description:
        "Brings a page back from its published history: a deleted page as it was when deleted, or a live page to an older published revision (`revision`, from list_revisions). Pass the live page's content_hash as based_on (list_revisions' current_hash, or read_page's); the restore is conflicted if the page changed since. Outcome: published, unchanged, conflicted or rejected.",
      inputSchema: toolArguments('restore_page', {
        path: pathArgument('the page path without .md, e.g. "guides/webhooks".').describe('Page path without .md.'),
        revision: optionalText(
          'revision',
          'a revision id from list_revisions; omit it for the latest published content.',
        ).describe(
          'Revision id to restore. Default: the latest published content (for a deleted page, what it held when deleted).',
        ),
        based_on: optionalText('based_on', "the live page's content_hash, or omit it.").describe(
          'Content hash of the live page the restore is made against; refused as conflicted if the page changed since.',
        ),
        version: versionArgument(context.examples),
        locale: localeArgument(context.examples),
        set,
      }),
      outputSchema: reviewOutput,
      annotations: DECIDE,
    },
    (args) => run(args.set, async (docSet, call) => decision(await restorePageChange(docSet, args, call))),
  );
}
