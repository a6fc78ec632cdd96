import { KitError } from '@kit/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  commentArgument,
  helpfulArgument,
  localeArgument,
  pathArgument,
  type SetArgument,
  toolArguments,
  versionArgument,
} from '../arguments.js';
import { type McpContext, resolvePageSet } from '../context.js';
import { FEEDBACK_TOOL } from './annotations.js';
import { guarded } from './guarded.js';

/** Registers `submit_feedback`: whether a page helped, and what was wrong or missing. */
export function registerSubmitFeedback(server: McpServer, context: McpContext, set: SetArgument): void {
  server.registerTool(
    'submit_feedback',
    {
      title: 'Send feedback on a page',
      description:
        'Tells the docs team whether a page helped, and what was wrong or missing. Use it when a page is wrong, outdated or lacks what you needed.',
      inputSchema: toolArguments('submit_feedback', {
        path: pathArgument('the path or URL of the page the feedback is about.').describe(
          'Page path or URL the feedback is about.',
        ),
        helpful: helpfulArgument,
        comment: commentArgument,
        version: versionArgument(context.examples),
        locale: localeArgument(context.examples),
        set,
      }),
      annotations: FEEDBACK_TOOL,
    },
    (args) =>
      guarded(context, async () => {
        const docSet = await resolvePageSet(context, args.set, args.path);
        if (!docSet.config.feedback.enabled) {
          throw new KitError(
            'argument.invalid',
            `Feedback is turned off for the set "${docSet.key}" (feedback.enabled is false); nothing was sent.`,
          );
        }
        const comment = args.comment?.trim() || undefined;
        await docSet.submitFeedback(
          { path: args.path, helpful: args.helpful, comment, version: args.version, locale: args.locale },
          context.viewer,
          'agent',
        );
        return {
          content: [
            {
              type: 'text',
              text: `Feedback on "${args.path}" sent to the docs team (${args.helpful ? 'helpful' : 'not helpful'}${comment ? ', with your comment' : ''}). Thank you.`,
            },
          ],
        };
      }),
  );
}
