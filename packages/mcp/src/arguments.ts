import {
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_SEARCH_SECTIONS,
  FEEDBACK_COMMENT_LIMIT,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_SECTIONS,
} from '@kit/core/internal';
import { z } from 'zod';

/**
 * Tool arguments with messages that tell an agent what to send instead. The SDK validates
 * arguments before a tool runs and returns each issue's message, so every field carries its own.
 */

/**
 * The `error` of a required argument: zod reports a missing one and one of the wrong type alike
 * (`invalid_type`), told apart by the input, which is `undefined` only when the argument is absent.
 */
export function requiredArgumentError(missing: string, wrongType: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? missing : wrongType);
}

/** An optional, trimmed, non-empty string argument whose messages name the argument and what to send. */
export function optionalText(name: string, hint: string) {
  return z
    .string({ error: `\`${name}\` must be a string: ${hint}` })
    .trim()
    .min(1, `\`${name}\` must not be empty: ${hint}`)
    .optional();
}

/** An optional, non-empty string argument taken as sent (a git ref, a set key): not trimmed. */
export function optionalName(name: string, hint: string) {
  return z
    .string({ error: `\`${name}\` must be a string: ${hint}` })
    .min(1, `\`${name}\` must not be empty: ${hint}`)
    .optional();
}

/** An optional boolean argument whose message names it. */
export function optionalFlag(name: string) {
  return z.boolean({ error: `\`${name}\` must be true or false (a boolean, not a string).` }).optional();
}

/**
 * The version ids and locale codes tool descriptions quote as examples: those of the served sets
 * the caller may see (never a private version for a guest), not Kit's own.
 */
export interface ArgumentExamples {
  versions: string[];
  locales: string[];
}

/** Most example values a description quotes. */
const MAX_EXAMPLES = 3;

