import { withContentHashLine } from '../docset/docset.js';
import { createRenderContext } from '../docset/render-context.js';
import { searchSectionsOf } from '../docset/search-sections.js';
import { KitError } from '../errors/kit-error.js';
import { isServableFileName, looksLikeFile } from '../files/file-names.js';
import { INSERT_POINTS, normalizeManifest, parseManifestText } from '../manifest/normalize.js';
import type { NormalizedManifest, SourcePage, SourceProblem } from '../model/types.js';
import { navigationPages } from '../navigation/pages.js';
import { parseNavigation } from '../navigation/parse.js';
import type { DocSet, Viewer } from '../ports/docset.js';
import type { PageRenderer, RenderedPage } from '../ports/renderer.js';
import type { SearchScope, SearchSection } from '../ports/search-driver.js';
import { findRedirectLoops, findShadowedRedirects, matchRedirect } from '../redirects/redirects.js';
import type { ValidationIssue, ValidationReport } from '../schemas/documents.js';
import { parseJsonText } from '../schemas/json-text.js';
import {
  contentFolder,
  createUrlLayout,
  fileCandidates,
  linkBaseOf,
  markdownUrl,
  mcpEndpointPath,
  normalizePrefix,
  pageUrl,
  parseSetUrl,
  rebaseLink,
  resolveFilePath,
  type UrlLayout,
  type UrlTarget,
} from '../urls/set-urls.js';
import { editDistance } from '../util/nearest-key.js';
import { hasAnchor, isRawHtmlLink, type LinkTarget, resolveLinkTarget } from './links.js';

/** The size of a client search index, as the search driver measured it. */
export interface SearchBudgetReport {
  gzipBytes: number;
  budgetKb: number;
}

/**
 * Measures the browser search index a scope would ship, for `search.budget`. Given the sections a
 * guest may search (exactly what the `client` driver indexes); null when the set's driver ships no
 * browser index.
 */
export type SearchBudgetCheck = (scope: SearchScope, sections: SearchSection[]) => Promise<SearchBudgetReport | null>;

/**
 * What a page's render context is built from (`createRenderContext`): plain data, so a renderer on
 * another thread can build the same context from it.
 */
export type RenderContextInput = Parameters<typeof createRenderContext>[0];

/**
 * Renders pages for validation from the inputs of their render context instead of the built
 * context, so the work can move to worker threads (`kit validate` renders on every core this way).
 * The result must equal `renderer.render(page, createRenderContext(context))` (the HTML aside:
 * validation never reads it).
 */
export interface ValidationRenderer {
  renderPage(page: SourcePage, context: RenderContextInput): Promise<RenderedPage>;
  /**
   * How many pages it renders at once. Above 1, validation asks for every page as soon as the
   * pages are listed, and reads the renders in page order as they come back.
   * @default 1
   */
  readonly concurrency?: number;
}

export interface ValidateDocSetOptions {
  docSet: DocSet;
  /** Only this version; default every version. An unknown id is a `version.not_found` error. */
  version?: string;
  /**
   * Renders pages the way agent Markdown is rendered (no syntax highlighting): a `PageRenderer`
   * shares its cache with the running set, a `ValidationRenderer` may render on other threads.
   * Without one pages are rendered through the set's own caches (`docSet.renderForAgents`, with
   * the set's origin; `docSet.getPage` for a set without it).
   */
  renderer?: PageRenderer | ValidationRenderer;
  /** Origin agent Markdown links are made absolute with (same as the set's), so renders share the cache. */
  origin?: string;
  /** The `search.budget` check; without it the rule is not checked. */
  searchBudget?: SearchBudgetCheck;
  /**
   * Names of the components the renderer knows. With them, names in the manifest's `inserts` that
   * are not among them are reported (`components.unknown`); without them inserts are not checked.
   */
  components?: readonly string[];
  /**
   * Every set of the site (this one may be among them). With them, a site-absolute link under
   * another set's prefix on the same domain must reach a page or redirect of that set, and a
   * `{{version}}` link under no set's prefix is reported (`links.broken`). Without them, links
   * outside this set's prefix are not checked: they may be the application's own routes.
   */
  site?: readonly DocSet[];
  /**
   * Only these pages (paths in the checked version; every locale) get their own checks:
   * frontmatter, render problems, agent Markdown size, the links out of them and the anchors they
   * point at. The manifest, redirects and navigation are checked as in a full run; the browser
   * search index is not. The report holds every issue of these pages and every manifest, redirect
   * and navigation issue (orphans of any page included) as a full run reports them, and no other. The author tools validate a change to one page this
   * way (an empty list checks no page) instead of rendering and checking the whole version.
   */
  pages?: readonly string[];
}

/** Rules the engine reports, in the order a person fixes them. Documented under `kit validate` in apps/site/reference/cli.md. */
export const VALIDATION_RULES = [
  'manifest.schema',
  'manifest.integrations',
  'assets.missing',
  'links.unsafe',
  'links.broken',
  'links.anchor',
  'redirects.loop',
  'redirects.shadowed',
  'mcp.path_page',
  'navigation.schema',
  'navigation.missing_page',
  'navigation.orphan',
  'frontmatter.schema',
  'components.unknown',
  'components.invalid',
  'references.unknown',
  'references.denied',
  'html.filtered',
  'snippets.missing',
  'anchors.duplicate',
  'markdown.size',
  'markdown.complexity',
  'search.budget',
] as const;

