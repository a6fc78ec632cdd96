import { type AskEnv, PROVIDERS, providerChain, providerProblem } from './providers.js';

/** What `ai.ask.provider` / `ai.ask.model` hold for one set. */
export interface AskSetupInput {
  provider: string | string[] | Record<string, string> | null;
  model: string | null;
}

/**
 * Problems that keep Ask AI from answering with this configuration and environment: an unknown
 * provider, a provider package that is not installed, a missing key or address. Each names the fix.
 * `kit validate` reports them (with `env` null: packages and configuration only); an empty list means
 * every provider of the failover order can be called.
 *
 * @example
 * await askSetupProblems({ provider: 'anthropic', model: null }, process.env);
 * // ['anthropic: ANTHROPIC_API_KEY is not set in the environment.']
 */
export async function askSetupProblems(
  input: AskSetupInput,
  env: AskEnv | null,
  key: 'ai.ask' | 'ai.sync' = 'ai.ask',
): Promise<string[]> {
  let chain: ReturnType<typeof providerChain>;
  try {
    chain = providerChain(input, key);
  } catch (error) {
    return [(error as Error).message];
  }
  const problems: string[] = [];
  try {
    await import('ai');
  } catch {
    problems.push('The package ai (the Vercel AI SDK) is not installed: npm install ai');
  }
  for (const choice of chain) {
    const spec = PROVIDERS[choice.provider]!;
    try {
      await importProvider(spec.package);
    } catch {
      problems.push(`${choice.provider}: the package ${spec.package} is not installed: npm install ${spec.package}`);
      continue;
    }
    // Without an environment (kit validate on a machine that holds no keys) only what the
    // configuration alone decides is checked: a model the provider cannot default.
    const problem = providerProblem(choice, env ?? keysPresent, key);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** An environment in which every key and address is set: only configuration problems remain. */
const keysPresent: AskEnv = new Proxy({}, { get: () => 'set' });

function importProvider(name: string): Promise<unknown> {
  // Literal specifiers, so bundlers and the package manager see each optional peer.
  if (name === '@ai-sdk/openai') return import('@ai-sdk/openai');
  if (name === '@ai-sdk/anthropic') return import('@ai-sdk/anthropic');
  return import('@ai-sdk/openai-compatible');
}
