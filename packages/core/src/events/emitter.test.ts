import { describe, expect, it, vi } from 'vitest';
import { createEvents, type KitEventError } from './emitter.js';
import type { KitEventMap } from './types.js';

const search: KitEventMap['SearchPerformed'] = {
  set: 'docs',
  version: '3.x',
  locale: 'en',
  query: 'routing',
  results: 3,
  source: 'mcp',
};

describe('createEvents', () => {
  it('delivers a payload to every handler of the event, in registration order', () => {
    const events = createEvents();
    const seen: string[] = [];
    events.on('SearchPerformed', (payload) => void seen.push(`a:${payload.query}`));
    events.on('SearchPerformed', (payload) => void seen.push(`b:${payload.query}`));
    events.on('FeedbackSubmitted', () => void seen.push('feedback'));
    events.emit('SearchPerformed', search);
    expect(seen).toEqual(['a:routing', 'b:routing']);
  });

  it('stops delivering to a handler once unsubscribed', () => {
    const events = createEvents();
    const handler = vi.fn();
    const stop = events.on('SearchPerformed', handler);
    events.emit('SearchPerformed', search);
    stop();
    stop();
    events.emit('SearchPerformed', search);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('keeps a throwing handler from breaking the caller or the other handlers', () => {
    const failures: KitEventError[] = [];
    const events = createEvents({ onError: (failure) => failures.push(failure) });
    const after = vi.fn();
    events.on('SearchPerformed', () => {
      throw new Error('analytics down');
    });
    events.on('SearchPerformed', after);
    expect(() => events.emit('SearchPerformed', search)).not.toThrow();
    expect(after).toHaveBeenCalledOnce();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.event).toBe('SearchPerformed');
    expect((failures[0]!.error as Error).message).toBe('analytics down');
  });

  it('does not wait for async handlers and reports their rejections', async () => {
    const failures: KitEventError[] = [];
    const events = createEvents({ onError: (failure) => failures.push(failure) });
    let finished = false;
    events.on('SearchPerformed', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      finished = true;
    });
    events.on('SearchPerformed', async () => {
      await Promise.resolve();
      throw new Error('webhook refused');
    });
    events.emit('SearchPerformed', search);
    expect(finished).toBe(false);
    await events.settled();
    expect(finished).toBe(true);
    expect(failures.map((failure) => (failure.error as Error).message)).toEqual(['webhook refused']);
  });

  it('survives an error reporter that throws', () => {
    const events = createEvents({
      onError: () => {
        throw new Error('logger broken');
      },
    });
    events.on('SearchPerformed', () => {
      throw new Error('handler broken');
    });
    expect(() => events.emit('SearchPerformed', search)).not.toThrow();
  });

  it('reports to console.error when no onError is given', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const events = createEvents();
    events.on('FeedbackSubmitted', () => {
      throw new Error('boom');
    });
    events.emit('FeedbackSubmitted', {
      set: 'docs',
      version: '3.x',
      locale: 'en',
      path: 'routing',
      helpful: false,
      source: 'agent',
      user: null,
    });
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it('delivers a handler added during an emit from the next emit on', () => {
    const events = createEvents();
    const late = vi.fn();
    events.on('SearchPerformed', () => void events.on('SearchPerformed', late));
    events.emit('SearchPerformed', search);
    expect(late).not.toHaveBeenCalled();
    events.emit('SearchPerformed', search);
    expect(late).toHaveBeenCalledOnce();
  });
});
