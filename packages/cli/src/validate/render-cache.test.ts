import { createHash } from 'node:crypto';
import {
  createRenderContext,
  createUrlLayout,
  normalizeManifest,
  type RenderContextInput,
  type SourcePage,
  type ValidationRenderer,
} from '@kit/core';
import { type ComponentRegistry, createComponentRegistry, createRenderer } from '@kit/render';
import { afterEach, describe, expect, it } from 'vitest';
import { tempProject } from '../__fixtures__/kit-binary.js';
import { cachedRenderer } from './render-cache.js';

const context = (htmlInput: 'escape' | 'allow' = 'escape'): RenderContextInput => ({
  set: 'docs',
  config: { html_input: htmlInput, snippets: { root: null } },
  sourceKind: 'repository',
  layout: createUrlLayout('docs', normalizeManifest({ name: 'Fixture' }, 'docs').manifest),
  version: 'current',
  locale: 'en',
  origin: '',
  highlight: false,
});

const body = '# Home\n\n<Zed />\n';
const page: SourcePage = {
  path: 'index',
  version: 'current',
  locale: 'en',
  frontmatter: {},
  body,
  title: 'Home',
  contentHash: `sha256:${createHash('sha256').update(body).digest('hex')}`,
  bodyLine: 1,
  file: 'index.md',
  visibility: 'public',
  problems: [],
};

/**
 * Renders with `components` and counts the renders that were not answered from the cache. A fresh
 * renderer each time, so its own memory never answers for the disk cache.
 */
function counting(components: ComponentRegistry): ValidationRenderer & { renders: number } {
  const inner = {
    renders: 0,
    renderPage(source: SourcePage, input: RenderContextInput) {
      inner.renders += 1;
      return createRenderer({ components }).render(source, createRenderContext(input));
    },
  };
  return inner;
}

const zed = { html: () => '<b>zed</b>', markdown: () => 'zed' };
const unknownComponents = async (renderer: ValidationRenderer) =>
  (await renderer.renderPage(page, context())).problems.filter((problem) => problem.rule === 'components.unknown');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function cacheDir(): Promise<string> {
  const { dir, cleanup } = await tempProject('kit-render-cache-');
  cleanups.push(cleanup);
  return dir;
}

describe('the validate render cache', () => {
  it('answers an unchanged page from disk', async () => {
    const dir = await cacheDir();
    const inner = counting(createComponentRegistry());
    const cached = await cachedRenderer(inner, dir, { components: createComponentRegistry() });
    const first = await cached.renderPage(page, context());
    expect(await cached.renderPage(page, context())).toEqual(first);
    expect(inner.renders).toBe(1);
  });

  it('renders again once the unknown component is registered, and again once it is removed', async () => {
    const dir = await cacheDir();
    const without = createComponentRegistry();
    const before = counting(without);
    expect(await unknownComponents(await cachedRenderer(before, dir, { components: without }))).toHaveLength(1);

    const registered = createComponentRegistry();
    registered.register('Zed', zed);
    const after = counting(registered);
    expect(await unknownComponents(await cachedRenderer(after, dir, { components: registered }))).toEqual([]);
    expect(after.renders).toBe(1);

    const removed = createComponentRegistry();
    const again = counting(removed);
    expect(await unknownComponents(await cachedRenderer(again, dir, { components: removed }))).toHaveLength(1);
  });

  it('renders again when a registered component changes its code', async () => {
    const dir = await cacheDir();
    const registry = createComponentRegistry();
    registry.register('Zed', zed);
    const inner = counting(registry);
    const cached = await cachedRenderer(inner, dir, { components: registry });
    expect((await cached.renderPage(page, context())).markdown).toContain('zed');
    registry.register('Zed', { html: () => '<i>zed 2</i>', markdown: () => 'zed two' });
    expect((await cached.renderPage(page, context())).markdown).toContain('zed two');
    expect(inner.renders).toBe(2);
  });

  it('keeps renders under each html_input apart', async () => {
    const dir = await cacheDir();
    const registry = createComponentRegistry();
    const inner = counting(registry);
    const cached = await cachedRenderer(inner, dir, { components: registry });
    await cached.renderPage(page, context('escape'));
    await cached.renderPage(page, context('allow'));
    expect(inner.renders).toBe(2);
  });
});
