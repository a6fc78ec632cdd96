import { KitError } from '../errors/kit-error.js';
import type { DocSet, KitEvents } from '../ports/docset.js';
import type { Pages } from './pages.js';
import type { Scopes } from './scope.js';
import { userOf } from './viewer-access.js';

/** Longest feedback comment, in characters (code points, `[...comment].length`), on every surface. */
export const FEEDBACK_COMMENT_LIMIT = 2000;

/** `submit_feedback` and the widget endpoint for one set: checks the input, finds the page, fires `FeedbackSubmitted`. */
export function createFeedback(options: {
  set: string;
  events: KitEvents;
  pages: Pages;
  scopes: Scopes;
}): DocSet['submitFeedback'] {
  const { set, events, pages, scopes } = options;
  return async function submitFeedback(input, viewer, from) {
    checkFeedback(input);
    const wanted = await pages.pageInput(input.path, input, viewer);
    const scope = await scopes.scopeFor(wanted, viewer, 'current');
    const located = await pages.locate(viewer, scope.version, scope.locale.code, wanted.paths);
    if (!located) throw await pages.pageNotFound(wanted.shown, scope.version, scope.locale.code, viewer);
    const comment = input.comment?.trim();
    events.emit('FeedbackSubmitted', {
      set,
      version: located.version,
      locale: located.locale,
      path: located.page.path,
      helpful: input.helpful,
      ...(comment ? { comment } : {}),
      source: from,
      user: userOf(viewer),
    });
  };
}

function checkFeedback(input: { path: unknown; helpful: unknown; comment?: unknown }): void {
  if (typeof input.helpful !== 'boolean') {
    throw new KitError('argument.invalid', 'helpful must be true or false: did the page help?', {
      details: { field: 'helpful' },
    });
  }
  if (input.comment !== undefined && typeof input.comment !== 'string') {
    throw new KitError('argument.invalid', 'comment must be text.', { details: { field: 'comment' } });
  }
  if (input.comment !== undefined && [...input.comment].length > FEEDBACK_COMMENT_LIMIT) {
    throw new KitError(
      'argument.invalid',
      `comment is ${[...input.comment].length} characters long; the limit is ${FEEDBACK_COMMENT_LIMIT}. Shorten it to what was wrong or missing.`,
      { details: { field: 'comment', limit: FEEDBACK_COMMENT_LIMIT } },
    );
  }
  if (typeof input.path !== 'string' || input.path.trim() === '') {
    throw new KitError('argument.invalid', 'submit_feedback needs the path or URL of the page the feedback is about.');
  }
}
