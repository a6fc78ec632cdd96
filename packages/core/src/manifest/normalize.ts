import type {
  InsertPoint,
  LinkItem,
  LocaleInfo,
  NormalizedManifest,
  PageActionName,
  RedirectRule,
  SourceProblem,
  VersionInfo,
  VersionStatus,
} from '../model/types.js';
import { parseJsonText, type TextPosition } from '../schemas/json-text.js';
import { readablePath, validateAgainstSchema } from '../schemas/registry.js';
import { nearestKey } from '../util/nearest-key.js';
import { isSafeLink, type LinkPolicy } from './links.js';
import { localeDirection, localeLabel } from './locales.js';

/** Every top-level key the manifest knows (`credit` included, though the schema leaves it out). */
export const MANIFEST_KEYS = [
  '$schema',
  'name',
  'description',
  'logo',
  'favicon',
  'repository',
  'theme',
  'versions',
  'locales',
  'landing',
  'navbar',
  'footer',
  'credit',
  'redirects',
  'assets',
  'inserts',
  'integrations',
  'agents',
  'provenance',
  'pageActions',
  'strings',
] as const;

/** The seven insert points, in page order. */
export const INSERT_POINTS: readonly InsertPoint[] = [
  'header.actions',
  'sidebar.before',
  'sidebar.after',
  'article.before',
  'article.after',
  'toc.after',
  'footer',
];

/** Defaults of the manifest, in one place. */
export const MANIFEST_DEFAULTS = {
  landing: 'index',
  repository: { branch: 'main', docsPath: 'docs' },
  theme: { radius: 'sharp', mode: 'system' },
  version: { id: 'current', status: 'current', visibility: 'public' },
  locale: 'en',
  redirectStatus: 301,
  credit: true,
  provenance: true,
  pageActions: ['copy', 'markdown', 'chatgpt', 'claude', 'editor'],
} as const;

