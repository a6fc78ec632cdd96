import type { RenderedPage } from '@kit/core';
import { describe, expect, it } from 'vitest';
import { LARAVEL_VERSIONS, laravelContext, laravelPages } from '../testing/laravel-corpus.js';
import { createRenderer } from './renderer.js';

describe.each(LARAVEL_VERSIONS)('the Laravel corpus, version %s', (version) => {
  it('renders every page to HTML and agent Markdown, and every #anchor link resolves', async () => {
    const renderer = createRenderer();
    const context = laravelContext(version);
    const pages = laravelPages(version);
    const rendered = new Map<string, RenderedPage>();
    for (const page of pages) rendered.set(page.path, await renderer.render(page, context));

    const broken: string[] = [];
    for (const [path, page] of rendered) {
      expect(page.html.length, path).toBeGreaterThan(0);
      expect(page.markdown, path).not.toMatch(/<a name=/);
      expect(page.markdown, path).not.toContain('{{version}}');
      for (const { href, line } of page.links) {
        const hash = href.indexOf('#');
        if (hash === -1) continue;
        const anchor = decodeURIComponent(href.slice(hash + 1));
        const target = href.slice(0, hash);
        const pageMatch = /^\/docs\/\{\{version\}\}\/([^?#]+)$/.exec(target);
        const targetPath = target === '' ? path : pageMatch?.[1];
        const targetPage = targetPath === undefined ? undefined : rendered.get(targetPath);
        if (targetPath === undefined || !targetPage) continue;
        if (!targetPage.anchors.includes(anchor)) broken.push(`${path}:${line} → ${href}`);
      }
    }
    expect(broken).toEqual([]);
  }, 180_000);
});
