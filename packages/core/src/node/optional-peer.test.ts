import { describe, expect, it } from 'vitest';
import { isKitError } from '../errors/kit-error.js';
import { loadOptionalPeer } from './optional-peer.js';

describe('loadOptionalPeer', () => {
  it('gives the module when the peer is installed', async () => {
    const yaml = await loadOptionalPeer(() => import('yaml'), 'yaml', 'Reading YAML');
    expect(typeof yaml.parse).toBe('function');
  });

  it('names the missing package and the command that installs it', async () => {
    const missing = 'kit-peer-that-is-not-installed';
    const error = await loadOptionalPeer(() => import(/* @vite-ignore */ missing), missing, 'The test store').catch(
      (caught: unknown) => caught,
    );
    expect(isKitError(error, 'config.invalid')).toBe(true);
    expect((error as Error).message).toBe(
      `The test store needs the package ${missing}, which is not installed. Add it to your project (npm install ${missing}, or pnpm add ${missing}) and start again.`,
    );
  });

  it('lets any other failure through unchanged', async () => {
    const failure = new Error('the driver crashed while loading');
    await expect(loadOptionalPeer(() => Promise.reject(failure), 'pg', 'PostgreSQL')).rejects.toBe(failure);
  });
});
