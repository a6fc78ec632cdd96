import { withContentHashLine } from '../../docset/docset.js';
import type { SourcePage } from '../../model/types.js';
import type { RenderedPage } from '../../ports/renderer.js';
import type { IssuePlace } from '../report.js';
import type { ValidationRun } from '../run.js';

/** `markdown.size`: a page whose agent Markdown is over `agents.markdown_budget`. */
export function checkMarkdownSize(run: ValidationRun, page: SourcePage, rendered: RenderedPage, at: IssuePlace): void {
  const budget = run.docSet.config.agents.markdown_budget;
  const agentMarkdown = withContentHashLine(rendered.markdown, page.contentHash);
  if (!(agentMarkdown.length > budget)) return;
  run.add(
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
