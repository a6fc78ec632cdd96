import { describe, expect, it } from 'vitest';
import { defineConfig } from './define.js';
import { resolveConfig } from './resolve.js';
import type { KitMiddleware } from './types.js';

describe('defineConfig', () => {
  it('returns its input unchanged', () => {
    const input = { review: 'auto' as const, sets: { docs: {} } };
    expect(defineConfig(input)).toBe(input);
  });

  it('types a full config, including gates, the user resolver and Hono-shaped middleware', () => {
    // A Hono MiddlewareHandler has this shape; it must be assignable without a cast.
    const honoLike: (c: { req: Request }, next: () => Promise<void>) => Promise<Response | undefined> = async (
      _c,
      next,
    ) => {
      await next();
      return undefined;
    };
    const web: KitMiddleware = honoLike;
    const config = defineConfig({
      sets: {
        docs: { route: { prefix: '', middleware: ['web'] }, access: { mode: 'gate' } },
        handbook: { source: { driver: 'database', cache: 'memory' }, mcp: { web: { author_tools: true } } },
      },
      gates: { viewKit: async (user) => user !== null, manageKit: () => false },
      resolveUser: (request) => request.headers.get('x-user'),
      middleware: { web },
      ai: { ask: { provider: { openai: 'gpt-4o' } } },
    });
    expect(resolveConfig(config, { env: {}, root: '/app' }).sets.handbook!.mcp.web.author_tools).toBe(true);
  });

  it('flags mistyped keys at compile time too', () => {
    const check = () =>
      defineConfig({
        // @ts-expect-error `llm_txt` is not a key of `agents`
        agents: { llm_txt: true },
      });
    expect(check).not.toThrow();
    // A set cannot write keys that only the top level reads.
    // @ts-expect-error `hooks` is top-level only
    expect(() => defineConfig({ sets: { docs: { hooks: { enabled: false } } } })).not.toThrow();
  });
});
