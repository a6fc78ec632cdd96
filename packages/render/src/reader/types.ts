import type { InsertPoint, TextDirection, TocEntry, VersionStatus } from '@kit/core';

/** A plain link: label and target. Unsafe targets (`javascript:`, ...) are left out when rendered. */
export interface ReaderLink {
  label: string;
  href: string;
}

/** A page entry of the sidebar. */
export interface ReaderNavPage {
  kind: 'page';
  title: string;
  /** Page path inside the version (`routing`, `index`); keys the "seen" memory of freshness dots. */
  path: string;
  url: string;
  /** ISO date of the page's last change; pages changed within `freshDays` get a dot until opened. */
  updatedAt?: string;
}

/** A nested group of the sidebar (collapsible). */
export interface ReaderNavGroup {
  kind: 'group';
  label: string;
  items: ReaderNavItem[];
}

/** An external link in the sidebar. */
export interface ReaderNavExternal {
  kind: 'link';
  label: string;
  href: string;
}

export type ReaderNavItem = ReaderNavPage | ReaderNavGroup | ReaderNavExternal;

/** A tab of a tabbed navigation file: the sidebar shows the active tab's groups. */
export interface ReaderNavTab {
  label: string;
  /** Where the tab leads (its first page). */
  url: string;
  active: boolean;
}

export interface ReaderSidebar {
  tabs?: ReaderNavTab[];
  /** Top-level groups (of the active tab for a tabbed navigation). */
  groups: Array<{ label: string; items: ReaderNavItem[] }>;
}

/** One version in the switcher. */
export interface ReaderVersion {
  id: string;
  label: string;
  status: VersionStatus;
  /** The same page in that version, or the version's landing page when the page does not exist there. */
  url: string;
  /** The version unversioned URLs serve; the notice on deprecated and archived versions links to it. */
  default?: boolean;
}

/** One locale in the language switcher. */
export interface ReaderLocale {
  code: string;
  label: string;
  dir: TextDirection;
  /** The same page in that locale, or the locale's landing page. */
  url: string;
}

/** Design tokens from the manifest's `theme`. */
export interface ReaderTheme {
  /** Any CSS color. */
  accent?: string;
  radius: 'sharp' | 'soft';
  fonts: { sans?: string; mono?: string; arabic?: string };
  /** Color mode before the reader chooses. */
  mode: 'system' | 'light' | 'dark';
}

/** How the search dialog finds results. */
export interface ReaderSearch {
  /** `client`: query a browser index; `server`: ask the server; another name behaves like `server`. */
  driver: string;
  /** Client driver: URL of the serialized index, downloaded on the first open of the dialog. */
  clientIndexUrl?: string;
  /** `GET <url>?q=&version=&locale=` answering the search result JSON; the fallback for every driver. */
  serverSearchUrl?: string;
}

/** Who and what last changed the page. */
export interface ReaderProvenance {
  author?: string;
  /** ISO date. */
  date?: string;
  commit?: string;
  commitUrl?: string;
}

/** Where the reader's CSS and script come from. */
export interface ReaderAssetUrls {
  /** Built script URL (content-hashed), e.g. `/docs/_kit/reader.3f9a1c2b.js`. */
  js: string;
  /** Built stylesheet URL (content-hashed). */
  css: string;
  /**
   * `ui.dev_server`: when set, the script and stylesheet load from `<devServer>/reader.js` and
   * `<devServer>/reader.css` instead of the built URLs, and the page reloads when they change.
   */
  devServer?: string | null;
}

