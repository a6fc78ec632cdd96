import type { PageSection } from '../ports/renderer.js';
import type { SearchSection } from '../ports/search-driver.js';

/**
 * The search sections of one rendered page: one per heading (plus the intro), with an id unique
 * within the page (`path#anchor`, then `~2`, `~3` where a page repeats an anchor) and the section's
 * site URL. The DocSet indexes these and validation sizes the client index from the same ones.
 *
 * @example
 * searchSectionsOf(page, rendered.sections, { url: '/docs/routing', markdownUrl: '/docs/routing.md' });
 */
export function searchSectionsOf(
  page: { path: string; title: string; description?: string },
  sections: PageSection[],
  urls: { url: string; markdownUrl: string },
): SearchSection[] {
  const seen = new Set<string>();
  return sections.map((section) => {
    let id = `${page.path}#${section.anchor ?? ''}`;
    for (let n = 2; seen.has(id); n++) id = `${page.path}#${section.anchor ?? ''}~${n}`;
    seen.add(id);
    return {
      id,
      path: page.path,
      title: page.title,
      heading: section.heading,
      headingPath: section.headingPath,
      ...(section.anchor ? { anchor: section.anchor } : {}),
      ...(page.description ? { description: page.description } : {}),
      text: section.text,
      url: section.anchor ? `${urls.url}#${section.anchor}` : urls.url,
      markdownUrl: urls.markdownUrl,
    };
  });
}
