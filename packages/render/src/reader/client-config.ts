import type { ReaderStrings } from './types.js';

/**
 * The settings the server hands the browser script, as JSON in
 * `<script type="application/json" id="kit-reader-config">`. Shared by the layout (writer) and the
 * client bundle (reader) so both sides agree on one shape.
 */
export interface ReaderClientConfig {
  set: string;
  version: string;
  locale: string;
  /** Path of the current page, or null on the 404 page. */
  path: string | null;
  /** ISO date of the current page's last change, recorded as "seen" when the page opens. */
  updatedAt: string | null;
  freshDays: number;
  /** Theme default before the reader chooses. */
  mode: 'system' | 'light' | 'dark';
  search: {
    driver: string;
    clientIndexUrl: string | null;
    serverSearchUrl: string | null;
  } | null;
  feedbackEndpoint: string | null;
  /** Ask AI: where questions go and the chat panel's strings (in `lang`/`dir`), or null when off. */
  ask?: {
    endpoint: string;
    strings: AskStrings;
    /** Set when the strings are in another language than the page. */
    language?: UiLanguage;
  } | null;
  strings: {
    searchNoResults: string;
    searchUnavailable: string;
    searchLoading: string;
    copy: string;
    copied: string;
    copyFailed: string;
    thanks: string;
    feedbackFailed: string;
    colorModeSystem: string;
    colorModeLight: string;
    colorModeDark: string;
  };
  /**
   * Language and direction of each of `strings` that is not in the page's language; the script
   * writes those inside an element carrying them, isolated from the page's direction.
   */
  stringLanguages?: Partial<Record<keyof ReaderClientConfig['strings'], UiLanguage>>;
}

/** The chat panel's interface strings: the reader's own, by the same names. */
export type AskStrings = Pick<
  ReaderStrings,
  | 'askAi'
  | 'askPlaceholder'
  | 'askSend'
  | 'askStop'
  | 'askNew'
  | 'askCopy'
  | 'askBack'
  | 'askSources'
  | 'askWorking'
  | 'askDone'
  | 'askUnsupported'
  | 'askFailed'
  | 'askNotice'
  | 'copied'
>;

/** The language of an interface string and its writing direction. */
export interface UiLanguage {
  lang: string;
  dir: 'ltr' | 'rtl';
}

/** localStorage key of the reader's color mode choice (`light`, `dark` or `system`). */
export const COLOR_MODE_STORAGE_KEY = 'kit:color-mode';

/** localStorage key prefix of the pages a reader has opened, per set: `kit:seen:<set>`. */
export const SEEN_STORAGE_PREFIX = 'kit:seen:';

/** Element id of the JSON config block. */
export const CLIENT_CONFIG_ID = 'kit-reader-config';
