import { type DocSet, type Kit, seesAnyVersion, type Viewer } from '@kit/core';
import {
  buildMcpCatalog,
  buildRobotsTxt,
  buildSiteLlmsTxt,
  mcpEndpointPath,
  normalizePrefix,
  type SiteLlmsTxtEntry,
} from '@kit/core/internal';
import type { McpServerCard } from '@kit/mcp';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { sendCached } from '../http-cache.js';
import { domainMatches, middlewareDependsOnRequest, passesMiddleware, resolveMiddleware } from '../middleware.js';
import { requestHost } from '../request/origin.js';

/** Which root files {@link siteRootRoutes} answers; each is on unless set to false. */
export interface SiteRootFiles {
  /** `/llms.txt` naming each set's llms.txt. */
  llmsTxt?: boolean;
  /** `/robots.txt` with a `Sitemap:` line per public set. */
  robotsTxt?: boolean;
  /** `/.well-known/mcp`, `/.well-known/mcp/catalog.json` and `/.well-known/mcp/server-card.json`. */
  mcp?: boolean;
}

/** Options of {@link siteRootRoutes}. */
export interface SiteRootOptions {
  kit: Kit;
  viewerOf: (c: Context) => Viewer;
  origin: (c: Context) => string;
  /** False when the origin is only what the request's Host said: the files are then private to the caller. */
  originTrusted: (c: Context) => boolean;
  /** Only these sets, as the app serves them (default: every set of the kit). */
  sets?: string[];
  files?: SiteRootFiles;
}

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const CARD_TYPE = 'application/mcp-server+json; charset=utf-8';
// Discovery documents are public metadata that browser-based clients may read (the draft asks for CORS).
const CORS = { 'Access-Control-Allow-Origin': '*' };

interface Candidate {
  set: DocSet;
  pages: MiddlewareHandler;
  mcp: MiddlewareHandler;
  dependsOnRequest: boolean;
}

/**
 * The site root's discovery files, built from the sets the caller can open on the request's host
 * (`route.domain`, `route.middleware` and `mcp.web.middleware` let the request through, and the
 * caller may read a version): `/llms.txt` (each set's llms.txt, with `agents.llms_txt` on),
 * `/robots.txt` (a `Sitemap:` line per set with `agents.sitemap` on that a guest may read, whoever
 * asks), and the MCP catalog at `/.well-known/mcp` and `/.well-known/mcp/catalog.json` (each set's
 * card at `<endpoint>/server-card`); `/.well-known/mcp/server-card.json`, the path older drafts
 * used for a site's one server, answers the default set's card. A file whose list would be empty
 * answers 404. A root-mounted set keeps its own `/llms.txt`, and a `robots.txt` file among its pages
 * wins over the generated one; a host application that routes these paths before mounting Kit keeps
 * its own.
 *
 * @example
 * app.route('/', siteRootRoutes({ kit, viewerOf: viewerFor, origin, originTrusted }));
 */
