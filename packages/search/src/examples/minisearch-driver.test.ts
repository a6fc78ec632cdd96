import { afterEach, describe, expect, it } from 'vitest';
import { registerSearchDriver, resolveSearchDriver } from '../index.js';
import { runSearchDriverContract } from '../testing/index.js';
import { createMiniSearchDriver } from './minisearch-driver.js';

runSearchDriverContract({ name: 'minisearch example', create: () => createMiniSearchDriver() });

describe('the minisearch example driver', () => {
  let unregister: (() => void) | undefined;
  afterEach(() => unregister?.());

  it('is reachable by name once registered', () => {
    unregister = registerSearchDriver('minisearch', () => createMiniSearchDriver());
    expect(resolveSearchDriver('minisearch').name).toBe('minisearch');
  });
});
