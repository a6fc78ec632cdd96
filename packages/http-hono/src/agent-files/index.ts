import {
  askMarkdown,
  buildAgentSkillsIndex,
  buildSkillMd,
  createUrlLayout,
  type DocSet,
  isKitError,
  type Kit,
  listHandWrittenSkills,
  seesAnyVersion,
  type UrlLayout,
  type Viewer,
} from '@kit/core';
import {
  type AgentFileLookup,
  buildLlmsFullTxtFile,
  buildLlmsTxtFile,
  buildSitemapFile,
  listsSkills,
} from '@kit/core/internal';
import { type Context, Hono } from 'hono';
import { every } from 'hono/combine';
import { sendCached } from '../http-cache.js';
import { domainMatches, middlewareDependsOnRequest, passesMiddleware, resolveMiddleware } from '../middleware.js';
import { wantsJson } from '../request/negotiation.js';
import { requestHost } from '../request/origin.js';

/** Options of {@link agentFileRoutes}. */
export interface AgentFileRoutesOptions {
  kit: Kit;
  set: DocSet;
  /** The viewer of a request (the signed-in user, or null for a guest). */
  viewerOf: (c: Context) => Viewer;
  /** Origin for absolute URLs; default the request's own (`https://host`). */
  origin?: (c: Context) => string;
  /**
   * False when `origin` is only what the request's Host said: files that carry it are then private
   * to the caller, so a forged Host never reaches a shared cache. Default: always true.
   */
  originTrusted?: (c: Context) => boolean;
}

const TEXT = 'text/plain; charset=utf-8';
const MARKDOWN = 'text/markdown; charset=utf-8';
const XML = 'application/xml; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

const GROUP_FILE = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*)(?:\.[1-9][0-9]*)?\.txt$/;

/**
 * The agent files of one set as a Hono app with routes relative to the set prefix (mount it under
 * the prefix): `llms.txt`, `llms-full.txt` and their group files for every version and locale
 * (`/12.x/llms.txt`, `/ar/llms.txt`, `/12.x/ar/llms/<group>.txt`, ...), `skill.md`,
 * `skills/<name>.md`, `sitemap.xml` and `GET /ask?q=`. Each answers 404 when its `agents.*` key is
 * off for the set. Files depend on who asks: a signed-in viewer (or any viewer of a non-public set)
 * gets `Cache-Control: private`; a guest's copy is public with an ETag. The sitemap is always built
 * for a guest.
 *
 * @example
 * app.route('/docs', agentFileRoutes({ kit, set: kit.set('docs'), viewerOf: viewerFor }));
 */
export function agentFileRoutes(options: AgentFileRoutesOptions): Hono {
  const { set, viewerOf } = options;
  const originTrusted = options.originTrusted ?? (() => true);
  const files: AgentFiles = {
    set,
    viewerOf,
    originOf: options.origin ?? ((c: Context) => new URL(c.req.url).origin),
    originTrusted,
    isPrivate: (c: Context) => set.config.access.mode !== 'public' || viewerOf(c).user != null || !originTrusted(c),
  };
  const app = new Hono();
  bundleRoutes(app, files);
  skillRoutes(app, files);
  sitemapRoutes(app, files);
  searchMarkdownRoute(app, files);
  return app;
}

/** What each group of agent-file routes reads of a request and of the set. */
interface AgentFiles {
  set: DocSet;
  viewerOf: (c: Context) => Viewer;
  originOf: (c: Context) => string;
  originTrusted: (c: Context) => boolean;
  /** True when a file depends on who asks: private to the caller. */
  isPrivate: (c: Context) => boolean;
}

function layoutOf(set: DocSet): Promise<UrlLayout> {
  return set.manifest().then((manifest) => createUrlLayout(set.config.route.prefix, manifest));
}

/** Reads `[version][/locale]` segments before a file name; null when they name no scope. */
async function scopeOf(set: DocSet, segments: string[]): Promise<{ version?: string; locale?: string } | null> {
  const { versioned, versions, locales } = await layoutOf(set);
  let index = 0;
  let version: string | undefined;
  let locale: string | undefined;
  if (versioned && index < segments.length && versions.some((item) => item.id === segments[index])) {
    version = segments[index++];
  }
  if (index < segments.length && locales.some((item) => item.code === segments[index])) locale = segments[index++];
  return index === segments.length ? { ...(version ? { version } : {}), ...(locale ? { locale } : {}) } : null;
}

