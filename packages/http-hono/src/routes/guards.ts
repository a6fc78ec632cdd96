import type { DocSet, Kit } from '@kit/core';
import { isSignedIn, normalizePrefix } from '@kit/core/internal';
import type { Context, MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { currentUser, type KitEnv, resolveMiddleware } from '../middleware.js';
import { prefersMarkdown, wantsHtml } from '../request/negotiation.js';
import { signInJson, signInMarkdown, signInPage } from '../sign-in.js';

/** The middleware that stands before a set's routes, resolved once from its config. */
export interface SetGuards {
  /** The set's `route.middleware`. */
  page: MiddlewareHandler<KitEnv>;
  /** `route.middleware` with `web` in front when it lacks it: schema routes always carry `web`. */
  schema: MiddlewareHandler<KitEnv>;
  /** The set's `mcp.web.middleware`. */
  mcp: MiddlewareHandler<KitEnv>;
  /**
   * `access.mode: auth`: a guest is asked to sign in (401) on every route of the set that shows its
   * content, as the pages do, never told "not found" by the search, feedback or agent files.
   */
  signIn: MiddlewareHandler<KitEnv>;
}

/** The guards of a set; `stylesheet` is the reader stylesheet's URL the sign-in page links. */
export function setGuards(kit: Kit, set: DocSet, stylesheet: () => Promise<string>): SetGuards {
  const config = set.config;
  const key = `sets.${set.key}.route.middleware`;
  // A person who opens a page in a browser and is refused by the built-in `auth` gets the sign-in
  // page the `auth` access mode shows. Agents and API clients (no text/html in Accept, a `.md`
  // twin, which is never answered in HTML, or the `_kit` search and feedback APIs, which answer
  // JSON to whoever calls them) keep the JSON 401 with the bearer challenge.
  const apiPath = `${normalizePrefix(config.route.prefix)}/_kit/`;
  const pageGuards = {
    signIn: async (c: Context) =>
      wantsHtml(c.req.header('accept')) && !c.req.path.endsWith('.md') && !c.req.path.startsWith(apiPath)
        ? signInPage(c, await stylesheet())
        : undefined,
  };
  const page = every(...resolveMiddleware(kit, config.route.middleware, key, pageGuards));
  const schema = config.route.middleware.includes('web')
    ? page
    : every(...resolveMiddleware(kit, ['web', ...config.route.middleware], key, pageGuards));
  const mcp = every(...resolveMiddleware(kit, config.mcp.web.middleware, `sets.${set.key}.mcp.web.middleware`));
  const signIn: MiddlewareHandler<KitEnv> = async (c, next) => {
    if (config.access.mode !== 'auth' || isSignedIn(currentUser(c))) return next();
    const path = c.req.path;
    if (path.startsWith(apiPath) || /\.(json|xml)$/.test(path)) return signInJson(c);
    if (/\.(md|txt)$/.test(path) || prefersMarkdown(c.req.header('accept'))) return signInMarkdown(c);
    return signInPage(c, await stylesheet());
  };
  return { page, schema, mcp, signIn };
}
