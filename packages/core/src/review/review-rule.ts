import type { Viewer } from '../ports/docset.js';

/** The id of the review rule: a draft is decided by someone other than its author. */
export const SELF_PUBLISH_RULE = 'review.self_publish';

/**
 * Who a signed-in user is, as Kit records them as the author of a change and compares them in the
 * review rule: the user's `id` (a string, or a number written as text), else their `email`; null
 * for a guest and for a user with neither. A token is whoever the user resolver maps it to: two
 * tokens resolved to users with the same `id` are one author.
 *
 * @example
 * userIdentity({ id: 42, email: 'ada@example.com' }); // '42'
 */
export function userIdentity(user: unknown): string | null {
  if (user === null || typeof user !== 'object') return null;
  const { id, email } = user as { id?: unknown; email?: unknown };
  if (typeof id === 'string' && id.trim() !== '') return id.trim();
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  if (typeof email === 'string' && email.trim() !== '') return email.trim();
  return null;
}

/**
 * Who decides a review call. On the web, the signed-in user's {@link userIdentity}. Locally (CLI
 * commands, `kit mcp`), the operator's account name the CLI puts on the viewer, whoever runs the
 * command or the agent: null when the process has none.
 */
export function reviewerIdentity(call: { viewer: Viewer; channel: 'local' | 'web' }): string | null {
  if (call.channel === 'local') {
    const name = call.viewer.local === true ? call.viewer.operator?.trim() : undefined;
    return name ? name : null;
  }
  return userIdentity(call.viewer.user);
}

/** Whether two recorded identities name the same author: trimmed, ignoring case (`Ada@x.org` is `ada@x.org`). */
function sameIdentity(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** What the review rule is asked: the draft, who decides, and whether the set lets authors decide their own. */
export interface SelfPublishQuestion {
  draft: { id: string; author: string | null };
  decision: 'publish' | 'discard';
  call: { viewer: Viewer; channel: 'local' | 'web' };
  /** The set's `review_self_publish`. */
  selfPublish: boolean;
}

/**
 * The review rule (`review.self_publish`): a draft is published or discarded by someone other than
 * the user, token or operator who wrote it, as a pull request needs an approval from someone other
 * than its author. Returns why the decision is refused, naming the rule and who may decide, or
 * null when it may go ahead. Refused, unless the set sets `review_self_publish`:
 * - the decider is the draft's author (identities compared ignoring case);
 * - a draft that records no author (written through the database API without one, never by Kit's
 *   doors): nobody can be shown not to have written it;
 * - a web caller whose user has no identity (no `id`, no `email`): they could be the author.
 * The local operator without an account name is no identity: a draft with an author is theirs to decide.
 */
export function selfPublishRefusal(question: SelfPublishQuestion): string | null {
  if (question.selfPublish) return null;
  const { draft, decision, call } = question;
  const reviewer = reviewerIdentity(call);
  const author = draft.author?.trim() || null;
  const lead = `Draft ${draft.id} was not ${decision === 'publish' ? 'published' : 'discarded'}:`;
  const rule = `The review rule (${SELF_PUBLISH_RULE}) has a draft decided by someone other than its author.`;
  const who = `Someone else must ${decision} it: another reviewer the reviewKit gate allows (the review screen, or ${decision}_draft over MCP), or the operator on the server with \`kit drafts ${decision} ${draft.id}\`.`;
  const optIn =
    'To let authors decide their own drafts, set review_self_publish: true for the set (a change then goes live with nobody else looking).';
  if (author !== null && reviewer !== null && sameIdentity(author, reviewer)) {
    return `${lead} it was written by "${author}", which is you. ${rule} ${who} ${optIn}`;
  }
  if (author === null) {
    return `${lead} it records no author (it was written through the database API without one), so nobody can be shown not to have written it. ${rule} ${optIn} Decide it, then turn the key off again.`;
  }
  if (call.channel === 'web' && reviewer === null) {
    return `${lead} Kit cannot tell who you are (your user has no \`id\` or \`email\`), so you could be its author. ${rule} Return an \`id\` for every user and token from resolveUser. ${who}`;
  }
  return null;
}
