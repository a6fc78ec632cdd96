/**
 * The content model shared by every package: normalized manifest, versions, locales, navigation
 * and pages. Written (input) shapes live next to their parsers; these are the resolved shapes.
 */

export type VersionStatus = 'current' | 'maintained' | 'deprecated' | 'archived';
export type Visibility = 'public' | 'private';
export type TextDirection = 'ltr' | 'rtl';

/** A version of a set after normalization. An unversioned set has one implicit version `current`. */
export interface VersionInfo {
  id: string;
  label: string;
  status: VersionStatus;
  default: boolean;
  visibility: Visibility;
}

/** A locale of a set after normalization. A set without `locales` has one: `en`. */
export interface LocaleInfo {
  code: string;
  label: string;
  dir: TextDirection;
  default: boolean;
}

export interface LinkItem {
  label: string;
  href: string;
  icon?: string;
}

export interface RedirectRule {
  from: string;
  to: string;
  status: 301 | 302 | 307 | 308;
}

/** The manifest (`kit.json`) after normalization: every default applied, unsafe links left out. */
export interface NormalizedManifest {
  $schema?: string;
  name: string;
  description?: string;
  logo?: { light: string; dark: string };
  favicon?: string;
  repository?: { url?: string; docsUrl?: string; branch: string; docsPath: string };
  theme: {
    accent?: string;
    radius: 'sharp' | 'soft';
    fonts: { sans?: string; mono?: string; arabic?: string };
    mode: 'system' | 'light' | 'dark';
  };
  /** True when the manifest declares `versions`; URLs then carry a version segment. */
  versioned: boolean;
  versions: VersionInfo[];
  /** True when the manifest declares `locales`. */
  localized: boolean;
  locales: LocaleInfo[];
  landing: string;
  navbar: { links: LinkItem[]; cta?: { label: string; href: string } };
  footer: { links: LinkItem[]; text?: string };
  credit: boolean;
  redirects: RedirectRule[];
  assets: { css: string[]; js: string[] };
  inserts: Partial<Record<InsertPoint, string[]>>;
  integrations: { analytics?: Record<string, Record<string, unknown>> };
  agents: { llmsTxt: { description?: string; instructions?: string }; skillMd?: boolean };
  provenance: boolean;
  /** `pageActions`: the page actions the reader site offers, in menu order (empty: none). */
  pageActions: PageActionName[];
  /** The reader's interface strings the set overrides, by locale code, then string name. */
  strings: Record<string, Record<string, string>>;
  /** Top-level keys Kit does not know, kept verbatim. */
  extra: Record<string, unknown>;
}

/**
 * A page action of the reader site: `copy` (the page as Markdown to the clipboard), `markdown`
 * (open the `.md` twin), `chatgpt` and `claude` (open the assistant with a prompt pointing at the
 * `.md` URL), `editor` (connect an editor to the set's MCP endpoint).
 */
export type PageActionName = 'copy' | 'markdown' | 'chatgpt' | 'claude' | 'editor';

export type InsertPoint =
  | 'header.actions'
  | 'sidebar.before'
  | 'sidebar.after'
  | 'article.before'
  | 'article.after'
  | 'toc.after'
  | 'footer';

/** A page entry of the navigation file: a path, `{path,title}`, a nested group or an external link. */
export type NavEntry = string | NavPageEntry | NavGroup | NavLink;
export interface NavPageEntry {
  path: string;
  title?: string;
}
export interface NavGroup {
  label: string;
  pages: NavEntry[];
}
export interface NavLink {
  label: string;
  href: string;
}
export interface NavTab {
  label: string;
  groups: NavGroup[];
}
/** A `navigation.json` file: groups, or tabs of groups. */
export type NavigationFile = { groups: NavGroup[] } | { tabs: NavTab[] };

/** Who changed a page last, for provenance. */
export interface Provenance {
  author?: string;
  date?: string;
  commit?: string;
  commitUrl?: string;
}

/** A problem found while reading content; reported by validation, never fatal to the set. */
export interface SourceProblem {
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  line?: number;
  /** Column of `line` (1-based), when the reader knows it (JSON files). */
  column?: number;
  fix?: string;
}

/** One page as a content source hands it over: frontmatter split off, nothing rendered. */
export interface SourcePage {
  /** Page path without `.md`; `index` is the landing page of a folder. */
  path: string;
  version: string;
  locale: string;
  frontmatter: Record<string, unknown>;
  /** Markdown body without the frontmatter block. */
  body: string;
  /** Frontmatter `title`, else the first H1, else the path's last segment. */
  title: string;
  description?: string;
  /** `sha256:<hex>` of the page file with line endings normalized; see `contentHash`. */
  contentHash: string;
  /** Line in the file where the body starts (1-based), to report body problems with file lines. */
  bodyLine: number;
  /** File path relative to the set folder (repository sets), for edit links and reports. */
  file?: string;
  /** Edit link for the page, when the source knows one. */
  editUrl?: string;
  updatedAt?: string;
  provenance?: Provenance;
  visibility: Visibility;
  problems: SourceProblem[];
}

/** A hand-written skill file served next to `skill.md`. */
export interface SkillFile {
  name: string;
  content: string;
}