const BUNDLES = {
  llms: { key: 'llms_txt' as const, main: 'llms.txt', folder: 'llms', build: buildLlmsTxtFile },
  full: { key: 'llms_full' as const, main: 'llms-full.txt', folder: 'llms-full', build: buildLlmsFullTxtFile },
};

/** `llms.txt`, `llms-full.txt` and their group files, for the set and each version and locale. */
function bundleRoutes(app: Hono, { set, viewerOf, originOf, isPrivate }: AgentFiles): void {
  for (const kind of Object.values(BUNDLES)) {
    const serve = async (c: Context, segments: string[], file: string | null) => {
      if (!set.config.agents[kind.key]) return notFound(c, `${kind.main} is turned off for these docs.`);
      if (file !== null && !GROUP_FILE.test(file)) return notFound(c, `No file ${file} here.`);
      const scope = await scopeOf(set, segments);
      if (!scope) return notFound(c, `No version or language ${segments.join('/')} in these docs.`);
      const viewer = viewerOf(c);
      let built: AgentFileLookup;
      try {
        // Only the file asked for is built: a group's part reads that part's pages alone.
        built = await kind.build(set, viewer, { origin: originOf(c), ...scope, ...(file === null ? {} : { file }) });
      } catch (error) {
        if (isKitError(error) && (error.code === 'version.not_found' || error.code === 'locale.not_found')) {
          return notFound(c, `No such version or language in these docs.`);
        }
        throw error;
      }
      if (!built.file) return notFound(c, `No file ${file} here. Read ${built.mainPath} for the list.`);
      return sendCached(c, built.file.text, { contentType: TEXT, isPrivate: isPrivate(c) });
    };
    app.get(`/${kind.main}`, (c) => serve(c, [], null));
    app.get(`/:a/${kind.main}`, (c) => serve(c, [c.req.param('a')], null));
    app.get(`/:a/:b/${kind.main}`, (c) => serve(c, [c.req.param('a'), c.req.param('b')], null));
    app.get(`/${kind.folder}/:file`, (c) => serve(c, [], c.req.param('file')));
    app.get(`/:a/${kind.folder}/:file`, (c) => serve(c, [c.req.param('a')], c.req.param('file')));
    app.get(`/:a/:b/${kind.folder}/:file`, (c) => serve(c, [c.req.param('a'), c.req.param('b')], c.req.param('file')));
  }
}

/** `skill.md` and the hand-written `skills/<name>.md`. */
function skillRoutes(app: Hono, { set, viewerOf, originOf, isPrivate }: AgentFiles): void {
  app.get('/skill.md', async (c) => {
    if (!set.config.agents.skill_md) return notFound(c, 'skill.md is turned off for these docs.');
    const viewer = viewerOf(c);
    if (!(await seesAnyVersion(set, viewer))) return notFound(c, 'No skill.md here.');
    const skill = await buildSkillMd(set, viewer, { origin: originOf(c) });
    return sendCached(c, skill.text, { contentType: MARKDOWN, isPrivate: isPrivate(c) });
  });

  // A page may live at `skills/<name>`: a name that is no skill falls through to the page routes.
  app.get('/skills/:file', async (c, next) => {
    const file = c.req.param('file');
    if (!file.endsWith('.md') || !set.config.agents.skill_md) return next();
    if (!(await seesAnyVersion(set, viewerOf(c)))) return next();
    const skills = await listHandWrittenSkills(set);
    const skill = skills.find((item) => `${item.file}.md` === file);
    if (!skill) return next();
    return sendCached(c, skill.text, { contentType: MARKDOWN, isPrivate: isPrivate(c) });
  });
}

