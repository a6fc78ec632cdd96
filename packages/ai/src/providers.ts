import { KitError } from '@kit/core';
import { loadOptionalPeer } from '@kit/core/node';
import type { LanguageModel } from 'ai';

/** The environment Ask AI reads credentials and endpoints from (`process.env` in a server). */
export type AskEnv = Record<string, string | undefined>;

/** One entry of the failover order: a provider name and its model (null: the provider's default). */
export interface ProviderChoice {
  provider: string;
  model: string | null;
}

/** What `ai.ask.provider` and `ai.ask.model` resolve to: `provider` as the config writes it. */
export interface AskProviderSetting {
  provider: string | string[] | Record<string, string> | null;
  model: string | null;
}

interface ProviderSpec {
  /** The AI SDK provider package to install. */
  package: string;
  /** Environment variable holding the API key; null for a provider that needs none. */
  keyEnv: string | null;
  /** Whether a missing key is fine (a local model server usually takes none). */
  keyOptional: boolean;
  /** Environment variable holding the base URL. */
  urlEnv: string;
  /** True when the base URL must be set (a self-hosted server has no public address). */
  urlRequired: boolean;
  /** The model used when none is configured; null when the operator must name one. */
  defaultModel: string | null;
  create(load: ProviderLoad): Promise<LanguageModel>;
}

interface ProviderLoad {
  model: string;
  apiKey: string | undefined;
  baseURL: string | undefined;
}

/** The provider `ai.ask.provider: null` uses. */
export const DEFAULT_PROVIDER = 'openai';

/**
 * The providers Ask AI knows, with the package each needs and where their settings come from.
 * Credentials are read from the environment only.
 */
export const PROVIDERS: Record<string, ProviderSpec> = {
  openai: {
    package: '@ai-sdk/openai',
    keyEnv: 'OPENAI_API_KEY',
    keyOptional: false,
    urlEnv: 'OPENAI_BASE_URL',
    urlRequired: false,
    defaultModel: 'gpt-4.1-mini',
    async create({ model, apiKey, baseURL }) {
      const { createOpenAI } = await loadOptionalPeer(
        () => import('@ai-sdk/openai'),
        '@ai-sdk/openai',
        'Ask AI with the openai provider',
      );
      // Chat Completions: the protocol OpenAI and the many servers that copy it all speak.
      return createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) }).chat(model);
    },
  },
  anthropic: {
    package: '@ai-sdk/anthropic',
    keyEnv: 'ANTHROPIC_API_KEY',
    keyOptional: false,
    urlEnv: 'ANTHROPIC_BASE_URL',
    urlRequired: false,
    defaultModel: 'claude-haiku-4-5',
    async create({ model, apiKey, baseURL }) {
      const { createAnthropic } = await loadOptionalPeer(
        () => import('@ai-sdk/anthropic'),
        '@ai-sdk/anthropic',
        'Ask AI with the anthropic provider',
      );
      return createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}) })(model);
    },
  },
  'openai-compatible': {
    package: '@ai-sdk/openai-compatible',
    keyEnv: 'OPENAI_COMPATIBLE_API_KEY',
    keyOptional: true,
    urlEnv: 'OPENAI_COMPATIBLE_BASE_URL',
    urlRequired: true,
    defaultModel: null,
    async create({ model, apiKey, baseURL }) {
      const { createOpenAICompatible } = await loadOptionalPeer(
        () => import('@ai-sdk/openai-compatible'),
        '@ai-sdk/openai-compatible',
        'Ask AI with the openai-compatible provider',
      );
      return createOpenAICompatible({ name: 'openai-compatible', baseURL: baseURL!, ...(apiKey ? { apiKey } : {}) })(
        model,
      );
    },
  },
};

/**
 * The failover order `ai.ask.provider` describes: one name, a list of names, or a map of name to
 * model (in the map's order). `ai.ask.model` applies to a single provider only; with several each
 * uses its own default unless the map names one. Throws `config.invalid` for an unknown name.
 *
 * @example
 * providerChain({ provider: ['openai', 'anthropic'], model: null });
 * // [{ provider: 'openai', model: null }, { provider: 'anthropic', model: null }]
 */
export function providerChain(setting: AskProviderSetting, key: 'ai.ask' | 'ai.sync' = 'ai.ask'): ProviderChoice[] {
  const { provider, model } = setting;
  let chain: ProviderChoice[];
  if (provider === null) chain = [{ provider: DEFAULT_PROVIDER, model }];
  else if (typeof provider === 'string') chain = [{ provider, model }];
  else if (Array.isArray(provider))
    chain = provider.map((name) => ({ provider: name, model: provider.length === 1 ? model : null }));
  else chain = Object.entries(provider).map(([name, chosen]) => ({ provider: name, model: chosen || null }));
  if (chain.length === 0) {
    throw new KitError(
      'config.invalid',
      `${key}.provider is an empty list. Name a provider (${Object.keys(PROVIDERS).join(', ')}), or set it to null for ${DEFAULT_PROVIDER}.`,
    );
  }
  for (const entry of chain) {
    if (!PROVIDERS[entry.provider]) {
      throw new KitError(
        'config.invalid',
        `${key}.provider names "${entry.provider}", which ${key === 'ai.ask' ? 'Ask AI' : 'kit sync'} does not know. Use one of: ${Object.keys(PROVIDERS).join(', ')}.`,
      );
    }
  }
  return chain;
}

/** Why a provider of the chain cannot be used with this environment, or null when it can. */
export function providerProblem(
  choice: ProviderChoice,
  env: AskEnv,
  key: 'ai.ask' | 'ai.sync' = 'ai.ask',
): string | null {
  const spec = PROVIDERS[choice.provider]!;
  if (spec.keyEnv && !spec.keyOptional && !env[spec.keyEnv]?.trim()) {
    return `${choice.provider}: ${spec.keyEnv} is not set in the environment.`;
  }
  if (spec.urlRequired && !env[spec.urlEnv]?.trim()) {
    return `${choice.provider}: ${spec.urlEnv} is not set (the address of the model server, such as http://127.0.0.1:11434/v1).`;
  }
  if (!choice.model && !spec.defaultModel) {
    return `${choice.provider}: no model is configured. Set ${key}.model (or KIT_AI_MODEL)${key === 'ai.ask' ? ', or name the model in a provider map' : ', or pass --model'}.`;
  }
  return null;
}

/** A provider of the chain, ready to call. */
export interface LoadedModel {
  provider: string;
  modelId: string;
  model: LanguageModel;
}

/** Builds the AI SDK model of one chain entry from the environment (its package loads on demand). */
export async function loadModel(choice: ProviderChoice, env: AskEnv): Promise<LoadedModel> {
  const spec = PROVIDERS[choice.provider]!;
  const modelId = choice.model ?? spec.defaultModel!;
  const apiKey = spec.keyEnv ? env[spec.keyEnv]?.trim() || undefined : undefined;
  const baseURL = env[spec.urlEnv]?.trim() || undefined;
  return { provider: choice.provider, modelId, model: await spec.create({ model: modelId, apiKey, baseURL }) };
}

/**
 * Removes every credential of the known providers from a text (an error a provider sent back may
 * quote a request), so nothing Ask AI logs or shows carries a key.
 */
export function redactCredentials(text: string, env: AskEnv): string {
  let out = text;
  for (const spec of Object.values(PROVIDERS)) {
    const secret = spec.keyEnv ? env[spec.keyEnv]?.trim() : undefined;
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(/\b(sk-[A-Za-z0-9_-]{8,}|Bearer\s+[A-Za-z0-9._~+/=-]{8,})/g, '[redacted]');
}
