import { createHash } from 'node:crypto';
import { readdir, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createRenderContext,
  createUrlLayout,
  normalizeManifest,
  type PageRenderer,
  type RenderContextInput,
  type SourcePage,
  type ValidationRenderer,
} from '@kit/core';
import { type ComponentRegistry, createComponentRegistry, createRenderer } from '@kit/render';
import { createNodeRenderer } from '@kit/render/node';
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
 * renderer each time, so its own memory never answers for the disk cache. `made` is the renderer
 * the cache keys renders by: the same components, and code identified as `release`.
 */
function counting(
  components: ComponentRegistry,
  release = 'release-1',
): ValidationRenderer & { renders: number; made: PageRenderer } {
  const inner = {
    renders: 0,
    made: createRenderer({ components, codeFingerprint: async () => release }),
    renderPage(source: SourcePage, input: RenderContextInput) {
      inner.renders += 1;
      return createRenderer({ components }).render(source, createRenderContext(input));
    },
  };
  return inner;
}

/** The disk cache over `inner`, keyed by the renderer `inner` renders as. */
const cachedOver = (inner: ReturnType<typeof counting>, dir: string) =>
  cachedRenderer(inner, dir, { renderer: inner.made });

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
    const cached = cachedOver(inner, dir);
    const first = await cached.renderPage(page, context());
    expect(await cached.renderPage(page, context())).toEqual(first);
    expect(inner.renders).toBe(1);
  });

  it('renders again once the unknown component is registered, and again once it is removed', async () => {
    const dir = await cacheDir();
    const without = createComponentRegistry();
    const before = counting(without);
    expect(await unknownComponents(cachedOver(before, dir))).toHaveLength(1);

    const registered = createComponentRegistry();
    registered.register('Zed', zed);
    const after = counting(registered);
    expect(await unknownComponents(cachedOver(after, dir))).toEqual([]);
    expect(after.renders).toBe(1);

    const removed = createComponentRegistry();
    const again = counting(removed);
    expect(await unknownComponents(cachedOver(again, dir))).toHaveLength(1);
  });

  it('renders again when a registered component changes its code', async () => {
    const dir = await cacheDir();
    const registry = createComponentRegistry();
    registry.register('Zed', zed);
    const inner = counting(registry);
    const cached = cachedOver(inner, dir);
    expect((await cached.renderPage(page, context())).markdown).toContain('zed');
    registry.register('Zed', { html: () => '<i>zed 2</i>', markdown: () => 'zed two' });
    expect((await cached.renderPage(page, context())).markdown).toContain('zed two');
    expect(inner.renders).toBe(2);
  });

  it('renders again under a renderer of another release, and reuses the renders of the same one', async () => {
    const dir = await cacheDir();
    const registry = createComponentRegistry();
    const first = counting(registry, 'release-1');
    await cachedOver(first, dir).renderPage(page, context());
    const rerun = counting(registry, 'release-1');
    await cachedOver(rerun, dir).renderPage(page, context());
    expect(rerun.renders).toBe(0);
    const upgraded = counting(registry, 'release-2');
    await cachedOver(upgraded, dir).renderPage(page, context());
    expect(upgraded.renders).toBe(1);
  });

  it('keeps its renders when the renderer files are touched without changing (a fresh checkout)', async () => {
    const dir = await cacheDir();
    const registry = createComponentRegistry();
    const installed = createNodeRenderer({ components: registry });
    const first = counting(registry);
    await cachedRenderer(first, dir, { renderer: installed }).renderPage(page, context());
    expect(first.renders).toBe(1);

    // A renderer file becomes the newest by its time alone, and gets its own time back afterwards.
    const folder = dirname(fileURLToPath(import.meta.resolve('@kit/render')));
    const file = join(folder, (await readdir(folder)).find((name) => name.endsWith('.ts'))!);
    const before = await stat(file);
    try {
      const later = new Date(Date.now() + 3_600_000);
      await utimes(file, later, later);
      const rerun = counting(registry);
      await cachedRenderer(rerun, dir, { renderer: installed }).renderPage(page, context());
      expect(rerun.renders).toBe(0);
    } finally {
      await utimes(file, before.atime, before.mtime);
    }
  });

  it('renders every page with a renderer that cannot say what it is, and keeps nothing on disk', async () => {
    const dir = await cacheDir();
    const inner = counting(createComponentRegistry());
    const cached = cachedRenderer(inner, dir, { renderer: createRenderer() });
    await cached.renderPage(page, context());
    await cached.renderPage(page, context());
    expect(inner.renders).toBe(2);
    expect(await readdir(dir)).toEqual([]);
  });

  it('keeps renders under each html_input apart', async () => {
    const dir = await cacheDir();
    const registry = createComponentRegistry();
    const inner = counting(registry);
    const cached = cachedOver(inner, dir);
    await cached.renderPage(page, context('escape'));
    await cached.renderPage(page, context('allow'));
    expect(inner.renders).toBe(2);
  });
});
