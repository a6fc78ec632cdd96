import { describe, expect, it } from 'vitest';
import type { ResolvedConfig, ResolvedSetConfig } from '../config/types.js';
import { isKitError } from '../errors/kit-error.js';
import { createEvents } from '../events/emitter.js';
import { memorySource, smallRenderer, substringSearch } from './__fixtures__/doubles.js';
import { createDocSet } from './docset.js';
import { createKit } from './kit.js';

function setConfig(key: string): ResolvedSetConfig {
  return {
    key,
    route: { prefix: key, domain: null, middleware: ['web'] },
    access: { mode: 'public' },
    html_input: 'escape',
    snippets: { root: null },
  } as unknown as ResolvedSetConfig;
}

function docSet(key: string, events = createEvents()) {
  const source = memorySource({ pages: [{ version: 'current', locale: 'en', path: 'index', body: `# ${key}` }] });
  return {
    source,
    set: createDocSet({ config: setConfig(key), source, renderer: smallRenderer(), search: substringSearch(), events }),
  };
}

const config = { default: 'docs', sets: {} } as unknown as ResolvedConfig;

describe('createKit', () => {
  it("puts the config's event listeners on the bus the sets fire on", async () => {
    const events = createEvents();
    const docs = docSet('docs', events).set;
    const seen: string[] = [];
    const kit = createKit({
      config: {
        ...config,
        events: {
          SearchPerformed: [
            ({ query }) => void seen.push(`first ${query}`),
            async ({ results }) => void seen.push(`second ${results}`),
          ],
          FeedbackSubmitted: ({ path, helpful }) => void seen.push(`feedback ${path} ${helpful}`),
        },
      },
      sets: [docs],
      events,
    });
    await kit.set().search({ query: 'docs' }, { user: null }, 'cli');
    await kit.set().submitFeedback({ path: 'index', helpful: false }, { user: null }, 'widget');
    await kit.close();
    expect(seen).toEqual(['first docs', 'second 1', 'feedback index false']);
  });

  it('finds a set by key and falls back to the configured default', () => {
    const docs = docSet('docs').set;
    const api = docSet('api').set;
    const kit = createKit({ config, sets: [docs, api] });
    expect(kit.set()).toBe(docs);
    expect(kit.set('api')).toBe(api);
    expect([...kit.sets.keys()]).toEqual(['docs', 'api']);
  });

  it('accepts sets as a record or a map', () => {
    const docs = docSet('docs').set;
    expect(createKit({ config, sets: { docs } }).set('docs')).toBe(docs);
    expect(createKit({ config, sets: new Map([['docs', docs]]) }).set('docs')).toBe(docs);
  });

  it('names the configured sets when a key is unknown', () => {
    const kit = createKit({ config, sets: [docSet('docs').set, docSet('api').set] });
    let caught: unknown;
    try {
      kit.set('guides');
    } catch (error) {
      caught = error;
    }
    expect(isKitError(caught, 'set.not_found')).toBe(true);
    expect((caught as Error).message).toContain('docs, api');
  });

  it('refuses two sets with one key', () => {
    expect(() => createKit({ config, sets: [docSet('docs').set, docSet('docs').set] })).toThrow(/key "docs"/);
  });

  it('serves an unversioned set without a manifest under the implicit version current', async () => {
    const kit = createKit({ config, sets: [docSet('docs').set] });
    const page = await kit.set().readPage({ path: '/docs' }, { user: null });
    expect(page.meta).toMatchObject({ version: 'current', locale: 'en', path: 'index', url: '/docs' });
    expect(page.meta.markdown_url).toBe('/docs/index.md');
  });

  it('stops every set watching and waits for running event handlers on close', async () => {
    const events = createEvents();
    const docs = docSet('docs', events);
    const kit = createKit({ config, sets: [docs.set], events });
    let handled = false;
    events.on('SearchPerformed', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      handled = true;
    });
    await kit.set().search({ query: 'docs' }, { user: null }, 'cli');
    await kit.close();
    expect(handled).toBe(true);
    expect(docs.source.watchers).toBe(0);
  });
});
