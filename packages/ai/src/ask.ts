import {
  canAsk,
  createMemoryRateLimitStore,
  type DocSet,
  isKitError,
  type Kit,
  type RateLimitStore,
  type Viewer,
} from '@kit/core';
import { isStepCount, type ModelMessage, streamText } from 'ai';
import { type CheckedCitations, checkCitations } from './citations.js';
import { type AskMessage, type AskRefusal, type BudgetPlace, checkConversation, countQuestion } from './limits.js';
import { systemPrompt } from './prompt.js';
import {
  type AskEnv,
  type LoadedModel,
  loadModel,
  type ProviderChoice,
  providerChain,
  providerProblem,
  redactCredentials,
} from './providers.js';
import { askTools, type ReadPage } from './tools.js';

/** What a reader receives while an answer is written, in order. */
export type AskEvent =
  /** Part of the answer's text. */
  | { type: 'text'; delta: string }
  /** The assistant searches or reads (shown as progress). */
  | { type: 'tool'; name: string; input: Record<string, unknown> }
  /** One step of the answer loop finished (a model call and the tools it asked for). */
  | { type: 'step'; index: number }
  /**
   * The answer is complete. `supported` is false when it cites no page the assistant read: the
   * reader is told the docs may not hold the answer.
   */
  | ({ type: 'done'; supported: boolean; steps: number } & CheckedCitations)
  /** No answer (every provider failed, or the one answering failed midway). */
  | { type: 'error'; code: string; message: string };

/** A question as a web door hands it over. */
export interface AskQuestion {
  /** Key of the set asked. */
  set: string;
  viewer: Viewer;
  /** Who counts against the rate limit: `user:<id>` when signed in, else `ip:<address>`. */
  caller: string;
  /** The request body: `{ messages, version?, locale? }`. */
  body: unknown;
  /** Stops the answer (the reader pressed stop or went away). */
  signal?: AbortSignal;
  /** The site's origin, so absolute links to it count as citations. */
  origin?: string;
}

/** Options of {@link createAsk}. */
export interface AskOptions {
  kit: Kit;
  /** Where rate-limit and daily-budget counts live; share one (Redis) across server processes. Default: this process's memory. */
  store?: RateLimitStore;
  /** Credentials and endpoints of the providers. Default `process.env`. */
  env?: AskEnv;
  /** Clock in epoch milliseconds (the daily budget's day). Default `Date.now`. */
  now?: () => number;
  /**
   * Longest wait for a provider to send anything, in milliseconds, before the next provider of the
   * failover order is tried (or, once the answer has begun, the answer ends with an error). Default 30000.
   */
  providerTimeoutMs?: number;
  /** Where provider failures are reported, credentials removed. Default `console.warn`. */
  log?: (message: string) => void;
  /** Models to use instead of the configured providers (an application's own, or tests). */
  models?: (set: DocSet) => LoadedModel[];
}

/** Ask AI for a kit: checks and counts a question, then streams an answer that cites its pages. */
export interface AskService {
  /**
   * Checks the question (enabled, `askKit`, lengths) and counts it against the rate limit before
   * any provider is called, holding a place in the daily budget that is given back when no answer
   * comes. A refusal says why; otherwise the answer's events follow.
   */
  ask(question: AskQuestion): Promise<AskRefusal | { ok: true; events: AsyncIterable<AskEvent> }>;
}

const DEFAULT_PROVIDER_TIMEOUT_MS = 30_000;
/** Most tokens one model call may write. */
const MAX_OUTPUT_TOKENS = 2048;

/**
 * Creates the Ask AI service of a kit. Each answer gives the model the read tools agents use over
 * MCP (search, read a page or section, list pages) with the asking reader as viewer, for at most
 * `ai.ask.max_steps` steps; providers are tried in the configured failover order.
 *
 * @example
 * const asker = createAsk({ kit, store: redisStore });
 * const result = await asker.ask({ set: 'docs', viewer, caller: 'ip:203.0.113.9', body });
 * if (!result.ok) return c.json({ error: result.code, message: result.message }, result.status);
 * for await (const event of result.events) send(event);
 */
