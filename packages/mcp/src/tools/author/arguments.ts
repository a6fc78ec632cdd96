import { authorOutcomes } from '@kit/core/internal';
import { z } from 'zod';
import { localeArgument, optionalText, type SetArgument, versionArgument } from '../../arguments.js';
import type { McpContext } from '../../context.js';

/** What every author tool returns as structured content. */
export const authorOutput = z.object({
  outcome: z.enum(authorOutcomes),
  message: z.string(),
  revision: z.looseObject({ content_hash: z.string() }).nullable(),
  validation: z.object({ errors: z.number(), warnings: z.number(), issues: z.array(z.looseObject({})) }).nullable(),
  docs_migration: z.looseObject({ file: z.string() }).nullable(),
});

/** An object argument (a JSON object of any keys), with the message for anything else. */
export function objectArgument(error: string | ((issue: { input?: unknown }) => string)) {
  return z.record(z.string(), z.unknown(), { error });
}

/** The one-line `summary` of a change. */
export const summaryArgument = optionalText('summary', 'one line saying what the change does, or omit it.')
  .pipe(z.string().max(500, '`summary` is one line: at most 500 characters.').optional())
  .describe('One line describing the change, for the revision list and the pull request.');

/** The `based_on` hash of a change, saying where the caller got it (`source`). */
export function basedOnArgument(source: string) {
  return optionalText('based_on', `${source}, or omit it.`).describe(
    `Content hash the change was written against (${source}); the change is refused as conflicted if the content changed since.`,
  );
}

/** `based_on` for a page tool. */
export const pageBasedOn = basedOnArgument('the content_hash read_page returned; omit it for a new page');
/** `based_on` for a navigation or manifest change, naming the tool whose last result holds it. */
export const fileBasedOn = (tool: string) =>
  basedOnArgument(`the revision.content_hash of your last ${tool} call; omit it to change the current state`);

/** The arguments every author tool but update_manifest takes; each adds its own `based_on`. */
export function commonAuthorArguments(context: McpContext, set: SetArgument) {
  return {
    version: versionArgument(context.examples, 'Default: the default version.'),
    locale: localeArgument(context.examples, 'Default: the default locale.'),
    summary: summaryArgument,
    set,
  };
}

/** The common author arguments of one server. */
export type CommonAuthorArguments = ReturnType<typeof commonAuthorArguments>;
