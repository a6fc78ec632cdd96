import { localeDirection } from '@kit/core/internal';
import { escapeHtml } from './html.js';
import type { ReaderStrings } from './types.js';

/** The language of {@link DEFAULT_READER_STRINGS}. */
export const DEFAULT_READER_STRINGS_LANG = 'en';

/** English interface strings; a site passes `strings` in its view to translate any of them. */
export const DEFAULT_READER_STRINGS: ReaderStrings = {
  skipToContent: 'Skip to content',
  search: 'Search',
  searchPlaceholder: 'Search the docs…',
  searchNoResults: 'No results for this search.',
  searchUnavailable: 'Search is not available right now.',
  searchLoading: 'Searching…',
  close: 'Close',
  menu: 'Menu',
  navigation: 'Documentation',
  onThisPage: 'On this page',
  colorMode: 'Color mode',
  colorModeSystem: 'System',
  colorModeLight: 'Light',
  colorModeDark: 'Dark',
  version: 'Version',
  language: 'Language',
  deprecated: 'Deprecated',
  archived: 'Archived',
  maintained: 'Maintained',
  repository: 'Source repository',
  editPage: 'Edit this page',
  lastUpdated: 'Last updated',
  by: 'by',
  previous: 'Previous',
  next: 'Next',
  helpfulQuestion: 'Was this page helpful?',
  yes: 'Yes',
  no: 'No',
  commentLabel: 'What was missing or wrong? (optional)',
  send: 'Send feedback',
  thanks: 'Thanks for your feedback!',
  feedbackFailed: 'Your feedback could not be sent. Please try again.',
  copy: 'Copy code',
  copied: 'Copied',
  notFoundTitle: 'Page not found',
  notFoundText: 'The page you asked for does not exist in this version, or it has moved.',
  backHome: 'Go to the home page',
  newPage: 'Recently updated',
  oldVersionNotice: 'You are reading the documentation of {version}, which is {status}.',
  latestVersion: 'Go to the current version',
  credit: 'Built with',
  headingAnchor: 'Link to “{heading}”',
  askAi: 'Ask AI',
  askPlaceholder: 'Ask a question about these docs…',
  askSend: 'Ask',
  askStop: 'Stop',
  askNew: 'New conversation',
  askCopy: 'Copy answer',
  askBack: 'Back to search',
  askSources: 'Sources',
  askWorking: 'Reading the docs…',
  askDone: 'Answer complete.',
  askUnsupported: 'This answer cites no page of the docs; check the docs before relying on it.',
  askFailed: 'Ask AI could not answer. Please try again.',
  askNotice: 'Answers are written by an AI from these docs and can be wrong. Follow the sources to check.',
  pageActions: 'Page actions',
  copyPage: 'Copy page',
  copyPageHint: 'Copy this page as Markdown for an AI assistant',
  viewMarkdown: 'View as Markdown',
  viewMarkdownHint: 'This page as plain Markdown text',
  openIn: 'Open in {assistant}',
  openInHint: 'Ask questions about this page',
  assistantPrompt: 'Read {url} so I can ask questions about it.',
  connectEditor: 'Connect to your editor',
  installIn: 'Install in {editor}',
  copyMcpCommand: 'Copy the Claude Code command',
  copyFailed: 'Could not copy. Select the text and copy it instead.',
  notFoundSuggestions: 'Perhaps you were looking for',
  searchKeyMove: 'to move',
  searchKeyOpen: 'to open',
  searchKeyClose: 'to close',
  searchResultsTitle: 'Search',
  searchResultsFor: 'Results for “{query}”',
  navMore: 'Show {count} more',
  calloutNote: 'Note',
  calloutTip: 'Tip',
  calloutImportant: 'Important',
  calloutWarning: 'Warning',
  calloutCaution: 'Caution',
};

/**
 * HTML in `lang` on a page in another language: inside a `<span lang dir>`, whose `dir` isolates
 * it (unicode-bidi: isolate), so on a right-to-left page an English "Was this page helpful?"
 * keeps its question mark at its end.
 */
export function inLanguage(lang: string, html: string): string {
  return `<span lang="${escapeHtml(lang)}" dir="${localeDirection(lang)}">${html}</span>`;
}
