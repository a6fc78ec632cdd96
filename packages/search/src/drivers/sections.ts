import type { PageSection, SearchSection } from '@kit/core';
import { searchSectionsOf } from '@kit/core/internal';

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
  return searchSectionsOf(
    { path: page.path, title: page.title, ...(page.description ? { description: page.description } : {}) },
    [...page.sections],
    { url: page.url, markdownUrl: page.markdownUrl },
  );
}