const versionStatuses: readonly VersionStatus[] = ['current', 'maintained', 'deprecated', 'archived'];
const redirectStatuses = [301, 302, 307, 308] as const;
const versionIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const localeCodePattern = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const cssColorPattern = /^[#A-Za-z0-9(),.%\s/+-]+$/;
const fontFamilyPattern = /^[^;{}<>\\]+$/;
const componentPattern = /^[A-Z][A-Za-z0-9]*$/;

export interface ManifestResult {
  manifest: NormalizedManifest;
  problems: SourceProblem[];
}

/** Where problems point: the file name and, for parsed text, value positions by JSON Pointer. */
interface ProblemContext {
  file: string;
  positions?: Map<string, TextPosition>;
  problems: SourceProblem[];
}

function report(
  context: ProblemContext,
  pointer: string,
  problem: Omit<SourceProblem, 'file' | 'line' | 'column'>,
): void {
  const position = locate(context.positions, pointer);
  context.problems.push({ ...problem, file: context.file, ...(position ?? {}) });
}

// The closest recorded ancestor: a missing key is reported on the object that lacks it.
function locate(positions: Map<string, TextPosition> | undefined, pointer: string): TextPosition | undefined {
  if (!positions) return undefined;
  let current = pointer;
  for (;;) {
    const found = positions.get(current);
    if (found) return { line: found.line, column: found.column };
    if (current === '') return undefined;
    current = current.slice(0, current.lastIndexOf('/'));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** `docs` → `Docs`: the default name of a set without one. */
function capitalize(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Normalizes a parsed manifest (`kit.json`) for one set: every default applied, unsafe links
 * left out, unknown top-level keys kept in `extra`. Never throws: schema violations come back as
 * `manifest.schema` problems and the offending value falls back to its default, so the set
 * still works. `raw === undefined` means the set has no manifest (a warning).
 *
 * @example
 * normalizeManifest({ versions: ['3.x', '2.x'] }, 'docs').manifest.name // 'Docs'
 */
export function normalizeManifest(raw: unknown, setKey: string): ManifestResult {
  return normalizeWithContext(raw, setKey, { file: 'kit.json', problems: [] });
}

/**
 * Parses and normalizes manifest text. Invalid JSON is a `manifest.schema` error with line and
 * column, and the set gets the defaults of a set without a manifest; schema problems carry the
 * line and column of the offending value.
 *
 * @example
 * parseManifestText('{ "name": "Acme" ', 'docs').problems[0]
 * // { rule: 'manifest.schema', severity: 'error', message: 'kit.json is not valid JSON: ...', line: 1, column: 18, ... }
 */
export function parseManifestText(text: string, setKey: string, file = 'kit.json'): ManifestResult {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { manifest } = normalizeWithContext({}, setKey, { file, problems: [] });
    return {
      manifest,
      problems: [
        {
          rule: 'manifest.schema',
          severity: 'error',
          message: `${file} is not valid JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column}). Until it is fixed the set uses default settings.`,
          file,
          line: parsed.line,
          column: parsed.column,
          fix: 'Fix the JSON syntax at that position (quotes around keys and strings, no trailing commas, no comments).',
        },
      ],
    };
  }
  return normalizeWithContext(parsed.value, setKey, { file, positions: parsed.positions, problems: [] });
}

function normalizeWithContext(raw: unknown, setKey: string, context: ProblemContext): ManifestResult {
  if (raw === undefined || raw === null) {
    context.problems.push({
      rule: 'manifest.schema',
      severity: 'warning',
      message: `The set "${setKey}" has no manifest (${context.file}); it uses the defaults: name "${capitalize(setKey)}", one version, one language (en).`,
      file: context.file,
      fix: `Create ${context.file} with at least "name" and "description" (kit init writes one).`,
    });
    raw = {};
  }
  for (const issue of validateAgainstSchema('larecipe', raw)) {
    report(context, issue.pointer, {
      rule: 'manifest.schema',
      severity: 'error',
      message: issue.message,
      ...(issue.fix ? { fix: issue.fix } : {}),
    });
  }
  const source = isObject(raw) ? raw : {};
  const known = new Set<string>(MANIFEST_KEYS);
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (known.has(key)) continue;
    Object.defineProperty(extra, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    const suggestion = nearestKey(key, MANIFEST_KEYS, 2);
    if (suggestion === null) continue;
    // With the right spelling also present the typo still matters: its value is silently ignored.
    const alsoPresent = Object.hasOwn(source, suggestion);
    report(context, `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, {
      rule: 'manifest.schema',
      severity: 'warning',
      message: alsoPresent
        ? `Unknown top-level key \`${key}\` is kept but not read; it looks like a misspelling of \`${suggestion}\`, which is also set and is the one read.`
        : `Unknown top-level key \`${key}\` is kept but not read; it looks like a misspelling of \`${suggestion}\`.`,
      fix: alsoPresent
        ? `Rename \`${key}\` to \`${suggestion}\` and merge it with the existing \`${suggestion}\`, or remove \`${key}\`.`
        : `Rename \`${key}\` to \`${suggestion}\`.`,
    });
  }

  const repository = normalizeRepository(own(source, 'repository'), context);
  const { versioned, versions } = normalizeVersions(own(source, 'versions'), context);
  const { localized, locales } = normalizeLocales(own(source, 'locales'), context);
  const agents = isObject(own(source, 'agents')) ? (source.agents as Record<string, unknown>) : {};
  const llmsTxt = isObject(own(agents, 'llmsTxt')) ? (agents.llmsTxt as Record<string, unknown>) : {};

  const manifest: NormalizedManifest = {
    ...(typeof own(source, '$schema') === 'string' ? { $schema: source.$schema as string } : {}),
    name: text(own(source, 'name')) ?? capitalize(setKey),
    ...optional('description', text(own(source, 'description'))),
    ...optional('logo', normalizeLogo(own(source, 'logo'))),
    ...optional('favicon', text(own(source, 'favicon'))),
    ...optional('repository', repository),
    theme: normalizeTheme(own(source, 'theme')),
    versioned,
    versions,
    localized,
    locales,
    landing: normalizeLanding(own(source, 'landing')),
    navbar: normalizeNavbar(own(source, 'navbar'), repository?.url, context),
    footer: normalizeFooter(own(source, 'footer'), context),
    credit: typeof own(source, 'credit') === 'boolean' ? (source.credit as boolean) : MANIFEST_DEFAULTS.credit,
    redirects: normalizeRedirects(own(source, 'redirects'), context),
    assets: normalizeAssets(own(source, 'assets')),
    inserts: normalizeInserts(own(source, 'inserts')),
    integrations: normalizeIntegrations(own(source, 'integrations')),
    agents: {
      llmsTxt: {
        ...optional('description', text(own(llmsTxt, 'description'))),
        ...optional('instructions', text(own(llmsTxt, 'instructions'))),
      },
      ...(typeof own(agents, 'skillMd') === 'boolean' ? { skillMd: agents.skillMd as boolean } : {}),
    },
    provenance:
      typeof own(source, 'provenance') === 'boolean' ? (source.provenance as boolean) : MANIFEST_DEFAULTS.provenance,
    pageActions: normalizePageActions(own(source, 'pageActions')),
    strings: normalizeStrings(own(source, 'strings')),
    extra,
  };
  return { manifest, problems: context.problems };
}

/** `true` or absent: every action; `false`: none; a list: those known, once each, in its order. */
function normalizePageActions(raw: unknown): PageActionName[] {
  if (raw === false) return [];
  if (!Array.isArray(raw)) return [...MANIFEST_DEFAULTS.pageActions];
  const known = new Set<string>(MANIFEST_DEFAULTS.pageActions);
  return [...new Set(raw.filter((name): name is PageActionName => typeof name === 'string' && known.has(name)))];
}

/**
 * The reader's interface strings a set writes, by locale code and string name. Which names exist
 * is the reader's business (the schema lists them); here only text values under a locale code are
 * kept, so a wrong shape never reaches a page.
 */
function normalizeStrings(raw: unknown): NormalizedManifest['strings'] {
  if (!isObject(raw)) return {};
  const strings: NormalizedManifest['strings'] = {};
  for (const [code, entries] of Object.entries(raw)) {
    if (!localeCodePattern.test(code) || !isObject(entries)) continue;
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(entries)) {
      if (typeof value === 'string' && value.trim() !== '') kept[name] = value;
    }
    strings[code] = kept;
  }
  return strings;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function normalizeLogo(raw: unknown): NormalizedManifest['logo'] {
  const single = text(raw);
  if (single !== undefined) return { light: single, dark: single };
  if (!isObject(raw)) return undefined;
  const light = text(own(raw, 'light')) ?? text(own(raw, 'dark'));
  if (light === undefined) return undefined;
  return { light, dark: text(own(raw, 'dark')) ?? light };
}

function normalizeRepository(raw: unknown, context: ProblemContext): NormalizedManifest['repository'] {
  if (!isObject(raw)) return undefined;
  const url = webUrl(own(raw, 'url'), '/repository/url', context);
  const docsUrl = webUrl(own(raw, 'docsUrl'), '/repository/docsUrl', context) ?? url;
  const docsPath =
    typeof own(raw, 'docsPath') === 'string' ? (raw.docsPath as string).trim().replace(/^\/+|\/+$/g, '') : undefined;
  return {
    ...optional('url', url),
    ...optional('docsUrl', docsUrl),
    branch: text(own(raw, 'branch')) ?? MANIFEST_DEFAULTS.repository.branch,
    docsPath: docsPath ?? MANIFEST_DEFAULTS.repository.docsPath,
  };
}

function webUrl(raw: unknown, pointer: string, context: ProblemContext): string | undefined {
  const value = text(raw);
  if (value === undefined) return undefined;
  if (!checkLink(value, pointer, 'web-url', context)) return undefined;
  return withoutTrailingSlash(value);
}

function checkLink(href: string, pointer: string, policy: LinkPolicy, context: ProblemContext): boolean {
  if (isSafeLink(href, policy)) return true;
  const allowed = policy === 'web-url' ? 'an http or https URL' : 'an http, https or mailto URL or a path on the site';
  report(context, pointer, {
    rule: 'links.unsafe',
    severity: 'error',
    message: `\`${readablePath(pointer)}\` is ${JSON.stringify(href)}, which is not ${allowed}; it is left out of every page.`,
    fix:
      policy === 'web-url'
        ? 'Use the https:// address of the repository.'
        : 'Use an https:// URL, a mailto: address or a site path such as /docs/getting-started.',
  });
  return false;
}

function normalizeTheme(raw: unknown): NormalizedManifest['theme'] {
  const theme = isObject(raw) ? raw : {};
  const fonts = isObject(own(theme, 'fonts')) ? (theme.fonts as Record<string, unknown>) : {};
  const font = (key: string) => {
    const value = text(own(fonts, key));
    return value !== undefined && fontFamilyPattern.test(value) ? value : undefined;
  };
  const accent = text(own(theme, 'accent'));
  const radius = own(theme, 'radius');
  const mode = own(theme, 'mode');
  return {
    ...optional(
      'accent',
      accent !== undefined && accent.length <= 100 && cssColorPattern.test(accent) ? accent : undefined,
    ),
    radius: radius === 'sharp' || radius === 'soft' ? radius : MANIFEST_DEFAULTS.theme.radius,
    fonts: {
      ...optional('sans', font('sans')),
      ...optional('mono', font('mono')),
      ...optional('arabic', font('arabic')),
    },
    mode: mode === 'system' || mode === 'light' || mode === 'dark' ? mode : MANIFEST_DEFAULTS.theme.mode,
  };
}

function visibilityOf(raw: unknown): 'public' | 'private' {
  if (raw === undefined) return 'public';
  return typeof raw === 'string' && raw.trim().toLowerCase() === 'public' ? 'public' : 'private';
}

function normalizeVersions(raw: unknown, context: ProblemContext): { versioned: boolean; versions: VersionInfo[] } {
  const declared: Array<VersionInfo & { saidDefault: boolean }> = [];
  const items = Array.isArray(raw) ? raw : [];
  items.forEach((item, index) => {
    const entry = typeof item === 'string' ? { id: item } : isObject(item) ? item : undefined;
    const id = entry ? text(own(entry, 'id')) : undefined;
    if (!entry || id === undefined || !versionIdPattern.test(id)) return;
    if (declared.some((version) => version.id === id)) {
      report(context, `/versions/${index}`, {
        rule: 'manifest.schema',
        severity: 'error',
        message: `Version "${id}" is declared twice in \`versions\`; the first declaration counts.`,
        fix: `Remove \`versions[${index}]\` or give it another id.`,
      });
      return;
    }
    const status = own(entry, 'status');
    declared.push({
      id,
      label: text(own(entry, 'label')) ?? id,
      status: versionStatuses.includes(status as VersionStatus) ? (status as VersionStatus) : 'current',
      default: false,
      visibility: visibilityOf(own(entry, 'visibility')),
      saidDefault: own(entry, 'default') === true,
    });
  });
  if (declared.length === 0) {
    const { id, status, visibility } = MANIFEST_DEFAULTS.version;
    return { versioned: false, versions: [{ id, label: id, status, default: true, visibility }] };
  }
  const chosen = pickDefault(declared, 'versions', (version) => version.id, context);
  return {
    versioned: true,
    versions: declared.map(({ saidDefault: _, ...version }, index) => ({ ...version, default: index === chosen })),
  };
}

function pickDefault<T extends { saidDefault: boolean }>(
  items: T[],
  key: 'versions' | 'locales',
  name: (item: T) => string,
  context: ProblemContext,
): number {
  const saying = items.flatMap((item, index) => (item.saidDefault ? [index] : []));
  if (saying.length > 1) {
    report(context, `/${key}`, {
      rule: 'manifest.schema',
      severity: 'warning',
      message: `Several ${key} say \`default: true\` (${saying.map((index) => `"${name(items[index]!)}"`).join(', ')}); the first one is the default.`,
      fix: `Keep \`default: true\` on one entry of \`${key}\` only.`,
    });
  }
  return saying[0] ?? 0;
}

function normalizeLocales(raw: unknown, context: ProblemContext): { localized: boolean; locales: LocaleInfo[] } {
  const declared: Array<LocaleInfo & { saidDefault: boolean }> = [];
  const items = Array.isArray(raw) ? raw : [];
  items.forEach((item, index) => {
    const entry = typeof item === 'string' ? { code: item } : isObject(item) ? item : undefined;
    const code = entry ? text(own(entry, 'code')) : undefined;
    if (!entry || code === undefined || !localeCodePattern.test(code)) return;
    if (declared.some((locale) => locale.code.toLowerCase() === code.toLowerCase())) {
      report(context, `/locales/${index}`, {
        rule: 'manifest.schema',
        severity: 'error',
        message: `Locale "${code}" is declared twice in \`locales\`; the first declaration counts.`,
        fix: `Remove \`locales[${index}]\`.`,
      });
      return;
    }
    const dir = own(entry, 'dir');
    declared.push({
      code,
      label: text(own(entry, 'label')) ?? localeLabel(code),
      dir: dir === 'ltr' || dir === 'rtl' ? dir : localeDirection(code),
      default: false,
      saidDefault: own(entry, 'default') === true,
    });
  });
  if (declared.length === 0) {
    const code = MANIFEST_DEFAULTS.locale;
    return { localized: false, locales: [{ code, label: localeLabel(code), dir: 'ltr', default: true }] };
  }
  const chosen = pickDefault(declared, 'locales', (locale) => locale.code, context);
  return {
    localized: true,
    locales: declared.map(({ saidDefault: _, ...locale }, index) => ({ ...locale, default: index === chosen })),
  };
}

function normalizeLanding(raw: unknown): string {
  const value = text(raw)?.replace(/^\/+/, '').replace(/\.md$/, '');
  return value ? value : MANIFEST_DEFAULTS.landing;
}

function linkItems(raw: unknown, pointer: string, withIcon: boolean, context: ProblemContext): LinkItem[] {
  if (!Array.isArray(raw)) return [];
  const links: LinkItem[] = [];
  raw.forEach((item, index) => {
    if (!isObject(item)) return;
    const label = text(own(item, 'label'));
    const href = text(own(item, 'href'));
    if (label === undefined || href === undefined) return;
    if (!checkLink(href, `${pointer}/${index}/href`, 'page-link', context)) return;
    const icon = withIcon ? text(own(item, 'icon')) : undefined;
    links.push({ label, href, ...optional('icon', icon) });
  });
  return links;
}

function normalizeNavbar(
  raw: unknown,
  repositoryUrl: string | undefined,
  context: ProblemContext,
): NormalizedManifest['navbar'] {
  const navbar = isObject(raw) ? raw : {};
  // The header already shows the repository as an icon.
  const links = linkItems(own(navbar, 'links'), '/navbar/links', true, context).filter(
    (link) => repositoryUrl === undefined || withoutTrailingSlash(link.href) !== repositoryUrl,
  );
  const cta = own(navbar, 'cta');
  let button: { label: string; href: string } | undefined;
  if (isObject(cta)) {
    const label = text(own(cta, 'label'));
    const href = text(own(cta, 'href'));
    if (label !== undefined && href !== undefined && checkLink(href, '/navbar/cta/href', 'page-link', context)) {
      button = { label, href };
    }
  }
  return { links, ...optional('cta', button) };
}

function normalizeFooter(raw: unknown, context: ProblemContext): NormalizedManifest['footer'] {
  const footer = isObject(raw) ? raw : {};
  return {
    links: linkItems(own(footer, 'links'), '/footer/links', false, context),
    ...optional('text', text(own(footer, 'text'))),
  };
}

function normalizeRedirects(raw: unknown, context: ProblemContext): RedirectRule[] {
  if (!Array.isArray(raw)) return [];
  const rules: RedirectRule[] = [];
  raw.forEach((item, index) => {
    if (!isObject(item)) return;
    const from = text(own(item, 'from'));
    const to = text(own(item, 'to'));
    if (from === undefined || !from.startsWith('/') || to === undefined) return;
    // A destination is a path or an http(s) URL; a `javascript:` Location is never sent.
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(to) && !isSafeLink(to, 'web-url')) {
      report(context, `/redirects/${index}/to`, {
        rule: 'links.unsafe',
        severity: 'error',
        message: `\`redirects[${index}].to\` is ${JSON.stringify(to)}, which is not a path or an http(s) URL; the redirect is left out.`,
        fix: 'Use a path such as /docs/new-page or an https:// URL.',
      });
      return;
    }
    const status = own(item, 'status');
    rules.push({
      from,
      to,
      status: redirectStatuses.includes(status as 301)
        ? (status as RedirectRule['status'])
        : MANIFEST_DEFAULTS.redirectStatus,
    });
  });
  return rules;
}

const assetFilePattern = /^(?![/\\])(?![A-Za-z][A-Za-z0-9+.-]*:)(?!.*(^|[/\\])\.\.([/\\]|$)).+$/;

function normalizeAssets(raw: unknown): NormalizedManifest['assets'] {
  const assets = isObject(raw) ? raw : {};
  const files = (value: unknown): string[] => {
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    const kept = list.flatMap((file) => {
      const name = text(file);
      return name !== undefined && assetFilePattern.test(name) ? [name.replace(/^\.\//, '')] : [];
    });
    return [...new Set(kept)];
  };
  return { css: files(own(assets, 'css')), js: files(own(assets, 'js')) };
}

function normalizeInserts(raw: unknown): NormalizedManifest['inserts'] {
  if (!isObject(raw)) return {};
  const inserts: NormalizedManifest['inserts'] = {};
  for (const point of INSERT_POINTS) {
    const list = own(raw, point);
    if (!Array.isArray(list)) continue;
    inserts[point] = list.filter((name): name is string => typeof name === 'string' && componentPattern.test(name));
  }
  return inserts;
}

function normalizeIntegrations(raw: unknown): NormalizedManifest['integrations'] {
  // Kept as written: the renderer checks each tool against its provider's shape and leaves out
  // what does not match, and only repository sets read these at all.
  if (!isObject(raw) || !isObject(own(raw, 'analytics'))) return {};
  const analytics: Record<string, Record<string, unknown>> = {};
  for (const [tool, settings] of Object.entries(raw.analytics as Record<string, unknown>)) {
    if (isObject(settings) && tool !== '__proto__') analytics[tool] = structuredClone(settings);
  }
  return { analytics };
}
