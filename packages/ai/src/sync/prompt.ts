import type { RedactedDiff } from './diff.js';
import type { SyncPage, SyncPageText } from './ports.js';

/** The docs agent's instructions: what it may change, how, and what it must never do. */
export const SYNC_SYSTEM_PROMPT = `You are the docs agent of Kit, a documentation engine. A code change made the documentation pages listed below stale: their frontmatter sources: name files the change touched. Bring each page in line with the code as it is after the change.

Rules:
- Change only what the code change makes wrong or incomplete. Keep each page's structure, voice, headings and links; do not rewrite what is still true.
- Read code with read_file and list_files when the diff is not enough. Some files are withheld (secrets, configuration, vendored code); never guess their content.
- Change a page only with write_page: pass the page id, the whole new Markdown body (without the frontmatter block), and based_on set to the content_hash you were given. Omit frontmatter to keep the page's own.
- Never put secrets, keys, tokens, passwords or environment values in a page; use placeholders such as <API_KEY>.
- If write_page answers conflicted, a person edited the page while you worked: leave that page alone.
- If write_page answers rejected, fix what the message names and write again.
- If a page needs no change, leave it and say why.
- When every page is done, answer with a short summary: one line per page saying what changed or why it did not.`;

/** One page as the first message shows it. */
export interface PromptPage {
  id: string;
  page: SyncPage;
  read: SyncPageText | null;
}

/**
 * The first message of a run: the changed files, the diff (denied files withheld) and each stale
 * page with its id, the sources that matched, its content hash and its text.
 */
export function syncTaskMessage(input: { changed: string[]; diff: RedactedDiff; pages: PromptPage[] }): string {
  const parts: string[] = [];
  parts.push(`## Changed files (${input.changed.length})\n\n${input.changed.map((file) => `- ${file}`).join('\n')}`);
  if (input.diff.withheld.length > 0) {
    parts.push(
      `Withheld from the diff and from read_file (deny list): ${input.diff.withheld.join(', ')}. Do not describe their content.`,
    );
  }
  parts.push(`## The diff\n\n\`\`\`diff\n${input.diff.text}\n\`\`\``);
  parts.push(`## Stale pages (${input.pages.length})`);
  for (const { id, page, read } of input.pages) {
    const head = [
      `### Page ${id}`,
      `title: ${page.title}`,
      ...(page.file ? [`file: ${page.file}`] : []),
      `sources changed: ${page.matched.join(', ')}`,
    ];
    if (!read) {
      parts.push(`${head.join('\n')}\n\n(The page could not be read; leave it.)`);
      continue;
    }
    parts.push(`${head.join('\n')}\ncontent_hash: ${read.contentHash}\n\n\`\`\`\`markdown\n${read.text}\n\`\`\`\``);
  }
  return parts.join('\n\n');
}
