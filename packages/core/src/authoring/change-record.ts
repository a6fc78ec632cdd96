import { isKitError } from '../errors/kit-error.js';
import { type AuthorToolResult, conflicted, rejected } from '../outcomes/outcomes.js';
import type { ChangeRecord, WriteReceipt } from '../ports/content-writer.js';
import type { AuthorCall } from './author-call.js';

/** Longest recorded summary, in characters (code points), as the MCP tools check it. */
const SUMMARY_LIMIT = 500;

/** How a change is recorded: the tool, draft or not, its one-line summary and author. */
export function changeRecord(
  call: AuthorCall,
  tool: ChangeRecord['tool'],
  summary: string | undefined,
  draft: boolean,
): ChangeRecord {
  const line = summary?.replace(/\s+/g, ' ').trim();
  return {
    tool,
    draft,
    // Cut by characters: a cut by UTF-16 units could split an emoji and store half of it.
    ...(line ? { summary: [...line].slice(0, SUMMARY_LIMIT).join('') } : {}),
    ...(call.author ? { author: call.author } : {}),
  };
}

/** Turns a writer's refusal into the outcome an agent acts on; other failures stay errors. */
export async function written(
  write: () => Promise<WriteReceipt>,
  currentHash: () => Promise<string | null>,
): Promise<WriteReceipt | AuthorToolResult> {
  try {
    return await write();
  } catch (error) {
    if (isKitError(error, 'content.conflict')) return conflicted(error.message, await currentHash().catch(() => null));
    if (isKitError(error, 'page.exists') || isKitError(error, 'page.invalid_path')) return rejected(error.message);
    throw error;
  }
}

/** True when a write went through (a receipt), false for the outcome a refusal became. */
export function isReceipt(value: WriteReceipt | AuthorToolResult): value is WriteReceipt {
  return !('message' in value);
}

/** The sentence a drafted change's message ends with: it goes live when a person publishes it. */
export function draftNote(receipt: WriteReceipt): string {
  return receipt.outcome === 'drafted'
    ? ' It is a draft: review is required for changes made outside a pull request, so it goes live when a person publishes it.'
    : '';
}

/** How to change a file again: a published change's hash is the next `based_on`; a draft's is not live. */
export function chainNote(receipt: WriteReceipt): string {
  return receipt.outcome === 'drafted'
    ? ' Until it is published, further changes are made against the live file: omit based_on or pass the hash you read before.'
    : ' Pass revision.content_hash as based_on to change it again.';
}
