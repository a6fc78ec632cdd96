import { describe, expect, it } from 'vitest';
import { view } from './__fixtures__/view.js';
import { renderReaderPage } from './layout.js';
import { renderNavPage } from './layout-nav-page.js';
import { SIDEBAR_FULL_ENTRIES, SIDEBAR_WINDOW } from './layout-sidebar-bounded.js';
import type { ReaderNavItem, ReaderSidebar } from './types.js';

const NAV_URL = '/docs/_kit/nav/3.x/en';

/**
 * A generated navigation of `pages` pages: groups of 40 pages, each group's last ten pages in a
 * nested group of their own, as a large real sidebar has.
 */
function bigSidebar(pages: number): ReaderSidebar {
  const groups: ReaderSidebar['groups'] = [];
  for (let group = 0; group * 40 < pages; group += 1) {
    const page = (index: number): ReaderNavItem => {
      const path = `g${group}/p${index}`;
      return { kind: 'page', title: `Page ${group}.${index}`, path, url: `/docs/${path}` };
    };
    const items: ReaderNavItem[] = [];
    for (let index = 0; index < 30; index += 1) items.push(page(index));
    items.push({
      kind: 'group',
      label: `Deeper ${group}`,
      id: `${group}.30`,
      items: Array.from({ length: 10 }, (_, offset) => page(30 + offset)),
    });
    groups.push({ label: `Group ${group}`, id: String(group), items });
  }
  return { groups, navUrl: NAV_URL };
}

function pageOf(sidebar: ReaderSidebar, path: string): string {
  return renderReaderPage(view({ sidebar }, { path, url: `/docs/${path}`, title: path, toc: [] }));
}

const navOf = (html: string) => /<nav class="kit-nav"[\s\S]*?<\/nav>/.exec(html)![0];

describe('the bounded sidebar of a large navigation', () => {
  it('keeps the page size bounded: doubling the navigation from 5,000 to 10,000 pages adds nothing', () => {
    const small = pageOf(bigSidebar(5_000), 'g60/p35');
    const large = pageOf(bigSidebar(10_000), 'g60/p35');
    expect(small.length).toBeLessThan(100_000);
    // The labels of the groups in the window are the same; only the "more" counts differ.
    expect(Math.abs(large.length - small.length)).toBeLessThan(200);
    const links = navOf(large).match(/<a /g)!.length;
    expect(links).toBeLessThanOrEqual(SIDEBAR_FULL_ENTRIES + 3 * (SIDEBAR_WINDOW + 2));
  });

  it('shows the current page, marked, with every group around it open and listing its entries', () => {
    const nav = navOf(pageOf(bigSidebar(5_000), 'g60/p35'));
    expect(nav).toContain('<a class="kit-nav-link" href="/docs/g60/p35" data-path="g60/p35" aria-current="page">');
    expect(nav).toContain('<h2 class="kit-nav-title" id="kit-nav-60">Group 60</h2>');
    expect(nav).toMatch(/<details class="kit-nav-group" open><summary>[\s\S]*?<span>Deeper 60<\/span>/);
    expect(nav).toContain('href="/docs/g60/p0"');
    expect(nav).toContain('href="/docs/g60/p39"');
  });

  it('leaves the entries of far groups out and links them, loadable by the script', () => {
    const nav = navOf(pageOf(bigSidebar(5_000), 'g60/p35'));
    expect(nav).toContain(`data-kit-nav="${NAV_URL}" data-kit-nav-more-text="Show {count} more"`);
    // A group out of the window: only the link to the rest of the top-level groups names it.
    expect(nav).not.toContain('Group 2<');
    expect(nav).toContain(`<p class="kit-nav-more"><a href="${NAV_URL}">Show 40 more</a></p>`);
    expect(nav).toContain(`<p class="kit-nav-more"><a href="${NAV_URL}?offset=80">Show 45 more</a></p>`);
    // A nested group that holds not the current page is collapsed, with no pages in it.
    expect(nav).toContain(`<details class="kit-nav-group" data-kit-nav-group="61.30"><summary>`);
    expect(nav).toContain('href="/docs/g61/p29"');
    expect(nav).not.toContain('href="/docs/g61/p35"');
    expect(nav).toContain(
      `<li class="kit-nav-more"><a href="${NAV_URL}?group=61.30" data-kit-nav-more="61.30" data-offset="0" data-end="10">Show 10 more</a></li>`,
    );
    // Far in the window, a top-level group shows only its "more" link.
    expect(nav).not.toContain('href="/docs/g41/p0"');
    expect(nav).toContain(`<a href="${NAV_URL}?group=41" data-kit-nav-more="41" data-offset="0" data-end="31">`);
  });

  it('shows a window of a long list around the current page, with the rest before and after linked', () => {
    const items: ReaderNavItem[] = Array.from({ length: 400 }, (_, index) => ({
      kind: 'page',
      title: `Page ${index}`,
      path: `p${index}`,
      url: `/docs/p${index}`,
    }));
    const nav = navOf(pageOf({ groups: [{ label: 'All', id: '0', items }], navUrl: NAV_URL }, 'p200'));
    expect(nav.match(/class="kit-nav-link"/g)).toHaveLength(SIDEBAR_WINDOW);
    expect(nav).toContain('aria-current="page"');
    expect(nav).toContain(`href="${NAV_URL}?group=0" data-kit-nav-more="0" data-offset="0" data-end="180"`);
    expect(nav).toContain(
      `href="${NAV_URL}?group=0&amp;offset=220" data-kit-nav-more="0" data-offset="220" data-end="400"`,
    );
  });

  it('leaves a sidebar within its bounds exactly as it was, and one without a navUrl whole', () => {
    expect(renderReaderPage(view({ sidebar: { ...view().sidebar, navUrl: NAV_URL } }))).toBe(renderReaderPage(view()));
    const { navUrl: _none, ...unlinked } = bigSidebar(1_000);
    const whole = navOf(pageOf(unlinked, 'g3/p0'));
    expect(whole.match(/class="kit-nav-link"/g)).toHaveLength(1_000);
    expect(whole).not.toContain('kit-nav-more');
  });
});