export function createAsk(options: AskOptions): AskService {
  const { kit } = options;
  const store = options.store ?? createMemoryRateLimitStore();
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const timeoutMs = options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const log = (message: string) => (options.log ?? console.warn)(redactCredentials(message, env));

  return {
    async ask(question) {
      const set = kit.set(question.set);
      const settings = set.config.ai.ask;
      if (!settings.enabled) {
        return {
          ok: false,
          status: 404,
          code: 'ask.disabled',
          message: `Ask AI is off for the "${set.key}" docs (ai.ask.enabled is false).`,
        };
      }
      const body = (question.body ?? {}) as { messages?: unknown; version?: unknown; locale?: unknown };
      for (const key of ['version', 'locale'] as const) {
        const value = body[key];
        if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 64)) {
          return { ok: false, status: 400, code: 'ask.invalid', message: `${key} must be a ${key} id such as "3.x".` };
        }
      }
      const version = typeof body.version === 'string' && body.version ? body.version : undefined;
      const locale = typeof body.locale === 'string' && body.locale ? body.locale : undefined;
      const allowed = await canAsk(question.viewer.user, kit.config.gates, {
        set: set.key,
        ...(version ? { version } : {}),
        ...(locale ? { locale } : {}),
      });
      if (!allowed) {
        return {
          ok: false,
          status: 403,
          code: 'ask.forbidden',
          message: 'Your account may not use Ask AI on these docs.',
        };
      }
      const conversation = checkConversation(body.messages, settings);
      if (!conversation.ok) return conversation;

      let chain: Array<LoadedModel | ProviderChoice>;
      if (options.models) chain = options.models(set);
      else {
        let configured: ProviderChoice[];
        try {
          configured = providerChain(settings);
        } catch (error) {
          log(`[kit] Ask AI on "${set.key}": ${(error as Error).message}`);
          return unavailable(set);
        }
        chain = configured.filter((choice) => {
          const problem = providerProblem(choice, env);
          if (problem) log(`[kit] Ask AI on "${set.key}" skips ${problem}`);
          return !problem;
        });
      }
      if (chain.length === 0) return unavailable(set);

      const counted = await countQuestion({
        store,
        set: set.key,
        caller: question.caller,
        ask: settings,
        now: now(),
      });
      if (!counted.ok) return counted;

      return {
        ok: true,
        events: answer({
          set,
          viewer: question.viewer,
          messages: conversation.messages,
          version,
          locale,
          chain,
          env,
          timeoutMs,
          log,
          budget: counted,
          ...(question.signal ? { signal: question.signal } : {}),
          ...(question.origin ? { origin: question.origin } : {}),
        }),
      };
    },
  };
}

function unavailable(set: DocSet): AskRefusal {
  return {
    ok: false,
    status: 503,
    code: 'ask.unavailable',
    message: `Ask AI is not set up on this server for the "${set.key}" docs. The server's log says what is missing.`,
  };
}

interface AnswerInput {
  set: DocSet;
  viewer: Viewer;
  messages: AskMessage[];
  version: string | undefined;
  locale: string | undefined;
  chain: Array<LoadedModel | ProviderChoice>;
  env: AskEnv;
  timeoutMs: number;
  log: (message: string) => void;
  /** The question's place in the daily budget, given back when it gets no answer. */
  budget: BudgetPlace;
  signal?: AbortSignal;
  origin?: string;
}

/** Thrown inside an attempt when the provider stays silent past the timeout. */
class ProviderTimeout extends Error {}

/**
 * The answer loop (see {@link attemptAnswers}); a question whose answer never began, because every
 * provider failed or the reader left first, gives its place in the daily budget back.
 */
async function* answer(input: AnswerInput): AsyncGenerator<AskEvent> {
  const progress = { answered: false };
  try {
    yield* attemptAnswers(input, progress);
  } finally {
    if (!progress.answered)
      await input.budget
        .giveBack()
        .catch((error: unknown) =>
          input.log(
            `[kit] Ask AI on "${input.set.key}" could not give a daily-budget place back: ${describeFailure(error)}`,
          ),
        );
  }
}

/**
 * Tries each provider in order until one starts answering, then streams its text, tool use and
 * steps, and ends with the citations checked against the pages read. `progress.answered` turns
 * true once the reply begins to reach the reader: from then on the question counts as answered.
 */
