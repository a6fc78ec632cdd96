import type { PageSection, SearchSection } from '@kit/core';

/** A page about to be indexed: where it lives and the sections `@kit/render` found in it. */
export interface IndexablePage {
  path: string;
  title: string;
  description?: string | null;
  /** Site URL of the page (no `#anchor`). */
  url: string;
  markdownUrl: string;
  sections: readonly PageSection[];
}

/**
 * Turns a rendered page into the sections a driver indexes. Each section's URL points at its
 * anchor; the intro points at the page.
 *
 * @example
 * toSearchSections({ path: 'routing', title: 'Routing', url: '/docs/13.x/routing',
 *   markdownUrl: '/docs/13.x/routing.md', sections: sectionsFromMarkdown(markdown) });
 */
export function toSearchSections(page: IndexablePage): SearchSection[] {
  const seen = new Map<string, number>();
  return page.sections.map((section) => {
    const anchor = section.anchor;
    // A page may repeat an anchor (two `<a name>` tags alike); ids must still be unique.
    const base = `${page.path}#${anchor ?? ''}`;
    const repeat = seen.get(base) ?? 0;
    seen.set(base, repeat + 1);
    const result: SearchSection = {
      id: repeat === 0 ? base : `${base}~${repeat + 1}`,
      path: page.path,
      title: page.title,
      heading: section.heading,
      headingPath: section.headingPath,
      text: section.text,
      url: anchor ? `${page.url}#${anchor}` : page.url,
      markdownUrl: page.markdownUrl,
    };
    if (anchor) result.anchor = anchor;
    if (page.description) result.description = page.description;
    return result;
  });
}
