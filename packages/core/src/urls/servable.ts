// Which page paths the URL layer can serve: the page-path side of parseSetUrl and the set routes.

/** What the URL rules of a set need to know to tell whether a page path can be served. */
export interface PathScope {
  /** Version ids of the manifest (the implicit `current` for an unversioned set). */
  versions: readonly string[];
  /** Locale codes of the manifest (the implicit `en` for a set with one language). */
  locales: readonly string[];
  /** False for an unversioned set: its URLs never carry a version segment. */
  versioned: boolean;
}

// Routes every set answers under its prefix, whatever its configuration says (a turned-off agent
// file answers 404 rather than passing the request on to the pages).
const AGENT_FILES = new Set(['llms.txt', 'llms-full.txt']);
const AGENT_FOLDERS = new Set(['llms', 'llms-full']);
const TAKEN = 'so the page would be written but never shown. Choose another name';

/**
 * Why a page path can never be served by a set with these versions and locales, or null when it
 * can. Checks what `cleanPagePath` does not: URL-significant characters, a first segment a URL
 * reads as a version or locale, and the paths Kit's own routes answer under a set's prefix (a page
 * at the MCP endpoint's path is shown on GET, so it is not among them).
 *
 * @example
 * unservablePagePath('ar/routing', { versions: ['current'], locales: ['en', 'ar'], versioned: false });
 * // 'its first segment "ar" is a locale code: ...'
 */
export function unservablePagePath(path: string, scope: PathScope): string | null {
  const bad = /[?#]/.exec(path);
  if (bad) {
    return `it holds "${bad[0]}", which ends the path part of a URL, so its URL would name another page. Use letters, digits, "-" and "_" instead`;
  }
  const segments = path.split('/');
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  const rest = segments.slice(1).join('/') || 'the landing page';
  if (scope.locales.includes(first)) {
    return `its first segment "${first}" is a locale code: URLs read it as the locale, so the page would be looked for at "${rest}". Write the page in locale "${first}" instead, or rename its folder`;
  }
  if (scope.versioned && scope.versions.includes(first)) {
    return `its first segment "${first}" is a version id: URLs read it as the version, so the page would be looked for at "${rest}". Write the page in version "${first}" instead, or rename its folder`;
  }
  if (path === 'ask') return `"ask" is the path of the set's search endpoint for agents, ${TAKEN}`;
  if (path === 'skill') return `its Markdown twin would be "skill.md", the set's skill file, ${TAKEN}`;
  if (path === 'sitemap.xml' || /^sitemap-[1-9][0-9]*\.xml$/.test(path)) {
    return `"${path}" is the path of the set's sitemap, ${TAKEN}`;
  }
  if (first === '_kit') return `"_kit/" holds Kit's own endpoints and reader assets, ${TAKEN}`;
  if (first === '.well-known')
    return `".well-known/" is reserved for site metadata such as the agent skills index, ${TAKEN}`;
  if (first === 'schemas' && segments.length === 2) return `"schemas/<name>" serves Kit's JSON schemas, ${TAKEN}`;
  if (AGENT_FILES.has(last)) return `"${last}" is the name of an agent file at every version and locale root, ${TAKEN}`;
  const folder = segments[segments.length - 2];
  if (folder !== undefined && AGENT_FOLDERS.has(folder)) {
    return `"${folder}/<file>" holds the split agent files of a version or locale, ${TAKEN}`;
  }
  return null;
}