/** `sitemap.xml` and its numbered parts, always built for a guest. */
function sitemapRoutes(app: Hono, { set, originOf, originTrusted }: AgentFiles): void {
  const sitemap = async (c: Context, name: string) => {
    if (!set.config.agents.sitemap) return notFound(c, 'sitemap.xml is turned off for these docs.');
    // One file at a time: a part builds only its own entries, the index only counts them.
    const file = await buildSitemapFile(set, { origin: originOf(c), name });
    if (!file) return notFound(c, 'No sitemap here.');
    // Built for a guest whoever asks, so the same copy serves everyone.
    return sendCached(c, file.text, { contentType: XML, isPrivate: !originTrusted(c) });
  };
  app.get('/sitemap.xml', (c) => sitemap(c, 'sitemap.xml'));
  app.get('/:file{sitemap-[1-9][0-9]*\\.xml}', (c) => sitemap(c, c.req.param('file')));
}

/** `GET /ask?q=`: search results as Markdown (or JSON when Accept asks for it), with absolute URLs. */
function searchMarkdownRoute(app: Hono, { set, viewerOf, originOf, isPrivate }: AgentFiles): void {
  app.get('/ask', async (c) => {
    if (!set.config.agents.ask_endpoint) return notFound(c, 'The ask endpoint is turned off for these docs.');
    const json = wantsJson(c.req.header('accept'));
    const base = `${originOf(c)}${(await layoutOf(set)).prefix}/ask`;
    const fail = (status: 400 | 404, code: string, message: string) =>
      json
        ? c.json({ error: code, message }, status, { 'Cache-Control': 'no-store' })
        : c.body(`# Search failed\n\n${message}\n`, status, { 'Content-Type': MARKDOWN, 'Cache-Control': 'no-store' });
    const query = (c.req.query('q') ?? '').trim();
    if (query === '') {
      return fail(
        400,
        'search.invalid_query',
        `Add what to look for in q, e.g. ${base}?q=retry+failed+jobs. Optional: version, locale, limit (1 to 20, default 8), sections (per page, 1 to 5, default 3). Send Accept: application/json for JSON.`,
      );
    }
    try {
      const result = await set.search({ query, ...searchOptions(c) }, viewerOf(c), 'http');
      const origin = originOf(c).replace(/\/+$/, '');
      const absolute = (url: string) => (url.startsWith('/') ? origin + url : url);
      result.results = result.results.map((hit) => ({
        ...hit,
        url: absolute(hit.url),
        markdown_url: absolute(hit.markdown_url),
        sections: hit.sections?.map((section) => ({ ...section, url: absolute(section.url) })),
      }));
      return sendCached(c, json ? JSON.stringify(result) : askMarkdown(result), {
        contentType: json ? JSON_TYPE : MARKDOWN,
        isPrivate: isPrivate(c),
        headers: { Vary: 'Accept' },
      });
    } catch (error) {
      if (!isKitError(error)) throw error;
      if (error.code === 'version.not_found' || error.code === 'locale.not_found')
        return fail(404, error.code, error.message);
      if (error.code === 'argument.invalid' || error.code === 'search.invalid_query')
        return fail(400, error.code, error.message);
      throw error;
    }
  });
}

