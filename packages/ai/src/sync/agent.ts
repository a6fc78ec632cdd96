import { isStepCount, streamText, wrapLanguageModel } from 'ai';
import type { LoadedModel } from '../providers.js';

/** The provider model interface the AI SDK's middleware wraps (specification v4 since AI SDK 7). */
type LanguageModelV4 = Parameters<typeof wrapLanguageModel>[0]['model'];
import type { RedactedDiff } from './diff.js';
import type { SyncCodeReader, SyncDocsWriter, SyncPage, SyncWriteResult } from './ports.js';
import { type PromptPage, SYNC_SYSTEM_PROMPT, syncTaskMessage } from './prompt.js';
import { changedPage, syncTools } from './tools.js';

/** Why a run stopped before the model said it was done. */
export interface SyncStop {
  /** `max_steps`: `ai.sync.max_steps` was used up; `timeout`: a provider request took longer than `ai.sync.timeout`; `provider_failed`: the provider answered an error; `aborted`: the run was cancelled. */
  reason: 'max_steps' | 'timeout' | 'provider_failed' | 'aborted';
  message: string;
}

/** What happened to one page of a run. */
export type SyncPageOutcome =
  | { page: SyncPage; status: 'changed'; result: SyncWriteResult }
  | {
      page: SyncPage;
      status: 'stale';
      /** `conflicted`/`rejected`/`unchanged`: the last write's outcome; `not_changed`: the agent left it; else why the run stopped. */
      reason: 'conflicted' | 'rejected' | 'unchanged' | 'not_changed' | 'unreadable' | SyncStop['reason'];
      message: string;
    };