/** What every reader page shares: the set, its chrome and its settings. */
export interface ReaderSiteView {
  /** Set key; namespaces what the browser remembers (seen pages). */
  set: string;
  /** Product name shown in the header and the title. */
  name: string;
  description?: string;
  logo?: { light: string; dark: string };
  favicon?: string;
  /** The set's home (landing page of the current version and locale), e.g. `/docs`. */
  homeUrl: string;
  /** The set's URL prefix path, e.g. `/docs` (`''` when root-mounted). */
  baseUrl: string;
  /** `<html lang>`: the current locale code. */
  lang: string;
  dir: TextDirection;
  navbar: { links: ReaderLink[]; cta?: ReaderLink };
  /** Project repository, shown as an icon in the header. */
  repositoryUrl?: string;
  sidebar: ReaderSidebar;
  footer: { links: ReaderLink[]; text?: string; credit: boolean };
  /** Versions the reader may see; the switcher is hidden with fewer than two. */
  versions: ReaderVersion[];
  currentVersion: string;
  /** Locales; the switcher is hidden with fewer than two. */
  locales: ReaderLocale[];
  currentLocale: string;
  /** Rendered HTML per insert point (components already rendered by the caller). */
  inserts?: Partial<Record<InsertPoint, string>>;
  feedback: { enabled: false } | { enabled: true; endpoint: string };
  search?: ReaderSearch | null;
  /** Script tags from {@link analyticsScripts} / {@link analyticsForSet}, placed in the head. */
  analytics?: string;
  theme: ReaderTheme;
  /** The set's own stylesheets (`assets.css`), linked after Kit's stylesheet. */
  stylesheets?: string[];
  assets: ReaderAssetUrls;
  /** `llms.txt` URL of the set, for `<link rel="describedby">`. */
  llmsTxtUrl?: string;
  /** `ui.fresh_days`; 0 turns freshness dots off. */
  freshDays: number;
  /** Nonce for inline scripts when the host sends a Content-Security-Policy. */
  cspNonce?: string;
  /** ISO "now" used for server-side freshness; defaults to the current time. */
  now?: string;
  /** Interface strings, for translated sites; English defaults. */
  strings?: Partial<ReaderStrings>;
  /**
   * Language (BCP 47) of `strings`; default: the page's `lang`. An interface string in another
   * language than the page (an English default on an Arabic page) is marked with its `lang` and
   * `dir`, so it reads in its own direction: "Was this page helpful?" keeps its `?` at the end.
   */
  stringsLang?: string;
}

/** A documentation page. */
export interface ReaderPageView extends ReaderSiteView {
  page: {
    title: string;
    description?: string;
    /** Page path inside the version (`index` for the landing page). */
    path: string;
    url: string;
    /** Absolute canonical URL. */
    canonicalUrl?: string;
    /** Markdown twin URL, for `<link rel="alternate" type="text/markdown">`. */
    markdownUrl?: string;
    /** Rendered article HTML (trusted: it comes from the render pipeline). */
    html: string;
    toc: TocEntry[];
    editUrl?: string;
    provenance?: ReaderProvenance | null;
    /** Group label shown above the title (breadcrumb). */
    group?: string;
    /** Previous and next pages in navigation order. */
    prev?: ReaderLink;
    next?: ReaderLink;
  };
}

/** The 404 page: the site's chrome, a message, search and a link home. */
export interface ReaderNotFoundView extends ReaderSiteView {
  /** The path that was asked for, shown to the reader. */
  requestedPath?: string;
}

/** Interface strings of the reader. */
export interface ReaderStrings {
  skipToContent: string;
  search: string;
  searchPlaceholder: string;
  searchNoResults: string;
  searchUnavailable: string;
  searchLoading: string;
  close: string;
  menu: string;
  navigation: string;
  onThisPage: string;
  colorMode: string;
  colorModeSystem: string;
  colorModeLight: string;
  colorModeDark: string;
  version: string;
  language: string;
  deprecated: string;
  archived: string;
  maintained: string;
  repository: string;
  editPage: string;
  lastUpdated: string;
  by: string;
  previous: string;
  next: string;
  helpfulQuestion: string;
  yes: string;
  no: string;
  commentLabel: string;
  send: string;
  thanks: string;
  feedbackFailed: string;
  copy: string;
  copied: string;
  notFoundTitle: string;
  notFoundText: string;
  backHome: string;
  newPage: string;
  oldVersionNotice: string;
  latestVersion: string;
  credit: string;
  /** Label of a heading's anchor link; `{heading}` is replaced by the heading text. */
  headingAnchor: string;
  /** Titles of the callouts `> [!NOTE]`, `> [!TIP]`, `> [!IMPORTANT]`, `> [!WARNING]`, `> [!CAUTION]`. */
  calloutNote: string;
  calloutTip: string;
  calloutImportant: string;
  calloutWarning: string;
  calloutCaution: string;
}
