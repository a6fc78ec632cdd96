import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RenderContext, SourcePage } from '@kit/core';

/** Test and bench helpers: the Laravel corpus as source pages (Node only, not exported). */
// The shared data sits beside the repository; vitest sets KIT_SHARED_DIR, benches fall back to the path.
export const LARAVEL_ROOT = `${process.env.KIT_SHARED_DIR ?? resolve(import.meta.dirname, '../../../../../shared')}/corpora/laravel`;
export const LARAVEL_VERSIONS = ['13.x', '12.x', '11.x'] as const;

export function pageFromText(path: string, text: string, version = '13.x'): SourcePage {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  return {
    path,
    version,
    locale: 'en',
    frontmatter: {},
    body: normalized,
    title: /^# (.+)$/m.exec(normalized)?.[1] ?? path,
    contentHash: `sha256:${createHash('sha256').update(normalized).digest('hex')}`,
    bodyLine: 1,
    file: `${version}/${path}.md`,
    visibility: 'public',
    problems: [],
  };
}

export function laravelPages(version: string): SourcePage[] {
  const folder = join(LARAVEL_ROOT, version);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => pageFromText(name.slice(0, -3), readFileSync(join(folder, name), 'utf8'), version));
}

export function laravelContext(version: string, overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    set: 'laravel',
    version,
    locale: 'en',
    versionSegment: version,
    pageUrl: (path) => (path === '' ? `/docs/${version}` : `/docs/${version}/${path}`),
    fileUrl: (path) => `/docs/${version}/${path}`,
    origin: 'https://docs.example.com',
    htmlInput: 'allow',
    sanitize: false,
    snippetsRoot: null,
    highlight: false,
    ...overrides,
  };
}
