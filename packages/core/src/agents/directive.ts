/**
 * The llms.txt directive: one line near the top of every page, in its HTML and in its Markdown twin,
 * that tells an agent which arrived at a single page where the index of the whole set is and that
 * every page has a Markdown twin. It follows the Agent-Friendly Documentation Spec
 * (`llms-txt-directive-html`, `llms-txt-directive-md`), a draft of an evolving convention.
 */

/**
 * The directive's words around the link, shared by the HTML (`@kit/render`'s reader layout) and the
 * Markdown twin, so both say the same.
 */
export const LLMS_TXT_DIRECTIVE = {
  before: 'For AI agents: the index of these docs is at ',
  after: '; every page is also served as Markdown at its URL with .md added.',
} as const;

/**
 * The directive as a Markdown blockquote linking `url` (absolute for the Markdown twin, so the link
 * works wherever the text is read).
 *
 * @example
 * llmsTxtDirectiveMarkdown('https://example.com/docs/llms.txt');
 * // '> For AI agents: the index of these docs is at [llms.txt](https://example.com/docs/llms.txt); every page …'
 */
export function llmsTxtDirectiveMarkdown(url: string): string {
  return `> ${LLMS_TXT_DIRECTIVE.before}[llms.txt](${url})${LLMS_TXT_DIRECTIVE.after}`;
}

/**
 * A page's agent Markdown with the directive under its title: after a leading `# Title` line, else
 * first. Text before the title (front matter is never part of agent Markdown) stays where it is.
 *
 * @example
 * withLlmsTxtDirective('# Queues\n\nJobs run…\n', 'https://example.com/docs/llms.txt');
 * // '# Queues\n\n> For AI agents: …\n\nJobs run…\n'
 */
export function withLlmsTxtDirective(markdown: string, url: string): string {
  const directive = llmsTxtDirectiveMarkdown(url);
  const title = /^# [^\n]*\n/.exec(markdown);
  if (!title) return `${directive}\n\n${markdown}`;
  const rest = markdown.slice(title[0].length).replace(/^\n+/, '');
  return `${title[0]}\n${directive}\n\n${rest}`;
}
