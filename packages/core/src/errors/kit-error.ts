/**
 * Stable error codes. Each code names one failure a caller can act on; HTTP, MCP and the CLI map
 * codes to their own shapes (status, tool error, exit code) in one place each.
 */
export type KitErrorCode =
  | 'config.invalid'
  | 'config.unknown_key'
  | 'config.not_found'
  | 'manifest.invalid'
  | 'manifest.patch_forbidden'
  | 'navigation.invalid'
  | 'navigation.group_not_found'
  | 'navigation.page_not_found'
  | 'navigation.page_exists'
  | 'set.not_found'
  | 'set.foreign'
  | 'version.not_found'
  | 'locale.not_found'
  | 'page.not_found'
  | 'page.exists'
  | 'page.invalid_path'
  | 'page.frontmatter'
  | 'section.not_found'
  | 'snippet.refused'
  | 'snippet.not_found'
  | 'search.invalid_query'
  | 'search.driver_unknown'
  | 'argument.invalid'
  | 'access.denied'
  | 'rate_limited'
  | 'content.conflict'
  /** A draft was published or discarded already (`details.status`: `applied` or `discarded`). */
  | 'review.decided'
  /** The set keeps no drafts or revisions: a repository set, whose changes are reviewed in pull requests. */
  | 'review.unavailable'
  | 'source.error'
  /** The docs database cannot be reached (restarting, failing over, connection cut): retry shortly. */
  | 'database.unavailable'
  | 'internal';

/**
 * The one error class of Kit. `code` is stable and safe to branch on; `message` is written for a
 * person and says what to do; `details` carries structured context (never secrets).
 *
 * @example
 * throw new KitError('page.not_found', 'No page "intro" in version 3.x. Call list_pages to see the paths.');
 */
export class KitError extends Error {
  readonly code: KitErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: KitErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KitError';
    this.code = code;
    this.details = options.details;
  }
}

/** True when `error` is a {@link KitError}, optionally with the given code. */
export function isKitError(error: unknown, code?: KitErrorCode): error is KitError {
  return error instanceof KitError && (code === undefined || error.code === code);
}

/** Failures on the server's side: nothing in the request is wrong, and nothing in it can fix them. */
const SERVER_FAULTS: ReadonlySet<KitErrorCode> = new Set<KitErrorCode>([
  'source.error',
  'database.unavailable',
  'internal',
]);

/**
 * True when `error` is a {@link KitError} that says what is wrong with the request (a bad argument,
 * a page that is not there, access denied), so its code and message are the answer. False for a
 * server fault (`source.error`: a file or database the server cannot read or write;
 * `database.unavailable`; `internal`) and anything else: those are the server's to log and report
 * as its own failure, without details a caller should not see (such as the files of the set).
 *
 * @example
 * if (isRequestError(error)) return c.json({ error: error.code, message: error.message }, 400);
 */
export function isRequestError(error: unknown): error is KitError {
  return error instanceof KitError && !SERVER_FAULTS.has(error.code);
}
