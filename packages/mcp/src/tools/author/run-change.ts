import type { AuthorToolResult, DocSet, ValidationIssue } from '@kit/core';
import { type AuthorCall, manifestSchemaUrl, userIdentity } from '@kit/core/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type McpContext, resolveSet, type ValidateDocs } from '../../context.js';
import { guarded } from '../guarded.js';

/** Runs one author tool's change on the set a call names, and turns its result into the tool result. */
export type RunChange = (
  requestedSet: string | undefined,
  change: (docSet: DocSet, call: AuthorCall) => Promise<AuthorToolResult>,
) => Promise<CallToolResult>;

/**
 * Who makes a change through this server: the signed-in user's identity (core's `userIdentity`:
 * their id, else e-mail), the one the review rule compares with a reviewer's; else
 * `agent:<client name>`, a label for the history rather than an identity.
 */
export function authorOf(server: McpServer, context: McpContext): string {
  const identity = userIdentity(context.viewer.user);
  if (identity !== null) return identity;
  const client = server.server.getClientVersion()?.name;
  return `agent:${client ?? 'mcp'}`;
}

function resultText(result: AuthorToolResult): string {
  const lines = [`${result.outcome}: ${result.message}`];
  if (result.revision) lines.push(`content_hash: ${result.revision.content_hash}`);
  if (result.docs_migration) lines.push(`docs migration: ${result.docs_migration.file}`);
  for (const issue of result.validation?.issues ?? []) {
    const at = [issue.file, issue.line].filter((part) => part !== undefined).join(':');
    lines.push(
      `- ${issue.severity} ${issue.rule}${at ? ` (${at})` : ''}: ${issue.message}${issue.fix ? ` Fix: ${issue.fix}` : ''}`,
    );
  }
  return lines.join('\n');
}

/**
 * The `RunChange` of one server: each call is made as the caller of that moment (the web endpoint
 * reuses a server across callers), checked after writing with the offer's `validate` when given.
 */
export function changeRunner(
  server: McpServer,
  context: McpContext,
  offer: { validate?: ValidateDocs | undefined },
): RunChange {
  const { scope } = context;
  return (requestedSet, change) =>
    guarded(context, async () => {
      const docSet = await resolveSet(context, requestedSet);
      const validate = offer.validate;
      const call: AuthorCall = {
        viewer: context.viewer,
        channel: scope.kind === 'local' ? 'local' : 'web',
        author: authorOf(server, context),
        ...(context.schemaOrigin ? { manifestSchemaUrl: manifestSchemaUrl(context.schemaOrigin) } : {}),
        ...(validate
          ? { validate: async (input) => (await validate(input)) as unknown as { issues: readonly ValidationIssue[] } }
          : {}),
      };
      const result = await change(docSet, call);
      return {
        content: [{ type: 'text', text: resultText(result) }],
        structuredContent: result as unknown as Record<string, unknown>,
      };
    });
}