describe('the navigation page', () => {
  it('lists a group a page at a time in the site frame, with its trail and paging', () => {
    const html = renderNavPage({
      ...view(),
      listing: {
        group: { id: '1.4', label: 'Eloquent <ORM>' },
        trail: [
          { label: '', href: NAV_URL },
          { label: 'Guides', href: `${NAV_URL}?group=1` },
        ],
        items: [
          { kind: 'page', title: 'Relationships', path: 'eloquent/relationships', url: '/docs/eloquent/relationships' },
          { kind: 'group', id: '1.4.7', label: 'Casts', count: 12, url: `${NAV_URL}?group=1.4.7` },
          { kind: 'link', label: 'API', href: 'https://api.acme.test' },
        ],
        offset: 100,
        total: 250,
        next: 200,
      },
      previousUrl: `${NAV_URL}?group=1.4`,
      nextUrl: `${NAV_URL}?group=1.4&offset=200`,
    });
    expect(html).toContain('<title>Eloquent &lt;ORM&gt; · Acme</title>');
    expect(html).toContain('<h1>Eloquent &lt;ORM&gt;</h1>');
    expect(html).toContain(
      `<li><a href="${NAV_URL}">Documentation</a></li><li><a href="${NAV_URL}?group=1">Guides</a></li>`,
    );
    expect(html).toContain(
      '<a class="kit-nav-link" href="/docs/eloquent/relationships" data-path="eloquent/relationships">',
    );
    expect(html).toContain(`href="${NAV_URL}?group=1.4.7"><span>Casts</span><span class="kit-nav-count">12</span>`);
    expect(html).toContain(`href="${NAV_URL}?group=1.4&amp;offset=200" rel="next"`);
    expect(html).toContain(`href="${NAV_URL}?group=1.4" rel="prev"`);
    expect(html).toContain('<meta name="robots" content="noindex">');
  });
});
