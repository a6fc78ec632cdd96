// Test doubles for the doc-set tests: an in-memory content source, a small renderer and a
// substring search driver. Real enough to exercise every rule of createDocSet; the composition
// with @kit/render, @kit/source-fs and @kit/search is covered by the integration tests.
import { contentHash } from '../../hash/content-hash.js';
import type { SourcePage } from '../../model/types.js';
import type { ContentChange, ContentSource } from '../../ports/content-source.js';
import type { PageRenderer, PageSection, RenderContext, RenderedPage } from '../../ports/renderer.js';
import type { SearchDriver, SearchHit, SearchScope, SearchSection } from '../../ports/search-driver.js';

export interface MemoryPage {
  version: string;
  locale: string;
  path: string;
  body: string;
  frontmatter?: Record<string, unknown>;
}

export interface MemorySource extends ContentSource {
  setPage(page: MemoryPage, notify?: boolean): void;
  removePage(version: string, locale: string, path: string, notify?: boolean): void;
  setNavigation(version: string, locale: string, text: string | null, notify?: boolean): void;
  setManifest(text: string | null, notify?: boolean): void;
  reads: { getPage: number; listPages: number };
  watchers: number;
}

function toSourcePage(page: MemoryPage): SourcePage {
  const frontmatter = page.frontmatter ?? {};
  const heading = /^#\s+(.+)$/m.exec(page.body)?.[1];
  const title =
    typeof frontmatter.title === 'string' ? frontmatter.title : (heading ?? page.path.split('/').pop() ?? page.path);
  const text = `---\n${JSON.stringify(frontmatter)}\n---\n${page.body}`;
  return {
    path: page.path,
    version: page.version,
    locale: page.locale,
    frontmatter,
    body: page.body,
    title,
    ...(typeof frontmatter.description === 'string' ? { description: frontmatter.description } : {}),
    contentHash: contentHash(text),
    bodyLine: 4,
    file: `${page.version}/${page.locale === 'en' ? '' : `${page.locale}/`}${page.path}.md`,
    visibility: frontmatter.visibility === 'private' ? 'private' : 'public',
    problems: [],
  };
}