function quoted(values: readonly string[]): string {
  const shown = values.slice(0, MAX_EXAMPLES).map((value) => `"${value}"`);
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

/**
 * The `version` argument, with the served sets' own version ids as examples.
 *
 * @example
 * versionArgument({ versions: ['13.x', '12.x'], locales: ['en'] }); // 'Docs version, e.g. "13.x" or "12.x". …'
 */
export function versionArgument(examples: ArgumentExamples, defaults = 'Default: the current version.') {
  const example = examples.versions.length > 0 ? ` such as ${quoted(examples.versions)}` : ' (list_pages shows it)';
  return optionalText('version', `a version id${example}; omit it for the default.`).describe(
    `Docs version${examples.versions.length > 0 ? `, e.g. ${quoted(examples.versions)}` : ''}. ${defaults}`,
  );
}

/** The `locale` argument, with the served sets' own locale codes as examples. */
export function localeArgument(examples: ArgumentExamples, defaults = 'Default: the main language.') {
  const example = examples.locales.length > 0 ? ` such as ${quoted(examples.locales)}` : '';
  return optionalText('locale', `a locale code${example}; omit it for the main language.`).describe(
    `Locale code${examples.locales.length > 0 ? `, e.g. ${quoted(examples.locales)}` : ''}. ${defaults}`,
  );
}

export function setArgument(scope: { kind: 'local'; defaultSet: string } | { kind: 'web'; set: string }) {
  return scope.kind === 'local'
    ? optionalText('set', `a set key; omit it for the default set "${scope.defaultSet}".`).describe(
        `Set key. Default: "${scope.defaultSet}".`,
      )
    : optionalText('set', `this endpoint serves only the set "${scope.set}"; omit set.`).describe(
        `This endpoint serves only the set "${scope.set}"; omit this argument.`,
      );
}

/** The `set` argument of a tool, as `setArgument` builds it for a server's scope. */
export type SetArgument = ReturnType<typeof setArgument>;

export const queryArgument = z
  .string({
    error: requiredArgumentError(
      'Send `query`: the words to look for, e.g. "queue retries".',
      '`query` must be a string of words to look for, e.g. "queue retries".',
    ),
  })
  .trim()
  .min(1, 'Send a non-empty `query`: the words to look for, e.g. "queue retries".')
  .describe('What to look for: words or a question.');

const limitMessage = `\`limit\` must be a whole number from 1 to ${MAX_SEARCH_LIMIT}; omit it for ${DEFAULT_SEARCH_LIMIT} results.`;
export const limitArgument = z
  .number({ error: limitMessage })
  .int(limitMessage)
  .min(1, limitMessage)
  .max(MAX_SEARCH_LIMIT, limitMessage)
  .default(8)
  .describe('How many results to return, 1 to 20. Default: 8.');

const sectionsMessage = `\`sections\` must be a whole number from 1 to ${MAX_SEARCH_SECTIONS}; omit it for ${DEFAULT_SEARCH_SECTIONS}, send 1 for one section per page.`;
export const sectionsArgument = z
  .number({ error: sectionsMessage })
  .int(sectionsMessage)
  .min(1, sectionsMessage)
  .max(MAX_SEARCH_SECTIONS, sectionsMessage)
  .default(DEFAULT_SEARCH_SECTIONS)
  .describe(
    `Most sections listed per page, 1 to ${MAX_SEARCH_SECTIONS}: the best one, then other sections of the same page that match well (in each result's \`sections\`). Default: ${DEFAULT_SEARCH_SECTIONS}.`,
  );

export function pathArgument(what: string) {
  return z
    .string({ error: requiredArgumentError(`Send \`path\`: ${what}`, `\`path\` must be a string: ${what}`) })
    .trim()
    .min(1, `Send a non-empty \`path\`: ${what}`);
}

const sectionHint =
  'a heading text or anchor id of the page, e.g. "Retrying Jobs" or "retrying-jobs", or a list of them; omit it for the whole page.';
const MAX_SECTIONS_ASKED = 50;
const sectionTypeMessage = `\`section\` must be a string or a list of strings: ${sectionHint}`;
const sectionName = z
  .string({ error: sectionTypeMessage })
  .trim()
  .min(1, `\`section\` must not be empty: ${sectionHint}`);
const sectionsOverMessage = `\`section\` must list at most ${MAX_SECTIONS_ASKED} sections: ask for fewer, or omit it for the whole page.`;
const sectionList = z
  .array(sectionName)
  .min(1, `\`section\` must not be an empty list: ${sectionHint}`)
  .max(MAX_SECTIONS_ASKED, sectionsOverMessage);
// A value neither option takes (a number, a list holding a non-string) gets the union's message. zod
// refuses an over-long list before reading its items, which fails the list option outright too.
export const sectionArgument = z
  .union([sectionName, sectionList], {
    error: (issue) =>
      Array.isArray(issue.input) && issue.input.length > MAX_SECTIONS_ASKED ? sectionsOverMessage : sectionTypeMessage,
  })
  .optional()
  .describe(
    'Return only these sections: one heading text or anchor id, or a list of them (read in page order). Default: the whole page.',
  );

export const subsectionsArgument = z
  .boolean({ error: '`subsections` must be true or false (a boolean, not a string).' })
  .optional()
  .describe(
    "Whether a section includes its subsections. false returns each section's own text only, up to its first sub-heading. Default: true.",
  );

/**
 * `max_chars`. Its default is the set's `agents.markdown_budget`, decided in core and stated per
 * server in the tool description.
 */
export function maxCharsArgument(min: number) {
  const message = `\`max_chars\` must be a whole number of at least ${min}; omit it for the default.`;
  return z
    .number({ error: message })
    .int(message)
    .min(min, message)
    .optional()
    .describe(
      `Most characters to return (at least ${min}). A longer page or selection comes in parts cut at headings (never inside code), with next_cursor in _meta and a last line saying how to read on. Default: the set's agents.markdown_budget (50000 unless configured).`,
    );
}

export const cursorArgument = optionalText(
  'cursor',
  'the next_cursor of the previous part, exactly as given; omit it to read from the start.',
).describe(
  'Continue a read in parts: the next_cursor of the previous part. It carries the sections read, so send path and cursor only.',
);

export const groupArgument = optionalText(
  'group',
  'a group label exactly as list_pages shows it; omit it for every group.',
).describe('Only the group with this label.');

export const helpfulArgument = z
  .boolean({
    error: requiredArgumentError(
      'Send `helpful`: true when the page helped, false when it was wrong or missing something.',
      '`helpful` must be true or false (a boolean, not a string).',
    ),
  })
  .describe('Whether the page helped.');

/** Longest feedback comment, in characters (Unicode code points): core's limit, checked up front. */
export const COMMENT_MAX_LENGTH = FEEDBACK_COMMENT_LIMIT;

/** Counts characters as core, zod and JSON Schema's `maxLength` do: "😀" is one, not two UTF-16 units. */
function characterCount(text: string): number {
  return [...text].length;
}

export const commentArgument = z
  .string({ error: '`comment` must be a string: what was wrong or missing.' })
  // zod counts a string's length in characters (code points), as core and JSON Schema's `maxLength` do.
  .max(COMMENT_MAX_LENGTH, {
    error: (issue) =>
      `\`comment\` must be at most ${COMMENT_MAX_LENGTH} characters (it has ${characterCount(issue.input as string)}): shorten it to what was wrong or missing.`,
  })
  .optional()
  .describe(`What was wrong or missing, at most ${COMMENT_MAX_LENGTH} characters.`);

/** A strict object: an unknown argument (a typo, a guessed name) is refused with the accepted names. */
export function toolArguments<Shape extends z.ZodRawShape>(tool: string, shape: Shape) {
  const unknown = `Unknown argument for ${tool}; it takes only: ${Object.keys(shape).join(', ')}.`;
  // Only the unknown-key issue is ours: the SDK hands the schema an object, always.
  return z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? unknown : undefined) });
}
