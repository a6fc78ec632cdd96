import type { DocSet } from '@kit/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type McpContext, resolveSet } from './context.js';
import { requestError } from './errors.js';

/** Where a new page goes: the file in the working tree for a repository set served locally, else the tool to call. */
async function whereToWrite(context: McpContext, docSet: DocSet, path: string | undefined): Promise<string> {
  const page = path ?? '<path>';
  if (context.scope.kind === 'local' && docSet.config.source.driver === 'repository') {
    const manifest = await docSet.manifest();
    const version = manifest.versions.find((v) => v.default) ?? manifest.versions[0];
    const folder =
      manifest.versioned && version ? `${docSet.config.source.path}/${version.id}` : docSet.config.source.path;
    return `the file \`${folder}/${page}.md\` (other languages go in a subfolder named by the locale code), or call write_page where this server offers it`;
  }
  return `call write_page (\`path\`: "${page}") where this server offers it; otherwise give the author the finished Markdown file \`${page}.md\``;
}

/** Runs a prompt's body and turns its failures into JSON-RPC errors that lead with Kit's stable code. */
async function answerPrompt(context: McpContext, build: () => Promise<GetPromptResult>): Promise<GetPromptResult> {
  try {
    return await build();
  } catch (error) {
    throw requestError(error, context.scope.kind === 'local', 'The docs server failed to build the prompt');
  }
}

/** A required prompt argument's message when it is missing; any other issue keeps zod's own message. */
function missingPromptArgument(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? message : undefined);
}

function setClause(docSet: DocSet, context: McpContext): string {
  return context.scope.kind === 'local' ? ` (pass \`set: "${docSet.key}"\` to every tool)` : '';
}

/** Registers `write-docs-page` and `document-change`. */
export function registerPrompts(server: McpServer, context: McpContext): void {
  server.registerPrompt(
    'write-docs-page',
    {
      title: 'Write a docs page',
      description: 'Steps to write a new page: check what exists, write from the code, add it to navigation, validate.',
      argsSchema: {
        topic: z
          .string({
            error: missingPromptArgument('Send `topic`: what the page documents, e.g. "retrying failed jobs".'),
          })
          .describe('What the page documents, e.g. "retrying failed jobs".'),
        path: z.string().optional().describe('Page path to create, without .md, e.g. "queues/retries".'),
        set: z.string().optional().describe('Set key. Default: the default set.'),
      },
    },
    ({ topic, path, set }) =>
      answerPrompt(context, async () => {
        const docSet = await resolveSet(context, set);
        const name = (await docSet.manifest()).name;
        const target = await whereToWrite(context, docSet, path);
        const text = [
          `Write a new page about "${topic}" for the ${name} docs (set "${docSet.key}")${setClause(docSet, context)}.`,
          '',
          '1. Check what exists. Call search_docs with the topic and its key terms, and list_pages to see the groups. If a page already covers the topic, improve that page (read_page it, keep its content_hash for based_on) instead of writing a second one.',
          '2. Read the neighbours. read_page two or three pages of the group the topic belongs to, to match their structure, tone and heading style, and to find pages to link to.',
          '3. Read the code. Find the source files, configuration and tests that implement the topic and write from them, not from memory: every option, default, command and example must be true of the code as it is now. List those files in the frontmatter `sources:` so the page is flagged when they change.',
          `4. Write the page${path ? ` at the path "${path}"` : ' at a short, lowercase, hyphenated path next to related pages (no .md in the path; "index" is a landing page)'}: ${target}. Start with YAML frontmatter holding \`title\` and a one-sentence \`description\`; then say what the feature is for, show a working example, then cover options and edge cases. Link related pages by their paths. Never put secrets or environment values in the page.`,
          '5. Add it to the navigation: put the page in the group where readers will look for it (navigation.json of the version, or update_navigation where offered). A page missing from the navigation is hard to find.',
          '6. Validate. Call validate_docs (or run `kit validate`) and fix every error it reports, such as broken links, unknown anchors or frontmatter problems; each issue has a rule id and often a fix.',
          '7. Report back with the page URL and the source files you documented.',
        ].join('\n');
        return {
          description: `Write a page about ${topic}`,
          messages: [{ role: 'user', content: { type: 'text', text } }],
        };
      }),
  );

  server.registerPrompt(
    'document-change',
    {
      title: 'Document a code change',
      description: 'Steps to update the docs a code change made stale, in the same change as the code.',
      argsSchema: {
        change: z
          .string({
            error: missingPromptArgument('Send `change`: a summary, a diff or a commit range such as "main..HEAD".'),
          })
          .describe('The change: a summary, a diff or a commit range such as "main..HEAD".'),
        set: z.string().optional().describe('Set key. Default: the default set.'),
      },
    },
    ({ change, set }) =>
      answerPrompt(context, async () => {
        const docSet = await resolveSet(context, set);
        const name = (await docSet.manifest()).name;
        const text = [
          `Update the ${name} docs (set "${docSet.key}") for this code change${setClause(docSet, context)}:`,
          '',
          change.trim(),
          '',
          '1. Understand the change. If it is a commit range, read it with `git log` and `git diff`. List the files changed and every behaviour a user can notice: new or removed options, defaults, commands, routes, events, error messages.',
          '2. Find the stale pages. Call affected_pages (or run `kit affected`) where available: it lists pages whose `sources:` match the changed files. Then call search_docs for each changed name (function, option, command, config key) to catch pages that mention it without listing the file.',
          '3. Read before you write. read_page every page you will touch and keep its content_hash; pass it as based_on when you write, so a page someone else changed meanwhile is not overwritten.',
          '4. Update only what the change makes wrong or missing, in the style of the page. A new feature gets a section, or a new page (follow the write-docs-page steps). Add changed source files to `sources:`.',
          '5. Keep links whole. For a renamed or removed page, update the links to it and the navigation, and add a redirect in kit.json so old URLs keep working.',
          '6. Validate. Call validate_docs (or run `kit validate`) and fix every error.',
          '7. Ship the docs in the same change as the code (same commit or pull request), and list the pages you updated with their URLs.',
        ].join('\n');
        return {
          description: 'Update the docs for a code change',
          messages: [{ role: 'user', content: { type: 'text', text } }],
        };
      }),
  );
}