export function siteRootRoutes(options: SiteRootOptions): Hono {
  const { kit } = options;
  const files = { llmsTxt: true, robotsTxt: true, mcp: true, ...options.files };
  const candidates: Candidate[] = [...kit.sets.values()]
    .filter((set) => !options.sets || options.sets.includes(set.key))
    .map((set) => ({
      set,
      // Resolved up front, as the set's own routes do, so an unknown name fails at start-up.
      pages: every(...resolveMiddleware(kit, set.config.route.middleware, `sets.${set.key}.route.middleware`)),
      mcp: every(
        ...resolveMiddleware(kit, set.config.route.middleware, `sets.${set.key}.route.middleware`),
        ...resolveMiddleware(kit, set.config.mcp.web.middleware, `sets.${set.key}.mcp.web.middleware`),
      ),
      dependsOnRequest:
        set.config.access.mode !== 'public' ||
        middlewareDependsOnRequest(kit, [...set.config.route.middleware, ...set.config.mcp.web.middleware]),
    }));
  const rootSet = candidates.find((entry) => normalizePrefix(entry.set.config.route.prefix) === '')?.set;
  const app = new Hono();

  /** The sets on this host that `viewer` can open through `gate`. */
  const open = async (c: Context, viewer: Viewer, gate: 'pages' | 'mcp') => {
    const host = requestHost(c);
    const found: DocSet[] = [];
    for (const entry of candidates) {
      if (!domainMatches(entry.set, host)) continue;
      if (!(await passesMiddleware(entry[gate], c, viewer.user ?? null))) continue;
      if (!(await entry.set.canView(viewer, {})) || !(await seesAnyVersion(entry.set, viewer))) continue;
      found.push(entry.set);
    }
    return found;
  };
  const isPrivate = (c: Context, viewer: Viewer) =>
    viewer.user != null ||
    !options.originTrusted(c) ||
    candidates.some((entry) => domainMatches(entry.set, requestHost(c)) && entry.dependsOnRequest);
  const notFound = (c: Context, message: string) =>
    c.body(`${message}\n`, 404, { 'Content-Type': TEXT, 'Cache-Control': 'no-cache' });

  if (files.llmsTxt) {
    app.get('/llms.txt', async (c, next) => {
      // A set mounted at the root answers /llms.txt itself.
      if (rootSet && domainMatches(rootSet, requestHost(c))) return next();
      const viewer = options.viewerOf(c);
      const origin = options.origin(c);
      const entries: SiteLlmsTxtEntry[] = [];
      for (const set of await open(c, viewer, 'pages')) {
        if (!set.config.agents.llms_txt) continue;
        const manifest = await set.manifest();
        const base = normalizePrefix(set.config.route.prefix);
        entries.push({
          name: manifest.name || set.key,
          url: `${origin}${base}/llms.txt`,
          ...(manifest.description ? { description: manifest.description } : {}),
          ...(set.config.mcp.web.enabled
            ? { mcpUrl: `${origin}${mcpEndpointPath(set.config.route.prefix, set.config.mcp.web.path)}` }
            : {}),
        });
      }
      if (entries.length === 0) return notFound(c, 'No documentation set publishes an llms.txt here.');
      return sendCached(c, buildSiteLlmsTxt(entries), { contentType: TEXT, isPrivate: isPrivate(c, viewer) });
    });
  }

  if (files.robotsTxt) {
    app.get('/robots.txt', async (c, next) => {
      if (rootSet && domainMatches(rootSet, requestHost(c))) {
        // A robots.txt kept beside a root-mounted set's pages is the author's own: it wins.
        if (await rootSet.resolveFile('/robots.txt', options.viewerOf(c))) return next();
      }
      // Crawlers are guests: what is listed never depends on who asks.
      const guest: Viewer = { user: null, ...(options.viewerOf(c).ip ? { ip: options.viewerOf(c).ip } : {}) };
      const origin = options.origin(c);
      const sitemaps = (await open(c, guest, 'pages'))
        .filter((set) => set.config.agents.sitemap && set.config.access.mode === 'public')
        .map((set) => `${origin}${normalizePrefix(set.config.route.prefix)}/sitemap.xml`);
      return sendCached(c, buildRobotsTxt(sitemaps), { contentType: TEXT, isPrivate: !options.originTrusted(c) });
    });
  }

  if (files.mcp) {
    const catalog = async (c: Context) => {
      const viewer = options.viewerOf(c);
      const origin = options.origin(c);
      const cards: Array<{ name: string; title: string; url: string }> = [];
      for (const set of await open(c, viewer, 'mcp')) {
        const card = await serverCardOf(kit, set, viewer, origin);
        if (card) cards.push({ name: card.name, title: card.title, url: `${card.remotes[0]!.url}/server-card` });
      }
      if (cards.length === 0) {
        return c.json({ error: 'not_found', message: 'No MCP server is published here.' }, 404, {
          'Cache-Control': 'no-cache',
          ...CORS,
        });
      }
      return sendCached(c, `${JSON.stringify(buildMcpCatalog(cards), null, 2)}\n`, {
        contentType: JSON_TYPE,
        isPrivate: isPrivate(c, viewer),
        headers: CORS,
      });
    };
    app.get('/.well-known/mcp', catalog);
    app.get('/.well-known/mcp/catalog.json', catalog);
    app.get('/.well-known/mcp/server-card.json', async (c) => {
      const viewer = options.viewerOf(c);
      const set = (await open(c, viewer, 'mcp')).find((candidate) => candidate.key === kit.config.default);
      const card = set ? await serverCardOf(kit, set, viewer, options.origin(c)) : null;
      if (!card) {
        return c.json({ error: 'not_found', message: 'No MCP server card here; read /.well-known/mcp.' }, 404, {
          'Cache-Control': 'no-cache',
          ...CORS,
        });
      }
      return sendServerCard(c, card, isPrivate(c, viewer));
    });
  }
  return app;
}

/**
 * The server card of a set's web endpoint for this viewer, or null (no endpoint, nothing the viewer
 * may read). `@kit/mcp` loads on first use, as the endpoint itself does.
 */
export async function serverCardOf(
  kit: Kit,
  set: DocSet,
  viewer: Viewer,
  origin: string,
): Promise<McpServerCard | null> {
  if (!set.config.mcp.web.enabled) return null;
  const { buildMcpServerCard } = await import('@kit/mcp');
  return buildMcpServerCard({
    kit,
    set: set.key,
    viewer,
    origin,
    needsCredentials: set.config.access.mode !== 'public' || viewer.user != null,
  });
}

/** A server card as JSON with the draft's media type, readable from browsers. */
export function sendServerCard(c: Context, card: McpServerCard, isPrivate: boolean): Response {
  return sendCached(c, `${JSON.stringify(card, null, 2)}\n`, { contentType: CARD_TYPE, isPrivate, headers: CORS });
}
