import type { KitConfigInput } from './types.js';

/**
 * Types a `kit.config.ts` without changing it: editors complete and check every key, and the file
 * stays plain data that `loadConfig` resolves.
 *
 * @example
 * export default defineConfig({
 *   sets: { docs: { source: { path: 'docs' } } },
 *   agents: { llms_full: false },
 * });
 */
export function defineConfig(input: KitConfigInput): KitConfigInput {
  return input;
}