async function* attemptAnswers(input: AnswerInput, progress: { answered: boolean }): AsyncGenerator<AskEvent> {
  const { set, viewer } = input;
  const settings = set.config.ai.ask;
  const manifest = await set.manifest();
  const system = systemPrompt({ name: manifest.name, version: input.version, locale: input.locale });
  const messages: ModelMessage[] = input.messages.map((message) => ({ role: message.role, content: message.content }));

  // A connection cut before the provider answered anything (a kept-alive socket closed under the
  // request) is tried once more on the same provider before the next one.
  const attempts: Array<{ entry: LoadedModel | ProviderChoice; retry: boolean }> = input.chain.map((entry) => ({
    entry,
    retry: true,
  }));
  for (let index = 0; index < attempts.length; index++) {
    const { entry } = attempts[index]!;
    const last = index === attempts.length - 1;
    let loaded: LoadedModel;
    try {
      loaded = 'modelId' in entry ? entry : await loadModel(entry, input.env);
    } catch (error) {
      input.log(`[kit] Ask AI on "${set.key}" could not load ${entry.provider}: ${(error as Error).message}`);
      continue;
    }
    const read = new Map<string, ReadPage>();
    const controller = new AbortController();
    const stop = () => controller.abort(input.signal?.reason);
    input.signal?.addEventListener('abort', stop, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new ProviderTimeout(`no answer within ${input.timeoutMs} ms`));
      }, input.timeoutMs);
    };
    let began = false;
    let text = '';
    let steps = 0;
    let failure: unknown;
    try {
      arm();
      const result = streamText({
        model: loaded.model,
        instructions: system,
        messages,
        tools: askTools({ set, viewer, version: input.version, locale: input.locale, read }),
        stopWhen: isStepCount(settings.max_steps),
        // The last step may not call tools: it must answer from what was read.
        prepareStep: ({ stepNumber }) =>
          stepNumber >= settings.max_steps - 1 ? { activeTools: [], toolChoice: 'none' } : undefined,
        // Failing over is quicker than retrying a provider that just failed.
        maxRetries: 0,
        // Bounds what one step can cost; an answer that cites a few pages fits well within it.
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        abortSignal: controller.signal,
        onError: () => undefined,
      });
      // Time spent in Kit's own tools (a first search builds its index) is not the provider's silence.
      let toolsRunning = 0;
      for await (const part of result.fullStream) {
        if (part.type === 'tool-call') toolsRunning += 1;
        else if (part.type === 'tool-result' || part.type === 'tool-error')
          toolsRunning = Math.max(0, toolsRunning - 1);
        if (toolsRunning > 0) clearTimeout(timer);
        else if (part.type !== 'start') arm();
        if (part.type === 'text-delta') {
          if (!part.text) continue;
          began = true;
          progress.answered = true;
          text += part.text;
          yield { type: 'text', delta: part.text };
        } else if (part.type === 'tool-call') {
          yield { type: 'tool', name: part.toolName, input: toolInput(part.input) };
        } else if (part.type === 'finish-step') {
          steps += 1;
          yield { type: 'step', index: steps };
        } else if (part.type === 'error') {
          failure = part.error;
          break;
        } else if (part.type === 'abort') {
          failure = timedOut ? new ProviderTimeout(`no answer within ${input.timeoutMs} ms`) : 'aborted';
          break;
        }
      }
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', stop);
    }
    if (input.signal?.aborted) return;
    if (failure === undefined && text.trim() === '') failure = new Error('the model returned no text');
    if (failure !== undefined) {
      const again = !began && attempts[index]!.retry && isConnectionFailure(failure);
      input.log(
        `[kit] Ask AI on "${set.key}": ${loaded.provider} (${loaded.modelId}) failed: ${describeFailure(failure)}${
          again ? '; trying it once more' : began || last ? '' : '; trying the next provider'
        }`,
      );
      if (again) {
        attempts.splice(index + 1, 0, { entry, retry: false });
        continue;
      }
      if (began) {
        yield {
          type: 'error',
          code: 'ask.provider_failed',
          message: 'The answer stopped partway: the AI provider failed. Ask again.',
        };
        return;
      }
      continue;
    }
    const checked = await checkCitations(text, read, {
      resolve: (pathname) => set.resolveUrl(pathname, viewer),
      ...(input.origin ? { origin: input.origin } : {}),
    });
    yield { type: 'done', supported: checked.citations.length > 0, steps, ...checked };
    return;
  }
  yield {
    type: 'error',
    code: 'ask.provider_failed',
    message: 'No AI provider could answer just now. Try again in a moment; search still works.',
  };
}

/** A failure to reach the provider at all (no HTTP status): reset, refused, closed. */
function isConnectionFailure(error: unknown): boolean {
  const { statusCode, message } = (error ?? {}) as { statusCode?: number; message?: string };
  return (
    statusCode === undefined && /Cannot connect to API|ECONNRESET|socket hang up|other side closed/i.test(message ?? '')
  );
}

/** The arguments a tool call shows the reader as progress (the query or the page). */
function toolInput(input: unknown): Record<string, unknown> {
  const value = (input ?? {}) as Record<string, unknown>;
  const shown: Record<string, unknown> = {};
  for (const key of ['query', 'path', 'section', 'version'])
    if (typeof value[key] === 'string') shown[key] = value[key];
  return shown;
}

/** A provider failure for the log: its status and message, never the request it quoted. */
function describeFailure(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isKitError(error)) return `${error.code}: ${error.message}`;
  const { statusCode, message, name } = (error ?? {}) as { statusCode?: number; message?: string; name?: string };
  const first = (message ?? String(error)).split('\n')[0]!.slice(0, 300);
  return `${statusCode ? `HTTP ${statusCode} ` : ''}${name && name !== 'Error' ? `${name}: ` : ''}${first}`;
}
