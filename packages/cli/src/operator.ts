import { userInfo } from 'node:os';
import type { KitEnv, Viewer } from '@kit/core';

/**
 * The local operator as a viewer: whoever runs `kit drafts`, `kit history`, `kit restore` or the
 * agent behind `kit mcp`. Admitted to every set (`local`), and named by the account the process runs
 * as (`USER`, `USERNAME`, else the system's account name): the identity the review rule compares
 * with a draft's author, so an operator named like the web user who wrote a draft cannot publish it.
 *
 * @example
 * localOperator({ USER: 'ada' }); // { user: null, local: true, operator: 'ada' }
 */
export function localOperator(env: KitEnv): Viewer {
  const name = env.USER?.trim() || env.USERNAME?.trim() || accountName();
  return { user: null, local: true, ...(name ? { operator: name } : {}) };
}

function accountName(): string | undefined {
  try {
    return userInfo().username.trim() || undefined;
  } catch {
    // No account name (a container's user without a passwd entry): the operator has no identity.
    return undefined;
  }
}