const LOCAL: Viewer = { user: null, local: true };

interface Scope {
  version: string;
  locale: string;
}

interface ScopePages {
  pages: SourcePage[];
  byPath: Map<string, SourcePage>;
}

/**
 * Validates one doc set: the manifest (`manifest.schema`, `manifest.integrations`,
 * `assets.missing`, `links.unsafe`), redirects (`redirects.loop`, `redirects.shadowed`), locales a
 * version has no pages in (`locales.missing`), the
 * navigation of each version and locale (`navigation.schema`, `navigation.missing_page`,
 * `navigation.orphan`), every page (`frontmatter.schema`, `links.broken`, `links.anchor`,
 * `components.unknown`, `snippets.missing`, `markdown.size`) and the browser search index
 * (`search.budget`). Pure composition over the `DocSet` and `ContentSource` ports, so
 * `kit validate --json` and the `validate_docs` tool return the same report.
 *
 * @example
 * const report = await validateDocSet({ docSet: kit.set('docs'), renderer });
 * report.ok; // false when any issue is an error
 */
export async function validateDocSet(options: ValidateDocSetOptions): Promise<ValidationReport> {
  const { docSet } = options;
  const source = docSet.source;
  const issues: ValidationIssue[] = [];
  const add = (problem: SourceProblem, where: Partial<Pick<ValidationIssue, 'version' | 'locale' | 'page'>> = {}) => {
    issues.push(toIssue(problem, docSet.key, where));
  };

  // Manifest: parsed again from its text so problems carry lines, whatever the set cached.
  const manifestFile = await source.readManifest();
  const manifestName = manifestFile?.file ?? 'kit.json';
  const parsed =
    manifestFile === null
      ? normalizeManifest(undefined, docSet.key)
      : parseManifestText(manifestFile.text, docSet.key, manifestName);
  const manifest = parsed.manifest;
  for (const problem of parsed.problems) add(problem);
  if (manifestFile !== null && source.kind === 'database') checkIntegrations(manifestFile.text, manifestName, add);
  for (const css of manifest.assets.css) {
    if ((await source.readAsset(css)) === null) {
      add({
        rule: 'assets.missing',
        severity: 'error',
        message: `The stylesheet "${css}" named in assets.css does not exist next to ${manifestName}.`,
        file: manifestName,
        ...lineOf(manifestFile?.text, JSON.stringify(css)),
        fix: `Add the file ${css} beside ${manifestName}, or remove it from assets.css.`,
      });
    }
  }
  const brandFiles = [manifest.logo?.light, manifest.logo?.dark, manifest.favicon].filter(
    (name, index, all): name is string => typeof name === 'string' && all.indexOf(name) === index,
  );
  for (const name of brandFiles) {
    if (/^[a-z][a-z\d+.-]*:/i.test(name) || name.startsWith('/')) continue; // a URL, used as written
    if (isServableFileName(name) && (await source.openFile(name)) !== null) continue;
    const key = name === manifest.favicon ? 'favicon' : 'logo';
    add({
      rule: 'assets.missing',
      severity: 'error',
      message: `The ${key} "${name}" named in ${manifestName} is not a file next to it${isServableFileName(name) ? '' : ' that Kit serves (dotfiles, Markdown and secret-looking names never are)'}, so pages show no ${key}.`,
      file: manifestName,
      ...lineOf(manifestFile?.text, JSON.stringify(name)),
      fix: `Add the file ${name} beside ${manifestName}, or point ${key} at an existing file or an https URL.`,
    });
  }
  if (options.components) checkInserts(manifest, options.components, manifestFile?.text, manifestName, add);
  if (source.problems) for (const problem of await source.problems()) add(problem);
  // Pages the source cannot read would be checked as missing (every link to them broken): until
  // they can be read, the read errors are the report.
  if (issues.some((issue) => issue.rule === 'source.read' && issue.severity === 'error')) {
    return buildReport(dedupe(issues), { set: docSet.key, version: options.version ?? null });
  }

  const layout = createUrlLayout(docSet.config.route.prefix, manifest, {
    linkPrefix: docSet.config.route.link_prefix,
  });
  let versions = layout.versions.map((version) => version.id);
  if (options.version !== undefined) {
    if (!versions.includes(options.version)) {
      throw new KitError(
        'version.not_found',
        `The "${docSet.key}" docs have no version "${options.version}". Use one of: ${versions.join(', ')}, or leave the version out to check every one.`,
        { details: { version: options.version, versions } },
      );
    }
    versions = [options.version];
  }

  const listed = new Map<string, Promise<ScopePages>>();
  const pagesOf = (scope: Scope): Promise<ScopePages> => {
    const key = `${scope.version}\u0000${scope.locale}`;
    let found = listed.get(key);
    if (!found) {
      found = source.listPages(scope.version, scope.locale).then((pages) => ({
        pages,
        byPath: new Map(pages.map((page) => [page.path, page])),
      }));
      listed.set(key, found);
    }
    return found;
  };

  const renders = new Map<string, Promise<RenderedPage | null>>();
  const renderOf = (page: SourcePage): Promise<RenderedPage | null> => {
    const key = `${page.version}\u0000${page.locale}\u0000${page.path}`;
    let found = renders.get(key);
    if (!found) {
      found = renderPage(options, docSet, layout, page);
      renders.set(key, found);
    }
    return found;
  };
  const anchorsOf = new Map<string, Set<string>>();
  const focus = options.pages ? new Set(options.pages) : null;
  const checked = (page: SourcePage) => focus === null || focus.has(page.path);
  if (options.renderer && 'renderPage' in options.renderer && (options.renderer.concurrency ?? 1) > 1) {
    // Every page is asked for up front, so all the renderer's threads stay busy while the checks
    // below read the renders in page order. The checks await each render, so a failure still
    // surfaces there; the catch only keeps a render nobody awaits yet from counting as unhandled.
    // Pages with the same Markdown (most pages are unchanged from one version to the next) are
    // asked for one after the other, so the renderer can parse that Markdown once for all of them.
    const sameText = new Map<string, SourcePage[]>();
    for (const version of versions) {
      for (const locale of layout.locales) {
        for (const page of (await pagesOf({ version, locale: locale.code })).pages) {
          if (!checked(page)) continue;
          const group = sameText.get(page.body);
          if (group) group.push(page);
          else sameText.set(page.body, [page]);
        }
      }
    }
    for (const group of sameText.values()) for (const page of group) renderOf(page).catch(() => {});
  }

  // Redirects over every version (a redirect without a version applies in all of them).
  const exists = new Set<string>();
  for (const version of layout.versions) {
    for (const locale of layout.locales) {
      for (const page of (await pagesOf({ version: version.id, locale: locale.code })).pages) {
        exists.add(`${version.id}\u0000${locale.code}\u0000${page.path}`);
      }
    }
  }
  const pageExists = (target: { version: string; locale: string; path: string }) =>
    exists.has(`${target.version}\u0000${target.locale}\u0000${target.path}`) ||
    (!target.path.endsWith('/index') &&
      exists.has(`${target.version}\u0000${target.locale}\u0000${target.path}/index`));
  for (const problem of [
    ...findRedirectLoops(manifest.redirects, layout, pageExists),
    ...findShadowedRedirects(manifest.redirects, layout, pageExists),
  ]) {
    const rule = manifest.redirects.find((candidate) => problem.message.includes(candidate.from));
    add({ ...problem, file: manifestName, ...(rule ? lineOf(manifestFile?.text, JSON.stringify(rule.from)) : {}) });
  }

  // A locale the manifest declares that a version has no page in: its readers' version switcher
  // sends them to the version's default locale instead, and every link into it is a 404.
  if (layout.locales.length > 1) {
    for (const version of versions) {
      const counts = await Promise.all(
        layout.locales.map(async (locale) => ({
          locale: locale.code,
          pages: (await pagesOf({ version, locale: locale.code })).pages.length,
        })),
      );
      const present = counts.filter((count) => count.pages > 0);
      // An empty version is reported by the rules that look at its pages; here only a gap counts.
      if (present.length === 0) continue;
      for (const { locale } of counts.filter((count) => count.pages === 0)) {
        add(missingLocale(layout, version, locale, source.kind, manifestName, manifestFile?.text, present[0]!.locale), {
          version,
          locale,
        });
      }
    }
  }

  const site = options.site ? siteSetsOf(docSet, options.site) : null;
  const { linkPrefix: _rebased, ...writtenLayout } = layout;
  const budget = docSet.config.agents.markdown_budget;
  const rawHtml: RawHtml =
    source.kind === 'database' ? 'database' : docSet.config.html_input === 'allow' ? 'allow' : 'escape';
  for (const version of versions) {
    for (const locale of layout.locales) {
      const scope = { version, locale: locale.code };
      const where = { version, locale: locale.code };
      const { pages, byPath } = await pagesOf(scope);

      // Navigation: schema, entries without pages, pages in no navigation.
      const navigationFile = await source.readNavigation(version, locale.code);
      if (navigationFile !== null) {
        const navFile = navigationFile.file ?? navigationFileName(layout, version, locale.code);
        const navigation = parseNavigation(navigationFile.text, navFile);
        for (const problem of navigation.problems) add({ ...problem, file: problem.file ?? navFile }, where);
        if (navigation.navigation) {
          const listedPaths = new Set<string>();
          for (const entry of navigationPages(navigation.navigation)) {
            listedPaths.add(entry.path);
            if (byPath.has(entry.path) || byPath.has(`${entry.path}/index`)) continue;
            const near = closest(entry.path, [...byPath.keys()]);
            add(
              {
                rule: 'navigation.missing_page',
                severity: 'error',
                message: `The navigation lists "${entry.path}" (group "${entry.group}"), but version ${version} (${locale.code}) has no such page.`,
                file: navFile,
                ...lineOf(navigationFile.text, JSON.stringify(entry.path)),
                fix: near
                  ? `Point the entry at "${near}", or create the page ${entry.path}.md.`
                  : `Create the page ${entry.path}.md, or remove the entry from the navigation.`,
              },
              where,
            );
          }
          for (const page of pages) {
            if (listedPaths.has(page.path) || page.path === layout.landing || page.path === 'index') continue;
            if (page.path.endsWith('/index') && listedPaths.has(page.path.slice(0, -'/index'.length))) continue;
            add(
              {
                rule: 'navigation.orphan',
                severity: 'warning',
                message: `The page "${page.path}" is in no navigation group, so readers reach it only through links.`,
                ...(page.file ? { file: page.file } : {}),
                fix: `Add "${page.path}" to a group in ${navFile}.`,
              },
              { ...where, page: page.path },
            );
          }
        }
      }

      // The MCP endpoint shares its URL with the default version's page at `mcp.web.path`: browsers still
      // get the page, but every other GET there (an MCP client, curl, a crawler) gets the endpoint's 405.
      const mcpPagePath = docSet.config.mcp.web.path.trim().replace(/^\/+|\/+$/g, '');
      const mcpPage = byPath.get(mcpPagePath);
      if (
        docSet.config.mcp.web.enabled &&
        version === layout.defaultVersion &&
        locale.code === layout.defaultLocale &&
        mcpPage
      ) {
        add(
          {
            rule: 'mcp.path_page',
            severity: 'warning',
            message: `The page "${mcpPage.path}" sits at the MCP endpoint (mcp.web.path "${docSet.config.mcp.web.path}"): browsers get the page, but any other GET of ${mcpEndpointPath(layout.prefix, docSet.config.mcp.web.path)} gets the endpoint's 405.`,
            ...(mcpPage.file ? { file: mcpPage.file } : {}),
            fix: `Set mcp.web.path to a path no page uses (for example "_mcp"), or move the page.`,
          },
          { ...where, page: mcpPage.path },
        );
      }

      const publicSections: SearchSection[] = [];
      const versionInfo = layout.versions.find((candidate) => candidate.id === version);
      for (const page of pages) {
        if (!checked(page)) continue;
        const at = { ...where, page: page.path };
        for (const problem of page.problems) add({ ...problem, file: problem.file ?? page.file }, at);
        const rendered = await renderOf(page);
        if (!rendered) continue;
        for (const problem of rendered.problems) add({ ...problem, file: problem.file ?? page.file }, at);

        const agentMarkdown = withContentHashLine(rendered.markdown, page.contentHash);
        if (agentMarkdown.length > budget) {
          add(
            {
              rule: 'markdown.size',
              severity: 'warning',
              message: `The agent Markdown of "${page.path}" has ${agentMarkdown.length} characters, more than agents.markdown_budget (${budget}); read_page hands it out in ${Math.ceil(agentMarkdown.length / budget)} or more parts, and agents fetching the whole .md twin spend that much context.`,
              ...(page.file ? { file: page.file } : {}),
              fix: 'Split the page into smaller pages, or raise agents.markdown_budget for this set.',
            },
            at,
          );
        }

        for (const link of rendered.links) {
          const fileProblem = await checkFileLink(link, page, layout, source, pagesOf);
          if (fileProblem !== undefined) {
            if (fileProblem) {
              add(
                {
                  ...fileProblem,
                  ...(page.file ? { file: page.file } : {}),
                  ...(link.line ? { line: link.line } : {}),
                },
                at,
              );
            }
            continue;
          }
          // An `<a href>` tag that raw HTML serves is served as written: `route.link_prefix` moves
          // only the links the renderer writes, so the tag is checked where it really leads.
          const servedRaw =
            layout.linkPrefix !== undefined &&
            rawHtml === 'allow' &&
            isRawHtmlLink(page.body, link.href, link.line === undefined ? undefined : link.line - page.bodyLine);
          const target = resolveLinkTarget(link.href, page, servedRaw ? writtenLayout : layout);
          const problem = await checkLink(target, link, page, {
            docSet,
            site,
            layout,
            manifest,
            rawHtml,
            pagesOf,
            renderOf,
            anchorsOf,
          });
          if (problem) {
            add(
              { ...problem, ...(page.file ? { file: page.file } : {}), ...(link.line ? { line: link.line } : {}) },
              at,
            );
          }
        }

        if (options.searchBudget && versionInfo?.visibility === 'public' && page.visibility === 'public') {
          const target = { version, locale: locale.code, path: page.path };
          publicSections.push(
            ...searchSectionsOf(page, rendered.sections, {
              url: pageUrl(layout, target),
              markdownUrl: markdownUrl(layout, target),
            }),
          );
        }
      }

      if (options.searchBudget && focus === null && publicSections.length > 0) {
        const report = await options.searchBudget(
          { set: docSet.key, version, locale: locale.code, audience: 'public' },
          publicSections,
        );
        if (report && report.gzipBytes > report.budgetKb * 1024) {
          add(
            {
              rule: 'search.budget',
              severity: 'warning',
              message: `The browser search index of version ${version} (${locale.code}) is ${(report.gzipBytes / 1024).toFixed(1)} KB gzipped, over search.budget_kb (${report.budgetKb} KB); readers download it before their first search.`,
              fix: "Set search.driver to 'server' for this set, or raise search.budget_kb.",
            },
            where,
          );
        }
      }
    }
  }

  return buildReport(dedupe(issues), { set: docSet.key, version: options.version ?? null });
}

