import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderContext, SourcePage } from '@kit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RENDER_SHORTCUTS_VARIABLE, renderShortcutsOn, SHORTCUT_UPSTREAMS } from '../shortcuts.js';
import { laravelContext, laravelPages, pageFromText } from '../testing/laravel-corpus.js';
import { createRenderer, type RenderOutcome } from './renderer.js';

const PACKAGE = join(import.meta.dirname, '..', '..');
const FEATURES = join(import.meta.dirname, '..', '__fixtures__', 'inputs', 'features.md');

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Renders pages one after the other with one renderer (so the parser reuses chunks), shortcuts on or off. */
async function renderAll(pages: SourcePage[], context: RenderContext, shortcuts: boolean): Promise<RenderOutcome[]> {
  vi.stubEnv(RENDER_SHORTCUTS_VARIABLE, shortcuts ? 'on' : 'off');
  try {
    expect(renderShortcutsOn()).toBe(shortcuts);
    const renderer = createRenderer();
    const outcomes: RenderOutcome[] = [];
    for (const page of pages) outcomes.push(await renderer.renderFresh(page, context));
    return outcomes;
  } finally {
    vi.unstubAllEnvs();
  }
}

/** Fails on the first page whose render differs between the two roads, naming it. */
async function expectSameBothWays(pages: SourcePage[], context: RenderContext): Promise<void> {
  const on = await renderAll(pages, context, true);
  const off = await renderAll(pages, context, false);
  pages.forEach((page, index) => {
    expect(on[index], page.path).toEqual(off[index]);
  });
}

describe('the render shortcuts switch', () => {
  it('is on unless KIT_RENDER_SHORTCUTS is off', () => {
    expect(renderShortcutsOn()).toBe(process.env[RENDER_SHORTCUTS_VARIABLE] !== 'off');
    vi.stubEnv(RENDER_SHORTCUTS_VARIABLE, 'off');
    expect(renderShortcutsOn()).toBe(false);
    vi.stubEnv(RENDER_SHORTCUTS_VARIABLE, '');
    expect(renderShortcutsOn()).toBe(true);
  });

  it('pins every package the shortcuts copy to the exact version installed', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of SHORTCUT_UPSTREAMS) {
      const declared = manifest.dependencies[name];
      expect(declared, name).toMatch(/^\d+\.\d+\.\d+$/);
      const installed = JSON.parse(readFileSync(join(PACKAGE, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      };
      expect(installed.version, name).toBe(declared);
    }
  });
});

describe('rendering with the shortcuts on and off', () => {
  const features = pageFromText('features', readFileSync(FEATURES, 'utf8'));
  const inputs: Array<[string, Partial<RenderContext>]> = [
    ['raw HTML allowed', { htmlInput: 'allow' }],
    ['raw HTML escaped', { htmlInput: 'escape' }],
    ['sanitized', { htmlInput: 'allow', sanitize: true }],
  ];

  it.each(inputs)('gives the same page for the features fixture, %s, highlighted or not', async (_, overrides) => {
    for (const highlight of [false, true]) {
      await expectSameBothWays([features], laravelContext('13.x', { ...overrides, highlight }));
    }
  });

  it('gives the same pages for the Laravel corpus, one version after another', async () => {
    const pages = [...laravelPages('13.x'), ...laravelPages('12.x')];
    await expectSameBothWays(pages, laravelContext('13.x'));
  }, 600_000);

  it('gives the same highlighted pages for a few Laravel pages', async () => {
    const pages = laravelPages('13.x').filter((page) => ['seeding', 'urls', 'hashing', 'routing'].includes(page.path));
    expect(pages.length).toBeGreaterThan(0);
    await expectSameBothWays(pages, laravelContext('13.x', { highlight: true }));
  }, 300_000);
});
