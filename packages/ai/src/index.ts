/**
 * Ask AI: readers ask the docs a question and get an answer that cites the pages it read. And the
 * docs agent behind `kit sync`: it updates the pages a code change made stale, through a docs
 * writer that applies the author tools' rules. An optional package: the web server loads it when
 * `ai.ask.enabled` is on, `kit sync` when it runs, and `kit validate` warns when it is missing.
 */
export { type AskEvent, type AskOptions, type AskQuestion, type AskService, createAsk } from './ask.js';
export { type CheckedCitations, type Citation, type CitationScope, checkCitations } from './citations.js';
export { type AskMessage, type AskRefusal, budgetDay, checkConversation, countQuestion } from './limits.js';
export { NO_ANSWER_TEXT, systemPrompt } from './prompt.js';
export {
  type AskEnv,
  DEFAULT_PROVIDER,
  type LoadedModel,
  loadModel,
  PROVIDERS,
  type ProviderChoice,
  providerChain,
  providerProblem,
  redactCredentials,
} from './providers.js';
export { askSetupProblems } from './setup.js';
export {
  pageIds,
  runSyncAgent,
  type SyncAgentOptions,
  type SyncAgentResult,
  type SyncPageOutcome,
  type SyncStop,
} from './sync/agent.js';
export { createFsCodeReader } from './sync/code-reader.js';
export { normalizeProjectPath, type SyncDenyRules, syncDenyRules } from './sync/deny.js';
export { type RedactedDiff, redactDiff } from './sync/diff.js';
export type {
  SyncCodeReader,
  SyncDocsWriter,
  SyncPage,
  SyncPageChange,
  SyncPageText,
  SyncWriteResult,
} from './sync/ports.js';
export { SYNC_SYSTEM_PROMPT, syncTaskMessage } from './sync/prompt.js';
export { SYNC_TOOL_NAMES, syncTools } from './sync/tools.js';
export { ASK_TOOL_NAMES, askTools, type ReadPage, readPageKey } from './tools.js';

/** The command that installs Ask AI with its default provider. */
export const ASK_INSTALL_COMMAND = 'npm install @kit/ai ai @ai-sdk/openai';

/** The command that installs what `kit sync` needs with its default provider (a development dependency). */
export const SYNC_INSTALL_COMMAND = 'npm install --save-dev @kit/ai ai @ai-sdk/openai';