/** The optional search settings of a `/ask` query: version, locale, limit and sections per page. */
function searchOptions(c: Context): { version?: string; locale?: string; limit?: number; sections?: number } {
  const rawLimit = c.req.query('limit');
  const limit = rawLimit === undefined || rawLimit === '' ? undefined : Number(rawLimit);
  const rawSections = c.req.query('sections');
  const sections = rawSections === undefined || rawSections === '' ? undefined : Number(rawSections);
  const version = c.req.query('version') || undefined;
  const locale = c.req.query('locale') || undefined;
  return {
    ...(version ? { version } : {}),
    ...(locale ? { locale } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(sections !== undefined ? { sections } : {}),
  };
}

/** Options of {@link wellKnownSkillsRoute}. */
export interface WellKnownSkillsOptions {
  kit: Kit;
  viewerOf: (c: Context) => Viewer;
  origin?: (c: Context) => string;
  /** As {@link AgentFileRoutesOptions.originTrusted}. */
  originTrusted?: (c: Context) => boolean;
  /** Only these sets, as the app serves them (default: every set of the kit). */
  sets?: string[];
}

/**
 * `GET /.well-known/agent-skills/index.json` at the site root: the agent-skills discovery index
 * (`$schema`, `skills` with `name`, `type`, `description`, `url`, `digest`) of every set with both
 * `agents.skill_md` and `agents.well_known_skills` on. It lists only what the caller can open: sets
 * served on the request's host (`route.domain`) whose `route.middleware` lets the request through.
 * 404 when no set on this host has both keys on. The index is public (ETag) only when it cannot
 * depend on who asks: a guest, public sets, and no middleware besides `web`.
 *
 * @example
 * app.route('/', wellKnownSkillsRoute({ kit, viewerOf: viewerFor }));
 */
export function wellKnownSkillsRoute(options: WellKnownSkillsOptions): Hono {
  const { kit } = options;
  const originOf = options.origin ?? ((c: Context) => new URL(c.req.url).origin);
  const sets = [...kit.sets.values()]
    .filter((set) => listsSkills(set) && (!options.sets || options.sets.includes(set.key)))
    .map((set) => ({
      set,
      // Resolved up front, as the set's own routes do, so an unknown name fails at start-up.
      middleware: every(...resolveMiddleware(kit, set.config.route.middleware, `sets.${set.key}.route.middleware`)),
      dependsOnRequest:
        set.config.access.mode !== 'public' || middlewareDependsOnRequest(kit, set.config.route.middleware),
    }));
  const app = new Hono();
  app.get('/.well-known/agent-skills/index.json', async (c) => {
    const viewer = options.viewerOf(c);
    const host = requestHost(c);
    const onHost = sets.filter((entry) => domainMatches(entry.set, host));
    if (onHost.length === 0) return noSkills(c, false);
    const open: DocSet[] = [];
    for (const entry of onHost) {
      if (await passesMiddleware(entry.middleware, c, viewer.user ?? null)) open.push(entry.set);
    }
    const isPrivate =
      viewer.user != null || onHost.some((entry) => entry.dependsOnRequest) || options.originTrusted?.(c) === false;
    // Middleware that refused every set reads as no skills here, for this caller only.
    const index = await buildAgentSkillsIndex(kit, viewer, { origin: originOf(c), sets: open });
    if (!index) return noSkills(c, isPrivate);
    return sendCached(c, `${JSON.stringify(index, null, 2)}\n`, { contentType: JSON_TYPE, isPrivate });
  });
  return app;
}

function noSkills(c: Context, isPrivate: boolean): Response {
  return c.json({ error: 'not_found', message: 'No documentation set publishes agent skills here.' }, 404, {
    'Cache-Control': isPrivate ? 'private, no-cache' : 'no-cache',
  });
}

/**
 * The HTTP `Link` header value of a page: its Markdown twin (`rel="alternate"
 * type="text/markdown"`) and, when given, the `llms.txt` that describes it (`rel="describedby"`).
 *
 * @example
 * agentLinkHeader({ markdownUrl: '/docs/routing.md', llmsTxtUrl: '/docs/llms.txt' });
 * // '</docs/routing.md>; rel="alternate"; type="text/markdown", </docs/llms.txt>; rel="describedby"; type="text/plain"'
 */
export function agentLinkHeader(links: { markdownUrl: string; llmsTxtUrl?: string | null }): string {
  const parts = [`<${encodeLinkTarget(links.markdownUrl)}>; rel="alternate"; type="text/markdown"`];
  if (links.llmsTxtUrl) parts.push(`<${encodeLinkTarget(links.llmsTxtUrl)}>; rel="describedby"; type="text/plain"`);
  return parts.join(', ');
}

/** A URL is safe inside `<...>` of a Link header once `<`, `>`, spaces and non-ASCII are escaped. */
function encodeLinkTarget(url: string): string {
  return url.replace(/[<>\s"]|[^\x20-\x7e]+/g, (text) => encodeURIComponent(text));
}

function notFound(c: Context, message: string): Response {
  return c.body(`${message}\n`, 404, { 'Content-Type': TEXT, 'Cache-Control': 'no-cache' });
}
