import type { AccessMode, Gate, GateSubject, Gates, KitUser } from '../config/types.js';
import type { Visibility } from '../model/types.js';
import type { DocSet, Viewer } from '../ports/docset.js';

/** Why access was refused, so each surface answers fittingly (sign-in prompt, 403, or not found). */
export type AccessRefusal =
  /** `auth` mode and no signed-in user: offer a sign-in. */
  | 'sign_in_required'
  /** `gate` mode and `viewKit` refused (or no `viewKit` gate is defined). */
  | 'denied'
  /** A private version or page the viewer may not see: answer exactly as if it did not exist. */
  | 'private';

export type AccessDecision = { allowed: true } | { allowed: false; reason: AccessRefusal };

/** Everything one access decision depends on. */
export interface AccessRequest {
  mode: AccessMode;
  user: KitUser | null;
  gates: Gates;
  subject: GateSubject;
  /** Visibility of the version asked about; public when the subject names no version. */
  versionVisibility?: Visibility;
  /** Visibility of the page asked about (frontmatter `visibility`); public when it names no page. */
  pageVisibility?: Visibility;
  /** The local operator (`kit mcp` over stdio, CLI commands): admitted to everything. Never set from HTTP. */
  local?: boolean;
}

/** A signed-in user is anything the user resolver returned other than null or undefined. */
export function isSignedIn(user: KitUser | null | undefined): boolean {
  return user !== null && user !== undefined;
}

/**
 * Whether a response may be shared between callers (HTTP caches, MCP `cacheScope: public`): only
 * when it cannot depend on who asks, which means a public set read by a guest. Anything a
 * signed-in user or a member of an `auth`/`gate` set receives is private to them.
 */
export function isSharedResponse(mode: AccessMode, user: KitUser | null | undefined): boolean {
  return mode === 'public' && !isSignedIn(user);
}

/**
 * Reads a `visibility` value the way the manifest rules say: `public` (trimmed, case-insensitive)
 * or absent is public, any other value is private, so a typo never publishes private content.
 *
 * @example
 * visibilityOf(' Public '); // 'public'
 * visibilityOf('internal'); // 'private'
 */
export function visibilityOf(value: unknown): Visibility {
  if (value === undefined || value === null) return 'public';
  return typeof value === 'string' && value.trim().toLowerCase() === 'public' ? 'public' : 'private';
}

/**
 * A gate allows only by returning `true` (or a promise of it); anything else refuses. A gate that
 * answers synchronously is answered synchronously; one that throws gives a rejected promise, as an async gate would.
 */
function passes(gate: Gate | undefined, user: KitUser | null, subject: GateSubject): boolean | Promise<boolean> {
  if (!gate) return false;
  let answer: unknown;
  try {
    answer = gate(user ?? null, subject);
  } catch (error) {
    return Promise.reject(error);
  }
  // Any thenable is awaited, as `await` would; anything else is the answer.
  if (typeof (answer as PromiseLike<unknown> | null)?.then === 'function') {
    return Promise.resolve(answer).then((value) => value === true);
  }
  return answer === true;
}

/**
 * The one access rule every surface goes through (reader pages, Markdown twins, agent files,
 * search, MCP read tools). `public` admits anyone, `auth` any signed-in user, `gate` whoever
 * `viewKit` allows for the subject. Private versions and private pages need `viewKit` in every
 * mode. With no `viewKit` gate defined, `gate` mode admits nobody and private content is visible
 * to nobody: a missing gate never opens anything. The local operator is admitted to everything.
 *
 * The decision is synchronous when no gate needs asking or the gate answers synchronously
 * (a role read off the user), else as a promise. The gate is asked every time: its answer is never
 * kept. A gate that throws gives a rejected promise (an application bug is surfaced, never turned
 * into access). {@link decideAccess} and {@link accessAllowed} are this decision as a promise and
 * as a yes or no.
 *
 * @example
 * accessDecision({ mode: 'public', user: null, gates: {}, subject: { set: 'docs' } }); // { allowed: true }
 */
