import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RENDER_SHORTCUTS_VARIABLE } from '../shortcuts.js';
import { LARAVEL_ROOT, laravelContext, pageFromText } from '../testing/laravel-corpus.js';
import { createRenderer } from './renderer.js';

const FIXTURES = join(import.meta.dirname, '..', '__fixtures__');
const update = process.env.UPDATE === '1';

const cases: Array<{ name: string; file: string; htmlInput: 'escape' | 'allow'; sanitize?: boolean }> = [
  ...['seeding', 'rate-limiting', 'urls', 'hashing', 'encryption', 'csrf'].map((page) => ({
    name: `laravel-${page}`,
    file: join(LARAVEL_ROOT, '13.x', `${page}.md`),
    htmlInput: 'allow' as const,
  })),
  { name: 'features-allow', file: join(FIXTURES, 'inputs', 'features.md'), htmlInput: 'allow' },
  { name: 'features-escape', file: join(FIXTURES, 'inputs', 'features.md'), htmlInput: 'escape' },
  { name: 'features-sanitized', file: join(FIXTURES, 'inputs', 'features.md'), htmlInput: 'allow', sanitize: true },
];

/** Compares with the stored fixture, or rewrites it when UPDATE=1 (review the diff). */
function pin(file: string, actual: string) {
  const path = join(FIXTURES, file);
  if (update || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

// The fixtures pin both roads: the render shortcuts on, and off (the libraries they copy alone).
describe.each(['on', 'off'])('rendered output fixtures, render shortcuts %s', (shortcuts) => {
  const renderer = createRenderer();
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  it.each(cases)('$name renders as pinned', async ({ name, file, htmlInput, sanitize }) => {
    vi.stubEnv(RENDER_SHORTCUTS_VARIABLE, shortcuts);
    const page = pageFromText(name, readFileSync(file, 'utf8'));
    const out = await renderer.render(page, laravelContext('13.x', { htmlInput, sanitize: sanitize ?? false }));
    pin(`${name}.html`, out.html);
    pin(`${name}.agent.md`, out.markdown);
    pin(
      `${name}.json`,
      `${JSON.stringify({ toc: out.toc, anchors: out.anchors, links: out.links, sections: out.sections, problems: out.problems }, null, 2)}\n`,
    );
  });
});

describe('rendering without the article HTML', () => {
  it.each(cases)(
    '$name gives what the full render gives, the HTML aside',
    async ({ name, file, htmlInput, sanitize }) => {
      const page = pageFromText(name, readFileSync(file, 'utf8'));
      const input = laravelContext('13.x', { htmlInput, sanitize: sanitize ?? false });
      const full = await createRenderer().renderFresh(page, input);
      const lean = await createRenderer().renderFresh(page, input, { html: false });
      // What validation reads (problems, links, anchors, sections, agent Markdown) is the same.
      expect(lean).toEqual({ ...full, page: { ...full.page, html: '' } });
      expect(full.page.html).not.toBe('');
    },
  );
});
