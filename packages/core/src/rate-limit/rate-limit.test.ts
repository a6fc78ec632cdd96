import { describe, expect, it } from 'vitest';
import { isKitError } from '../errors/kit-error.js';
import { checkRateLimit, createMemoryRateLimitStore, parseRateLimit } from './rate-limit.js';

describe('parseRateLimit', () => {
  it('reads requests and minutes', () => {
    expect(parseRateLimit('60,1')).toEqual({ max: 60, windowMs: 60_000 });
    expect(parseRateLimit(' 20 , 1 ')).toEqual({ max: 20, windowMs: 60_000 });
    expect(parseRateLimit('10,0.5')).toEqual({ max: 10, windowMs: 30_000 });
  });

  it('refuses malformed values with config.invalid naming the key and the shape', () => {
    for (const bad of ['60', '60/1', '0,1', '60,0', '-1,1', 'sixty,1', '']) {
      let caught: unknown;
      try {
        parseRateLimit(bad, 'mcp.web.rate_limit');
      } catch (error) {
        caught = error;
      }
      expect(isKitError(caught, 'config.invalid')).toBe(true);
      expect((caught as Error).message).toContain('mcp.web.rate_limit');
      expect((caught as Error).message).toContain("'60,1'");
    }
  });
});

describe('checkRateLimit with the memory store', () => {
  it('allows up to max requests in a window, then refuses with a retry time', async () => {
    let clock = 1_000_000;
    const store = createMemoryRateLimitStore({ now: () => clock });
    const rule = parseRateLimit('3,1');
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await checkRateLimit(store, 'ip:1', rule, clock));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts.map((v) => v.remaining)).toEqual([2, 1, 0, 0]);
    expect(verdicts[3]!.retryAfterSeconds).toBe(60);
    clock += 45_000;
    expect((await checkRateLimit(store, 'ip:1', rule, clock)).retryAfterSeconds).toBe(15);
  });

  it('takes back one hit in the current window, never below zero and never once the window ended', async () => {
    let clock = 0;
    const store = createMemoryRateLimitStore({ now: () => clock });
    await store.hit('k', 60_000);
    await store.hit('k', 60_000);
    await store.undo('k');
    expect((await store.hit('k', 60_000)).count).toBe(2);
    for (let i = 0; i < 3; i++) await store.undo('k');
    expect((await store.hit('k', 60_000)).count).toBe(1);
    await store.undo('never-hit');
    expect((await store.hit('never-hit', 60_000)).count).toBe(1);
    clock += 60_000;
    await store.undo('k');
    expect((await store.hit('k', 60_000)).count).toBe(1);
  });

  it('opens a new window once the old one ends', async () => {
    let clock = 0;
    const store = createMemoryRateLimitStore({ now: () => clock });
    const rule = parseRateLimit('1,1');
    expect((await checkRateLimit(store, 'k', rule, clock)).allowed).toBe(true);
    expect((await checkRateLimit(store, 'k', rule, clock)).allowed).toBe(false);
    clock = 60_000;
    expect((await checkRateLimit(store, 'k', rule, clock)).allowed).toBe(true);
  });

  it('counts each key separately', async () => {
    const store = createMemoryRateLimitStore({ now: () => 0 });
    const rule = parseRateLimit('1,1');
    expect((await checkRateLimit(store, 'user:1', rule, 0)).allowed).toBe(true);
    expect((await checkRateLimit(store, 'user:2', rule, 0)).allowed).toBe(true);
    expect((await checkRateLimit(store, 'user:1', rule, 0)).allowed).toBe(false);
  });

  it('stays within its key bound, dropping expired windows first, then the least recently hit', async () => {
    let clock = 0;
    const store = createMemoryRateLimitStore({ maxKeys: 3, now: () => clock });
    await store.hit('short', 10);
    await store.hit('a', 60_000);
    await store.hit('b', 60_000);
    clock = 20;
    await store.hit('c', 60_000);
    expect(store.size).toBe(3);
    expect((await store.hit('a', 60_000)).count).toBe(2);
    await store.hit('d', 60_000);
    expect(store.size).toBe(3);
    expect((await store.hit('b', 60_000)).count).toBe(1);
    expect((await store.hit('a', 60_000)).count).toBe(3);
  });
});