export function memorySource(init: {
  manifest?: Record<string, unknown> | null;
  pages: MemoryPage[];
  navigation?: Array<{ version: string; locale: string; nav: unknown }>;
  watch?: boolean;
}): MemorySource {
  let manifest: string | null = init.manifest ? JSON.stringify(init.manifest) : null;
  const pages = new Map<string, SourcePage>();
  const navigation = new Map<string, string>();
  const listeners = new Set<(change: ContentChange) => void>();
  const key = (version: string, locale: string, path = '') => `${version}|${locale}|${path}`;
  for (const page of init.pages) pages.set(key(page.version, page.locale, page.path), toSourcePage(page));
  for (const entry of init.navigation ?? []) navigation.set(key(entry.version, entry.locale), JSON.stringify(entry.nav));
  const notifyAll = (change: ContentChange) => {
    for (const listener of listeners) listener(change);
  };

  const source: MemorySource = {
    kind: 'repository',
    reads: { getPage: 0, listPages: 0 },
    get watchers() {
      return listeners.size;
    },
    async readManifest() {
      return manifest === null ? null : { text: manifest, file: 'kit.json' };
    },
    async listPages(version, locale) {
      source.reads.listPages += 1;
      return [...pages.values()]
        .filter((page) => page.version === version && page.locale === locale)
        .sort((a, b) => a.path.localeCompare(b.path));
    },
    async getPage(version, locale, path) {
      source.reads.getPage += 1;
      return pages.get(key(version, locale, path)) ?? null;
    },
    async readNavigation(version, locale) {
      const text = navigation.get(key(version, locale));
      return text === undefined ? null : { text, file: `${version}/navigation.json` };
    },
    async listSkills() {
      return [];
    },
    async readAsset() {
      return null;
    },
    async openFile() {
      return null;
    },
    async problems() {
      return [{ rule: 'source.unreadable', severity: 'warning', message: 'one folder could not be read' }];
    },
    setPage(page, notify = true) {
      pages.set(key(page.version, page.locale, page.path), toSourcePage(page));
      if (notify) notifyAll({ kind: 'page', version: page.version, locale: page.locale, path: page.path });
    },
    removePage(version, locale, path, notify = true) {
      pages.delete(key(version, locale, path));
      if (notify) notifyAll({ kind: 'page', version, locale, path });
    },
    setNavigation(version, locale, text, notify = true) {
      if (text === null) navigation.delete(key(version, locale));
      else navigation.set(key(version, locale), text);
      if (notify) notifyAll({ kind: 'navigation', version, locale });
    },
    setManifest(text, notify = true) {
      manifest = text;
      if (notify) notifyAll({ kind: 'manifest' });
    },
  };
  if (init.watch !== false) {
    source.watch = (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
  }
  return source;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

/**
 * Renders headings and paragraphs only; counts renders so tests can see the cache. Its fingerprint
 * is fixed: every small renderer renders alike, as two processes of one release do.
 */
export function smallRenderer(): PageRenderer & { renders: string[]; contexts: RenderContext[] } {
  const renderer = {
    renders: [] as string[],
    contexts: [] as RenderContext[],
    async fingerprint() {
      return 'small-renderer';
    },
    async render(page: SourcePage, context: RenderContext): Promise<RenderedPage> {
      renderer.renders.push(`${page.version}/${page.locale}/${page.path}`);
      renderer.contexts.push(context);
      const markdown = page.body.replaceAll('{{version}}', context.versionSegment);
      const sections: PageSection[] = [];
      let current: PageSection = { heading: '', headingPath: [], depth: 0, text: '' };
      const stack: Array<{ depth: number; text: string }> = [];
      let fenced = false;
      for (const line of markdown.split('\n')) {
        if (line.startsWith('```')) fenced = !fenced;
        const heading = fenced ? null : /^(#{1,6})\s+(.+)$/.exec(line);
        if (heading) {
          sections.push(current);
          const depth = heading[1]!.length;
          const text = heading[2]!.trim();
          while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
          stack.push({ depth, text });
          current = { heading: text, headingPath: stack.map((s) => s.text), anchor: slug(text), depth, text: '' };
        } else if (line.trim() !== '') {
          current.text = `${current.text} ${line.trim()}`.trim();
        }
      }
      sections.push(current);
      const named = sections.filter((section) => section.heading !== '' || section.text !== '');
      return {
        html: `<article>${markdown}</article>`,
        toc: named.filter((s) => s.anchor).map((s) => ({ depth: s.depth, text: s.heading, id: s.anchor! })),
        markdown,
        sections: named,
        anchors: named.flatMap((s) => (s.anchor ? [s.anchor] : [])),
        links: [],
        problems: page.body.includes('<Unknown')
          ? [{ rule: 'components.unknown', severity: 'error', message: 'Unknown component <Unknown>.' }]
          : [],
      };
    },
  };
  return renderer;
}

/** Finds sections containing every query word; remembers what it indexed. */
export function substringSearch(): SearchDriver & { indexed: Array<{ scope: SearchScope; sections: SearchSection[] }> } {
  const scopes = new Map<string, SearchSection[]>();
  const driver = {
    name: 'substring',
    indexed: [] as Array<{ scope: SearchScope; sections: SearchSection[] }>,
    async index(scope: SearchScope, sections: SearchSection[]) {
      driver.indexed.push({ scope, sections });
      scopes.set(JSON.stringify(scope), sections);
    },
    async search(scope: SearchScope, query: string, options: { limit: number }): Promise<SearchHit[]> {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const sections = scopes.get(JSON.stringify(scope)) ?? [];
      return sections
        .map((section) => {
          const haystack = `${section.title} ${section.heading} ${section.text}`.toLowerCase();
          const score = words.filter((word) => haystack.includes(word)).length;
          return { section, score };
        })
        .filter((entry) => entry.score === words.length)
        .slice(0, options.limit)
        .map(({ section, score }) => ({
          title: section.title,
          path: section.path,
          url: section.url,
          markdown_url: section.markdownUrl,
          heading: section.heading || null,
          snippet: section.text.slice(0, 80),
          description: section.description ?? null,
          score,
        }));
    },
    /** The paths the scope's index holds, as a client index body. */
    async clientIndex(scope: SearchScope) {
      const sections = scopes.get(JSON.stringify(scope));
      if (!sections) return null;
      return { body: JSON.stringify([...new Set(sections.map((section) => section.path))]), contentType: 'application/json' };
    },
  };
  return driver;
}