/**
 * Combines the reports of several sets into one (each issue names its set), for `kit validate`
 * over every set. One report passes through unchanged.
 */
export function mergeValidationReports(reports: ValidationReport[]): ValidationReport {
  if (reports.length === 1) return reports[0]!;
  const version = reports.every((report) => report.version === reports[0]?.version)
    ? (reports[0]?.version ?? null)
    : null;
  return buildReport(
    reports.flatMap((report) => report.issues),
    { version },
  );
}

function buildReport(issues: ValidationIssue[], head: { set?: string; version: string | null }): ValidationReport {
  const sorted = [...issues].sort(
    (a, b) =>
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
      (a.set ?? '').localeCompare(b.set ?? '') ||
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
  const errors = sorted.filter((issue) => issue.severity === 'error').length;
  return {
    ok: errors === 0,
    ...(head.set !== undefined ? { set: head.set } : {}),
    version: head.version,
    summary: { errors, warnings: sorted.length - errors },
    issues: sorted,
  };
}

function toIssue(
  problem: SourceProblem,
  set: string,
  where: Partial<Pick<ValidationIssue, 'version' | 'locale' | 'page'>>,
): ValidationIssue {
  const issue: ValidationIssue = {
    rule: problem.rule,
    severity: problem.severity,
    message: problem.message || problem.rule,
    set,
  };
  if (problem.file !== undefined) issue.file = problem.file;
  if (problem.line !== undefined && problem.line >= 1) issue.line = problem.line;
  if (problem.column !== undefined && problem.column >= 1) issue.column = problem.column;
  if (problem.fix !== undefined) issue.fix = problem.fix;
  if (where.version !== undefined) issue.version = where.version;
  if (where.locale !== undefined) issue.locale = where.locale;
  if (where.page !== undefined) issue.page = where.page;
  return issue;
}

/** One issue per rule, file, line and message (a manifest problem seen twice is reported once). */
function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = [issue.rule, issue.file, issue.line, issue.column, issue.message, issue.version, issue.locale].join(
      '\u0000',
    );
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * `assets.missing` for an image, or a link to a file (`./guide.pdf`), that names no file beside the
 * pages of its version (and locale, falling back to the default locale's as the server does); null
 * when the file is there; undefined when the link is no file link (a page, another site), which
 * the page-link checks take.
 */
async function checkFileLink(
  link: RenderedPage['links'][number],
  page: SourcePage,
  layout: UrlLayout,
  source: DocSet['source'],
  pagesOf: (scope: Scope) => Promise<ScopePages>,
): Promise<SourceProblem | null | undefined> {
  const written = link.href.trim().replace(/\{\{\s*version\s*\}\}/g, page.version);
  if (written === '' || written.startsWith('#') || written.startsWith('//') || /^[a-z][a-z\d+.-]*:/i.test(written)) {
    return undefined;
  }
  const cut = written.search(/[?#]/);
  const pathPart = cut === -1 ? written : written.slice(0, cut);
  if (pathPart === '') return undefined;
  const what = link.image ? 'image' : 'file';
  let target: UrlTarget;
  if (pathPart.startsWith('/')) {
    const parsed = parseSetUrl(rebaseLink(pathPart, linkBaseOf(layout)), layout);
    if (parsed.kind !== 'page' || parsed.markdown || parsed.root) return undefined;
    target = { version: parsed.version, locale: parsed.locale, path: parsed.path };
  } else {
    const path = resolveFilePath(page.path, pathPart);
    if (path === null) {
      if (!link.image) return undefined;
      return {
        rule: 'assets.missing',
        severity: 'error',
        message: `The image ${JSON.stringify(link.href)} climbs out of version ${page.version} (${page.locale}) of the docs, where no file is served.`,
        fix: 'Keep images inside the version folder, next to the pages that show them, and link them relative to the page.',
      };
    }
    target = { version: page.version, locale: page.locale, path };
  }
  if (!link.image) {
    if (!looksLikeFile(target.path)) return undefined;
    // A page may look like a file (`v1.2`): then the link is a page link.
    const { byPath } = await pagesOf({ version: target.version, locale: target.locale });
    if (byPath.has(target.path) || byPath.has(`${target.path}/index`)) return undefined;
  }
  const names = fileCandidates(layout, target);
  for (const name of names) {
    if (isServableFileName(name) && (await source.openFile(name)) !== null) return null;
  }
  const name = names[0]!;
  if (!isServableFileName(name)) {
    return {
      rule: 'assets.missing',
      severity: 'error',
      message: `The ${what} ${JSON.stringify(link.href)} names ${name}, which Kit never serves: dotfiles, Markdown sources, kit.json, navigation files and secret-looking names (keys, .env, credentials) stay private.`,
      fix: `Rename the ${what} to a plain name (for example images/diagram.png) and link that.`,
    };
  }
  return {
    rule: 'assets.missing',
    severity: 'error',
    message: `The ${what} ${JSON.stringify(link.href)} points at ${name}, which does not exist, so readers get a 404.`,
    fix: `Add the file ${name} next to the pages of version ${page.version}, or fix the path.`,
  };
}

/** How a set serves raw HTML: `allow` as written, `escape` as text, `database` as text, sanitized. */
type RawHtml = 'allow' | 'escape' | 'database';

interface LinkContext {
  docSet: DocSet;
  /** The sets serving the same domain as this one, longest prefix first; null when unknown. */
  site: SiteSet[] | null;
  layout: UrlLayout;
  manifest: NormalizedManifest;
  rawHtml: RawHtml;
  pagesOf(scope: Scope): Promise<ScopePages>;
  renderOf(page: SourcePage): Promise<RenderedPage | null>;
  anchorsOf: Map<string, Set<string>>;
}

async function checkLink(
  target: LinkTarget,
  link: RenderedPage['links'][number],
  from: SourcePage,
  context: LinkContext,
): Promise<SourceProblem | null> {
  const { href } = link;
  if (target.kind === 'external') return null;
  if (target.kind === 'site') {
    if (!context.site) return null;
    return checkSiteLink(href, target.path, target.versioned, from, servingSet(context.site, target.path), context);
  }
  if (target.kind === 'page' && target.site !== undefined && context.site) {
    // Another set mounted under this set's prefix (`/docs/api` beside `/docs`) serves its own paths.
    const serving = servingSet(context.site, target.site);
    if (serving && serving.set.key !== context.docSet.key) {
      return checkSiteLink(href, target.site, false, from, serving, context);
    }
  }
  if (target.kind === 'unsafe') {
    const raw = isRawHtmlLink(from.body, href, link.line === undefined ? undefined : link.line - from.bodyLine);
    return unsafeLink(href, target.scheme, raw ? context.rawHtml : null);
  }
  if (target.kind === 'invalid') {
    return {
      rule: 'links.broken',
      severity: 'error',
      message: `The link ${JSON.stringify(href)} leads out of ${scopeName(context.layout, from)}, so no page answers it.`,
      fix: 'Link to pages of another version by URL (/docs/<version>/<page>), and to this version relative to the page (./page.md).',
    };
  }
  const { layout } = context;
  const known =
    layout.versions.some((version) => version.id === target.version) &&
    layout.locales.some((locale) => locale.code === target.locale);
  const scopePages = known ? await context.pagesOf(target) : null;
  const page = scopePages ? target.paths.map((path) => scopePages.byPath.get(path)).find((found) => found) : undefined;
  if (!page) {
    const redirect =
      target.paths[0] !== undefined
        ? matchRedirect(context.manifest.redirects, layout, {
            version: target.version,
            locale: target.locale,
            path: target.paths[0],
            markdown: false,
          })
        : null;
    if (redirect) return null;
    const near = scopePages && target.paths[0] ? closest(target.paths[0], [...scopePages.byPath.keys()]) : null;
    return {
      rule: 'links.broken',
      severity: 'error',
      message: `The link ${JSON.stringify(href)} points at "${target.paths[0] ?? target.shown}", which is not a page of ${scopeName(layout, target)}.`,
      fix: near
        ? `Point the link at "${near}".`
        : 'Fix the link, create the page, or add a redirect for the old path in kit.json.',
    };
  }
  if (target.anchor === null) return null;
  const key = `${page.version}\u0000${page.locale}\u0000${page.path}`;
  let anchors = context.anchorsOf.get(key);
  if (!anchors) {
    const rendered = await context.renderOf(page);
    anchors = new Set(rendered?.anchors ?? []);
    context.anchorsOf.set(key, anchors);
  }
  if (hasAnchor(anchors, target.anchor)) return null;
  const near = closest(target.anchor, [...anchors]);
  const samePage = page.path === from.path && page.version === from.version && page.locale === from.locale;
  return {
    rule: 'links.anchor',
    severity: 'warning',
    message: `The link ${JSON.stringify(href)} points at the anchor #${target.anchor}, which ${samePage ? 'this page' : `the page "${page.path}"`} does not have.`,
    fix: near ? `Use #${near}.` : 'Link to a heading of that page, or add an anchor such as <a name="...">.',
  };
}

/** A set of the site, with its prefix in URL form. */
interface SiteSet {
  set: DocSet;
  prefix: string;
}

/**
 * The sets a link from `docSet` can reach by site path: those mounted on its domain (or on every
 * domain), longest prefix first, as the site routes a request. `docSet` is always among them.
 */
function siteSetsOf(docSet: DocSet, sets: readonly DocSet[]): SiteSet[] {
  const domain = docSet.config.route.domain;
  const reachable = sets.filter(
    (set) => set.key !== docSet.key && (set.config.route.domain === null || set.config.route.domain === domain),
  );
  return [docSet, ...reachable]
    .map((set) => ({ set, prefix: normalizePrefix(set.config.route.prefix) }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

/** The set whose prefix holds `path`, or null when no set is mounted there. */
function servingSet(site: SiteSet[], path: string): SiteSet | null {
  return site.find(({ prefix }) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`)) ?? null;
}

/**
 * `links.broken` for a site-absolute link that leaves this set: it must reach a page, `.md` twin or
 * redirect of the set mounted there. A path under no set is the application's, and is reported
 * only when written with `{{version}}` (only a docs link carries it). Another set is named by its
 * mount, never by its key, and none of its pages is suggested: `validate_docs` on the web answers
 * the managers of one set.
 */
async function checkSiteLink(
  href: string,
  path: string,
  versioned: boolean,
  from: SourcePage,
  serving: SiteSet | null,
  context: LinkContext,
): Promise<SourceProblem | null> {
  if (serving) {
    const match = await serving.set.resolveUrl(path.length > 1 ? path.replace(/\/+$/, '') : path, LOCAL);
    if (match.kind !== 'none') return null;
  } else if (!versioned) {
    return null;
  }
  const mount = serving ? `the doc set mounted at ${serving.prefix || '/'}` : 'no doc set of this site';
  const own = await ownPageFor(href, from, context);
  const key = context.docSet.key;
  return {
    rule: 'links.broken',
    severity: 'error',
    message: serving
      ? `The link ${JSON.stringify(href)} leads to ${path}, in ${mount}, which has no page there, so readers get a 404.`
      : `The link ${JSON.stringify(href)} leads to ${path}, a path ${mount} serves, so readers get a 404.`,
    fix: own
      ? `This set has the page "${own.page}". If the pages were written for a site that mounts this set at ${own.base || '/'}, set sets.${key}.route.link_prefix: '${own.base.replace(/^\//, '')}' in kit.config.ts; otherwise link to ${own.url}.`
      : serving
        ? `Point the link at a page of ${mount}, or at a page of this set (${context.layout.prefix}/...).`
        : `Point the link at a page of a doc set (this set is mounted at ${context.layout.prefix || '/'}).`,
  };
}

/**
 * When a broken site link reads as a page of this set written under another mount
 * (`/docs/{{version}}/routing` in a set mounted at `/laravel`): that page, the mount the link was
 * written for and the link as this set serves it.
 */
async function ownPageFor(
  href: string,
  from: SourcePage,
  context: LinkContext,
): Promise<{ page: string; base: string; url: string } | null> {
  const match = WRITTEN_BASE.exec(href.trim());
  if (!match) return null;
  const base = match[1]!;
  const rest = (match[2] ?? '').replace(/^\/+|\/+$/g, '').replace(/\.md$/, '');
  const { byPath } = await context.pagesOf(from);
  const path = rest === '' ? context.layout.landing : rest;
  const page = byPath.get(path) ?? byPath.get(`${path}/index`);
  if (!page) return null;
  return {
    page: page.path,
    base,
    url: `${context.layout.prefix}/{{version}}${rest === '' ? '' : `/${rest}`}`,
  };
}

/** `/base/{{version}}/rest`: the mount a `{{version}}` link was written for, and the page part. */
const WRITTEN_BASE = /^(\/[^?#]*?|)\/\{\{\s*version\s*\}\}((?:\/[^?#]*)?)(?:[?#].*)?$/;

/**
 * `links.unsafe` for a page link, saying what readers get: a Markdown link with such a scheme is
 * always left out, but an `<a href>` tag is served as written where raw HTML is allowed.
 */
function unsafeLink(href: string, scheme: string, rawHtml: RawHtml | null): SourceProblem {
  const protocolRelative = scheme === '//';
  const head = protocolRelative
    ? `The link ${JSON.stringify(href)} is protocol-relative (//host): it leaves the site for that host, which pages may not link to`
    : `The link ${JSON.stringify(href)} uses the ${scheme}: scheme, which pages may not link to`;
  const live = protocolRelative ? 'protocol-relative' : `${scheme}:`;
  const retarget = 'an https:// URL, a mailto: address or a page path';
  if (rawHtml === 'allow') {
    return {
      rule: 'links.unsafe',
      severity: 'error',
      message: `${head}. It is written in an <a> tag and html_input is 'allow', so the page serves it as written: readers get a live ${live} link.`,
      fix: `Fix it now: point the tag at ${retarget}, or remove the tag.`,
    };
  }
  if (rawHtml === 'escape') {
    return {
      rule: 'links.unsafe',
      severity: 'error',
      message: `${head}. It is written in an <a> tag and html_input is 'escape', so the page shows the tag as text and links nowhere.`,
      fix: `Point the tag at ${retarget}, or remove it: with html_input 'allow' it would be served as a live link.`,
    };
  }
  if (rawHtml === 'database') {
    return {
      rule: 'links.unsafe',
      severity: 'error',
      message: `${head}. It is written in an <a> tag, which a database set escapes, so the page shows the tag as text and links nowhere.`,
      fix: `Point the tag at ${retarget}, or remove it.`,
    };
  }
  return {
    rule: 'links.unsafe',
    severity: 'error',
    message: `${head}; it is left out of the page.`,
    fix: `Link to ${retarget}.`,
  };
}

async function renderPage(
  options: ValidateDocSetOptions,
  docSet: DocSet,
  layout: UrlLayout,
  page: SourcePage,
): Promise<RenderedPage | null> {
  const { renderer } = options;
  if (renderer) {
    const context: RenderContextInput = {
      set: docSet.key,
      config: {
        html_input: docSet.config.html_input,
        snippets: docSet.config.snippets,
        references: docSet.config.references,
      },
      sourceKind: docSet.source.kind,
      layout,
      version: page.version,
      locale: page.locale,
      origin: options.origin ?? '',
      highlight: false,
    };
    return 'renderPage' in renderer
      ? renderer.renderPage(page, context)
      : renderer.render(page, createRenderContext(context));
  }
  if (docSet.renderForAgents) return docSet.renderForAgents(page);
  const view = await docSet.getPage({ version: page.version, locale: page.locale, path: page.path }, LOCAL);
  return view?.rendered ?? null;
}

/** `manifest.integrations`: a database set reads analytics from configuration only. */
function checkIntegrations(text: string, file: string, add: (problem: SourceProblem) => void): void {
  const parsed = parseJsonText(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return;
  const integrations = (parsed.value as Record<string, unknown>).integrations;
  if (integrations === undefined || integrations === null) return;
  if (typeof integrations === 'object' && Object.keys(integrations).length === 0) return;
  add({
    rule: 'manifest.integrations',
    severity: 'warning',
    message: `${file} has integrations, but this is a database set: it ignores integrations in the manifest.`,
    file,
    ...lineOf(text, '"integrations"'),
    fix: 'Move them to sets.<key>.integrations.analytics in kit.config.ts and remove integrations from the manifest.',
  });
}

/**
 * `components.unknown` for the manifest's `inserts`: the renderer leaves a component nobody
 * registered out of every page, so each such name is reported on the manifest.
 */
function checkInserts(
  manifest: NormalizedManifest,
  known: readonly string[],
  text: string | undefined,
  file: string,
  add: (problem: SourceProblem) => void,
): void {
  const registered = new Set(known);
  for (const point of INSERT_POINTS) {
    for (const name of manifest.inserts[point] ?? []) {
      if (registered.has(name)) continue;
      add({
        rule: 'components.unknown',
        severity: 'warning',
        message: `Insert point "${point}" lists the component "${name}", which is not registered, so it is left out of every page.`,
        file,
        ...lineOf(text, JSON.stringify(name), ['"inserts"', JSON.stringify(point)]),
        fix: `Register it with registerComponent('${name}', { html, markdown }) in kit.config.ts, or remove it from inserts.${point} in ${file}.`,
      });
    }
  }
}

/**
 * The 1-based line of the first occurrence of `needle` in `text`, as `{ line }`, or nothing. With
 * `after`, the search starts behind each of those strings in turn (a key, then a key inside it).
 */
function lineOf(text: string | undefined, needle: string, after: string[] = []): { line?: number } {
  if (text === undefined) return {};
  let from = 0;
  for (const key of after) {
    const found = text.indexOf(key, from);
    if (found !== -1) from = found + key.length;
  }
  const at = text.indexOf(needle, from);
  if (at === -1) return {};
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < at; index = text.indexOf('\n', index + 1)) line += 1;
  return { line };
}

/**
 * `locales.missing`: version `version` has no page in the declared locale `locale`. For a
 * repository set the fix names the folder to create, for a database set the pages to add.
 */
function missingLocale(
  layout: UrlLayout,
  version: string,
  locale: string,
  kind: DocSet['source']['kind'],
  manifestName: string,
  manifestText: string | undefined,
  example: string,
): SourceProblem {
  const where = kind === 'database' ? '' : ` (folder ${contentFolder(layout, version, locale) || '.'}/)`;
  const from =
    kind === 'database' ? `the ${example} pages of ${version}` : `${contentFolder(layout, version, example) || '.'}/`;
  return {
    rule: 'locales.missing',
    severity: 'warning',
    message: `The manifest declares the locale "${locale}", but version ${version} has no ${locale} pages${where}: readers of ${locale} who switch to ${version} land on its ${layout.defaultLocale} pages.`,
    file: manifestName,
    ...lineOf(manifestText, JSON.stringify(locale)),
    fix:
      kind === 'database'
        ? `Add ${locale} pages to version ${version} (translate ${from}), or ignore this warning if ${version} is not translated.`
        : `Create the folder ${contentFolder(layout, version, locale)}/ with ${locale} pages (translated from ${from}), or ignore this warning if ${version} is not translated.`,
  };
}

function navigationFileName(layout: UrlLayout, version: string, locale: string): string {
  const parts: string[] = [];
  if (layout.versioned) parts.push(version);
  if (locale !== layout.defaultLocale) parts.push(locale);
  parts.push('navigation.json');
  return parts.join('/');
}

/** The candidate closest to `wanted` when it is close enough to be a typo, else null. */
function closest(wanted: string, candidates: string[]): string | null {
  const target = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(target.length / 4));
  let best: string | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - target.length) > limit) continue;
    const score = editDistance(target, candidate.toLowerCase());
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore <= limit ? best : null;
}

/**
 * A version and locale as people say them, naming only what the set has more than one of:
 * `the docs` for an unversioned single-locale set, `version 3.x of the docs`, `the fr docs`,
 * `version 3.x of the fr docs`.
 */
function scopeName(layout: UrlLayout, scope: { version: string; locale: string }): string {
  const docs = layout.locales.length > 1 ? `the ${scope.locale} docs` : 'the docs';
  return layout.versioned ? `version ${scope.version} of ${docs}` : docs;
}