export function accessDecision(request: AccessRequest): AccessDecision | Promise<AccessDecision> {
  const settled = decideAccessWithoutGates(request);
  if (settled !== undefined) return settled;
  // Only `gate` mode and private content get here, and both need `viewKit` to say yes.
  const refused: AccessDecision = { allowed: false, reason: request.mode === 'gate' ? 'denied' : 'private' };
  const passed = passes(request.gates.viewKit, request.user, request.subject);
  if (passed instanceof Promise) return passed.then((yes): AccessDecision => (yes ? { allowed: true } : refused));
  return passed ? { allowed: true } : refused;
}

/**
 * {@link accessDecision} as a promise: the form surfaces outside the doc set call.
 *
 * @example
 * await decideAccess({ mode: 'public', user: null, gates: {}, subject: { set: 'docs', version: '2.x' }, versionVisibility: 'private' });
 * // { allowed: false, reason: 'private' }
 */
export async function decideAccess(request: AccessRequest): Promise<AccessDecision> {
  return accessDecision(request);
}

/** Whether {@link accessDecision} allows the request: synchronously when the decision is synchronous. */
export function accessAllowed(request: AccessRequest): boolean | Promise<boolean> {
  const decision = accessDecision(request);
  return decision instanceof Promise ? decision.then((settled) => settled.allowed) : decision.allowed;
}

/**
 * The part of {@link accessDecision} that needs no gate: the decision when no gate needs asking (a
 * public page of a public version in a `public` or `auth` set, the local operator, a guest of an
 * `auth` set), else undefined. A caller deciding for every page of a version (a sidebar) uses it to
 * decide the whole list as it decides one page, and a caller keeping an answer for every viewer
 * (a resolved URL) keeps only answers no gate was asked about.
 */
export function decideAccessWithoutGates(request: AccessRequest): AccessDecision | undefined {
  const { mode, user } = request;
  if (request.local === true) return { allowed: true };
  if (mode === 'auth') {
    if (!isSignedIn(user)) return { allowed: false, reason: 'sign_in_required' };
  } else if (mode === 'gate') {
    return undefined;
  } else if (mode !== 'public') {
    return { allowed: false, reason: 'denied' };
  }
  const isPrivate = request.versionVisibility === 'private' || request.pageVisibility === 'private';
  return isPrivate ? undefined : { allowed: true };
}

/**
 * May this user use the `manageKit` tools (web `validate_docs`, web author tools)? Without a
 * `manageKit` gate nobody may on the web; local tools (stdio MCP, CLI) do not ask. Web author
 * tools also need a signed-in caller: check {@link isSignedIn} as well.
 *
 * @example
 * await canManage(user, config.gates, { set: 'docs' });
 */
export async function canManage(user: KitUser | null, gates: Gates, subject: GateSubject): Promise<boolean> {
  return passes(gates.manageKit, user, subject);
}

/**
 * May this user review drafts on the web: the review screen and the MCP review tools (list, publish
 * and discard drafts, page history, restore)? Only what the `reviewKit` gate allows: `manageKit`
 * does not stand in for it, so an application can let agents write without letting them publish.
 * Without a `reviewKit` gate nobody reviews on the web; local commands do not ask.
 *
 * @example
 * await canReviewChanges(user, config.gates, { set: 'docs' });
 */
export async function canReviewChanges(user: KitUser | null, gates: Gates, subject: GateSubject): Promise<boolean> {
  return passes(gates.reviewKit, user, subject);
}

/**
 * May this reader use Ask AI? When the application defines an `askKit` gate only readers it allows
 * may ask; without one every reader (whom the set admits) may.
 */
export async function canAsk(user: KitUser | null, gates: Gates, subject: GateSubject): Promise<boolean> {
  if (!gates.askKit) return true;
  return passes(gates.askKit, user, subject);
}

/**
 * True when the viewer may read at least one version of the set. A reader who may read none is
 * refused the set altogether and is shown nothing its manifest says (name, description, links):
 * the 404 page, `skill.md` and the MCP instructions name no product to them.
 */
export async function seesAnyVersion(set: Pick<DocSet, 'versions'>, viewer: Viewer): Promise<boolean> {
  return (await set.versions(viewer)).length > 0;
}