/** Options of {@link runSyncAgent}. */
export interface SyncAgentOptions {
  model: LoadedModel;
  /** The stale pages this run may change (already cut to `ai.sync.max_pages`). */
  pages: SyncPage[];
  /** Files the change touched, relative to the project root (denied ones are named, never shown). */
  changed: string[];
  /** The change's diff, denied files withheld. */
  diff: RedactedDiff;
  docs: SyncDocsWriter;
  code: SyncCodeReader;
  /** Most steps (model calls) the run may take: `ai.sync.max_steps`. */
  maxSteps: number;
  /** Longest one provider request may take, in milliseconds: `ai.sync.timeout`. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What {@link runSyncAgent} returns. */
export interface SyncAgentResult {
  provider: string;
  model: string;
  steps: number;
  /** Null when the model finished by itself. */
  stopped: SyncStop | null;
  pages: SyncPageOutcome[];
  /** The model's closing summary (empty when the run stopped early). */
  summary: string;
}

/** Most tokens one model call may write: a whole page body fits. */
const MAX_OUTPUT_TOKENS = 16_000;

/** Thrown into a provider request that outlived the timeout. */
class ProviderTimeout extends Error {
  override name = 'ProviderTimeout';
}

/**
 * The docs agent: gives the model the diff, the stale pages and read access to the code, and lets
 * it change the pages only through the docs writer (the author tools' `write_page`, with
 * `based_on`). Stops at `maxSteps`, at a provider request slower than `timeoutMs`, at a provider
 * error or when `signal` aborts, and says per page what happened: changed (with the write's
 * revision and validation) or left stale, and why.
 *
 * @example
 * const result = await runSyncAgent({ model, pages, changed, diff, docs, code, maxSteps: 30, timeoutMs: 120_000 });
 * result.pages.filter((entry) => entry.status === 'stale');
 */
export async function runSyncAgent(options: SyncAgentOptions): Promise<SyncAgentResult> {
  const ids = pageIds(options.pages);
  const pages = new Map<string, SyncPage>();
  const prompt: PromptPage[] = [];
  const unreadable = new Set<string>();
  for (const [index, page] of options.pages.entries()) {
    const id = ids[index]!;
    const read = await options.docs.read(page);
    if (!read) unreadable.add(id);
    else pages.set(id, page);
    prompt.push({ id, page, read });
  }
  const writes = new Map<string, SyncWriteResult>();
  let steps = 0;
  let stopped: SyncStop | null = null;
  let summary = '';
  let wantedMore = false;

  if (pages.size > 0) {
    const model = withRequestTimeout(options.model.model as LanguageModelV4, options.timeoutMs);
    let failure: unknown;
    try {
      // Streamed, as every provider serves it; the loop ends when the model answers without tools.
      const result = streamText({
        model,
        instructions: SYNC_SYSTEM_PROMPT,
        messages: [
          { role: 'user', content: syncTaskMessage({ changed: options.changed, diff: options.diff, pages: prompt }) },
        ],
        tools: syncTools({ pages, docs: options.docs, code: options.code, writes }),
        stopWhen: isStepCount(options.maxSteps),
        maxRetries: 0,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        ...(options.signal ? { abortSignal: options.signal } : {}),
        onError: () => undefined,
      });
      let stepText = '';
      for await (const part of result.fullStream) {
        if (part.type === 'start-step') stepText = '';
        else if (part.type === 'text-delta') stepText += part.text;
        else if (part.type === 'finish-step') {
          steps += 1;
          wantedMore = part.finishReason === 'tool-calls';
          summary = stepText.trim();
        } else if (part.type === 'error') {
          failure = part.error;
          break;
        } else if (part.type === 'abort') {
          failure = options.signal?.reason ?? new Error('aborted');
          break;
        }
      }
      if (failure !== undefined) throw failure;
      if (wantedMore && steps >= options.maxSteps) {
        stopped = {
          reason: 'max_steps',
          message: `The run used all ${options.maxSteps} steps (ai.sync.max_steps, --max-steps) before the agent finished.`,
        };
      }
    } catch (error) {
      stopped = stopOf(error, options);
    }
  }

  const outcomes: SyncPageOutcome[] = options.pages.map((page, index) => {
    const id = ids[index]!;
    if (unreadable.has(id)) {
      return { page, status: 'stale', reason: 'unreadable', message: 'The page could not be read; it was left alone.' };
    }
    const written = writes.get(id);
    if (written && changedPage(written)) return { page, status: 'changed', result: written };
    if (
      written &&
      (written.outcome === 'conflicted' || written.outcome === 'rejected' || written.outcome === 'unchanged')
    ) {
      return { page, status: 'stale', reason: written.outcome, message: written.message };
    }
    if (stopped) return { page, status: 'stale', reason: stopped.reason, message: stopped.message };
    return {
      page,
      status: 'stale',
      reason: 'not_changed',
      message: 'The agent finished without changing this page (see its summary for why).',
    };
  });
  return { provider: options.model.provider, model: options.model.modelId, steps, stopped, pages: outcomes, summary };
}

/**
 * The ids the model names pages by: the page path, prefixed with set, version and locale only
 * where the run holds pages that differ in them.
 */
export function pageIds(pages: readonly SyncPage[]): string[] {
  const differs = (key: 'set' | 'version' | 'locale') => new Set(pages.map((page) => page[key])).size > 1;
  const parts = (['set', 'version', 'locale'] as const).filter(differs);
  return pages.map((page) => [...parts.map((key) => page[key]), page.path].join(':'));
}

/** The model with every provider request bounded by `timeoutMs` (tool calls in between are not counted). */
function withRequestTimeout(model: LanguageModelV4, timeoutMs: number): LanguageModelV4 {
  const bounded = (signal: AbortSignal | undefined) => {
    const timer = AbortSignal.timeout(timeoutMs);
    const timeout = new AbortController();
    timer.addEventListener(
      'abort',
      () => timeout.abort(new ProviderTimeout(`no answer within ${timeoutMs / 1000} s`)),
      {
        once: true,
      },
    );
    return signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  };
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v4',
      transformParams: async ({ params }) => ({ ...params, abortSignal: bounded(params.abortSignal) }),
    },
  });
}

function stopOf(error: unknown, options: SyncAgentOptions): SyncStop {
  if (options.signal?.aborted) return { reason: 'aborted', message: 'The run was cancelled.' };
  if (hasCause(error, ProviderTimeout)) {
    return {
      reason: 'timeout',
      message: `A provider request took longer than ${options.timeoutMs / 1000} second${options.timeoutMs === 1000 ? '' : 's'} (ai.sync.timeout); the run stopped.`,
    };
  }
  const { statusCode, message } = (error ?? {}) as { statusCode?: number; message?: string };
  const first = (message ?? String(error)).split('\n')[0]!.slice(0, 300);
  return {
    reason: 'provider_failed',
    message: `The AI provider failed${statusCode ? ` (HTTP ${statusCode})` : ''}: ${first}. The run stopped.`,
  };
}

function hasCause(error: unknown, kind: new (...args: never[]) => Error): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (current instanceof kind) return true;
    const next = (current as { cause?: unknown; reason?: unknown }).cause ?? (current as { reason?: unknown }).reason;
    if (next === current) break;
    current = next;
  }
  return /no answer within/.test(String((error as Error | undefined)?.message ?? ''));
}
