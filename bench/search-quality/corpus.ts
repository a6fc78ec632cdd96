import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SearchSection } from '@kit/core';
import { sectionsFromMarkdown } from '@kit/render';
import { toSearchSections } from '@kit/search';

const SHARED_DIR = process.env.KIT_SHARED_DIR ?? resolve(import.meta.dirname, '..', '..', '..', 'shared');
export const LARAVEL_ROOT = `${SHARED_DIR}/corpora/laravel`;
export const QUERIES_FILE = `${SHARED_DIR}/search/laravel-queries.jsonl`;

export interface LaravelPage {
  path: string;
  title: string;
  markdown: string;
}

/** Frontmatter is metadata, not text: a leading `---` block is dropped. */
function stripFrontmatter(text: string): string {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---\n[\s\S]*?\n---\n?/.exec(normalized);
  return match ? normalized.slice(match[0].length) : normalized;
}

/** Each Markdown page of one Laravel version: path = file name without `.md`, title = first H1. */
export function readLaravelPages(version: string): LaravelPage[] {
  const folder = join(LARAVEL_ROOT, version);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const markdown = stripFrontmatter(readFileSync(join(folder, name), 'utf8'));
      const path = name.slice(0, -'.md'.length);
      const title = /^#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1] ?? path;
      return { path, title, markdown };
    });
}

/** Sections of pages as a driver indexes them, with URLs under `prefix`. */
export function sectionsOf(pages: LaravelPage[], prefix: string): SearchSection[] {
  return pages.flatMap((page) =>
    toSearchSections({
      path: page.path,
      title: page.title,
      url: `${prefix}/${page.path}`,
      markdownUrl: `${prefix}/${page.path}.md`,
      sections: sectionsFromMarkdown(page.markdown),
    }),
  );
}

export interface JudgedQuery {
  line: number;
  query: string;
  version: string;
  pages: string[];
  anchor?: string;
}

export function readQueries(): JudgedQuery[] {
  return readFileSync(QUERIES_FILE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => ({ line: index + 1, ...(JSON.parse(line) as Omit<JudgedQuery, 'line'>) }));
}
