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
  /**
   * Where the group sits in the navigation file (`1.4`: the fifth entry of the second group), the
   * key of its navigation page and JSON (`ReaderSidebar.navUrl`). A sidebar trimmed to its bounds
   * links a collapsed group by it; without it the group is always shown whole.
   */
  id?: string;
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
  /** Top-level groups (of the active tab for a tabbed navigation), each with its `id` as for {@link ReaderNavGroup}. */
  groups: Array<{ label: string; items: ReaderNavItem[]; id?: string }>;
  /**
   * The navigation pages of this version and locale, e.g. `/docs/_kit/nav/3.x/en`: `?group=<id>`
   * lists a group in HTML, `.json?group=<id>` in JSON. With it, a sidebar larger than its bounds
   * (`SIDEBAR_FULL_ENTRIES`) is trimmed around the current page and links the rest there; without
   * it the sidebar is always shown whole.
   */
  navUrl?: string;
}

/** A group in a navigation listing: collapsed, with the number of entries it holds and its listing. */
export interface ReaderNavListingGroup {
  kind: 'group';
  /** The group's key, as {@link ReaderNavGroup.id}. */
  id: string;
  label: string;
  /** Entries directly in the group (pages, links and groups the reader may see). */
  count: number;
  /** Its navigation page (HTML). */
  url: string;
}

/** One entry of a navigation listing: a page, an external link or a collapsed group. */
export type ReaderNavListingItem = ReaderNavPage | ReaderNavExternal | ReaderNavListingGroup;

/**
 * One page of the entries of a navigation group, as `GET <navUrl>.json?group=<id>&offset=<n>`
 * answers it and the navigation page lists it: at most a page size of entries, never the set.
 */
export interface ReaderNavListing {
  /** The group listed; null for the top of the navigation (its groups, or its tabs). */
  group: { id: string; label: string } | null;
  /**
   * The groups around it, outermost first, each linking its own listing; the first is the top of
   * the navigation, with an empty label (the page names it).
   */
  trail: ReaderLink[];
  items: ReaderNavListingItem[];
  /** Position of the first item among the group's entries. */
  offset: number;
  /** Entries in the group. */
  total: number;
  /** The offset of the next page of entries, or null on the last. */
  next: number | null;
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
  /**
   * Ask AI (`ai.ask.enabled` with the optional package installed): the search dialog offers it,
   * and its chat panel posts questions to `endpoint`. Absent or null: no Ask AI entry.
   */
  ask?: { endpoint: string } | null;
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
    /** The page actions menu beside the title; absent: none. */
    actions?: ReaderPageActions;
    /**
     * The code is shown without highlighting because a grammar was still loading when the page was
     * rendered (`PageView.highlightPending`). The reader's script asks for the page again a moment
     * later and swaps the highlighted code blocks in, without a reload.
     */
    highlightPending?: boolean;
  };
}

/**
 * The page actions a page offers, as Mintlify and Fumadocs do: copy the page as Markdown, view
 * the Markdown, open a chat assistant on it, connect an editor to the set's MCP endpoint.
 */
export interface ReaderPageActions {
  /** Absolute URL of the page's Markdown twin. */
  markdownUrl: string;
  /** "Copy page": the Markdown twin to the clipboard (needs the script). */
  copy: boolean;
  /** "View as Markdown": a link to the twin. */
  markdown: boolean;
  /** Chat assistants that may open the page; only for pages a guest may read, since they fetch it. */
  assistants: Array<'chatgpt' | 'claude'>;
  /** The set's web MCP endpoint, for "Connect to your editor"; `name` is the server name to install. */
  mcp?: { name: string; url: string };
}

/** The 404 page: the site's chrome, a message, search and a link home. */
/** The navigation page of one group, for a reader without the script (`renderNavPage`). */
export interface ReaderNavPageView extends ReaderSiteView {
  listing: ReaderNavListing;
  /** The same group's listing at the previous and next page of entries, when there are any. */
  previousUrl?: string;
  nextUrl?: string;
}

export interface ReaderNotFoundView extends ReaderSiteView {
  /** The path that was asked for, shown to the reader. */
  requestedPath?: string;
  /** Pages close to the one asked for, best first, offered as "Perhaps you meant". */
  suggestions?: ReaderLink[];
  /** Where the search form sends its query without the script: the server-rendered results page. */
  searchAction?: string;
}

/** One result of the server-rendered search page. */
export interface ReaderSearchHit {
  title: string;
  /** Page URL, with `#section` for a section hit. */
  url: string;
  /** The section's heading; absent for a hit on the page as a whole. */
  heading?: string | null;
  snippet?: string;
}

/** The search results page, rendered on the server: search for readers without the script. */
export interface ReaderSearchPageView extends ReaderSiteView {
  query: string;
  /** Hits, best first (several may come from one page); empty when nothing matched. */
  results: ReaderSearchHit[];
  /** The form's action (this page's URL without the query). */
  searchAction: string;
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
  askAi: string;
  askPlaceholder: string;
  askSend: string;
  askStop: string;
  askNew: string;
  askCopy: string;
  askBack: string;
  askSources: string;
  askWorking: string;
  askDone: string;
  askUnsupported: string;
  askFailed: string;
  askNotice: string;
  /** Titles of the callouts `> [!NOTE]`, `> [!TIP]`, `> [!IMPORTANT]`, `> [!WARNING]`, `> [!CAUTION]`. */
  calloutNote: string;
  calloutTip: string;
  calloutImportant: string;
  calloutWarning: string;
  calloutCaution: string;
  /** Label of the page actions menu button (screen readers). */
  pageActions: string;
  copyPage: string;
  copyPageHint: string;
  viewMarkdown: string;
  viewMarkdownHint: string;
  /** `{assistant}` is replaced by ChatGPT or Claude. */
  openIn: string;
  openInHint: string;
  /** Prompt handed to a chat assistant; `{url}` is replaced by the page's Markdown URL. */
  assistantPrompt: string;
  connectEditor: string;
  /** `{editor}` is replaced by Cursor or VS Code. */
  installIn: string;
  copyMcpCommand: string;
  copyFailed: string;
  notFoundSuggestions: string;
  /** Key hints in the search dialog's footer. */
  searchKeyMove: string;
  searchKeyOpen: string;
  searchKeyClose: string;
  searchResultsTitle: string;
  /** `{query}` is replaced by what the reader searched for. */
  searchResultsFor: string;
  /**
   * The link to the entries a trimmed sidebar leaves out of a list, and to the next page of a
   * navigation listing; `{count}` is replaced by their number.
   */
  navMore: string;
}
