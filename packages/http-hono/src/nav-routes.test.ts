import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ReaderNavListing } from '@kit/render';
import { afterAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const STAFF = { authorization: 'Bearer staff' };
const NAV = '/big/_kit/nav/current/en';

/**
 * An unversioned set `big` at /big: group `All` holds 320 public pages with the private page
 * `secret` among them (after p099) and a nested group `Nested` last; group `Staff only` holds
 * only a private page, so a guest does not see the group at all.
 */
const root = mkdtempSync(join(tmpdir(), 'kit-nav-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function write(name: string, text: string) {
  mkdirSync(dirname(join(root, name)), { recursive: true });
  writeFileSync(join(root, name), text);
}
const publicPages = Array.from({ length: 320 }, (_, index) => `p${String(index).padStart(3, '0')}`);
for (const path of [...publicPages, 'n1', 'n2']) write(`big/${path}.md`, `# Page ${path}\n\nText.\n`);
write('big/secret.md', '---\nvisibility: private\n---\n# Zeppelin plans\n\nSecret.\n');
write('big/staff-notes.md', '---\nvisibility: private\n---\n# Staff notes\n\nSecret.\n');
write('big/kit.json', JSON.stringify({ name: 'Big' }));
write(
  'big/navigation.json',
  JSON.stringify({
    groups: [
      {
        label: 'All',
        pages: [
          ...publicPages.slice(0, 100),
          'secret',
          ...publicPages.slice(100),
          { label: 'Nested', pages: ['n1', 'n2'] },
        ],
      },
      { label: 'Staff only', pages: ['staff-notes'] },
    ],
  }),
);

for (const path of ['a', 'b', 'c']) write(`tabbed/${path}.md`, `# Page ${path}\n`);
write('tabbed/kit.json', JSON.stringify({ name: 'Tabbed', landing: 'a' }));
write(
  'tabbed/navigation.json',
  JSON.stringify({
    tabs: [
      { label: 'Guides', groups: [{ label: 'Start', pages: ['a', 'b'] }] },
      { label: 'API', groups: [{ label: 'Users', pages: ['c'] }] },
    ],
  }),
);

const kit = fixtureKit(
  {
    default: 'big',
    sets: {
      big: { route: { prefix: 'big' }, source: { path: 'big' } },
      tabbed: { route: { prefix: 'tabbed' }, source: { path: 'tabbed' } },
    },
  },
  { root },
);
const app = createKitApp({ kit, cacheDir: null });

async function listing(query: string, headers: Record<string, string> = {}): Promise<ReaderNavListing> {
  const response = await app.request(`${NAV}.json?${query}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as ReaderNavListing;
}

describe('the navigation JSON of a group', () => {
  it('answers a group a page at a time, never more than 100 entries', async () => {
    const first = await listing('group=0');
    expect(first.group).toEqual({ id: '0', label: 'All' });
    expect(first.total).toBe(321);
    expect(first.items).toHaveLength(100);
    expect(first.items[0]).toEqual({ kind: 'page', title: 'Page p000', path: 'p000', url: '/big/p000' });
    expect(first.next).toBe(100);
    const last = await listing('group=0&offset=300&limit=1000');
    expect(last.items).toHaveLength(21);
    expect(last.next).toBeNull();
    expect(last.items.at(-1)).toEqual({
      kind: 'group',
      id: '0.320',
      label: 'Nested',
      count: 2,
      url: `${NAV}?group=0.320`,
    });
    expect((await listing('group=0&limit=1000')).items).toHaveLength(100);
    expect((await listing('group=0.320')).items.map((item) => item.kind === 'page' && item.path)).toEqual(['n1', 'n2']);
  });

  it('never shows a guest a private page, or a group that holds only private pages', async () => {
    let text = '';
    for (let offset = 0; offset < 400; offset += 100) {
      text += await (await app.request(`${NAV}.json?group=0&offset=${offset}`)).text();
    }
    text += await (await app.request(`${NAV}.json`)).text();
    for (const secret of ['secret', 'Zeppelin', 'staff-notes', 'Staff']) expect(text).not.toContain(secret);
    const hidden = await app.request(`${NAV}.json?group=1`);
    expect(hidden.status).toBe(404);
    const unknown = await app.request(`${NAV}.json?group=7`);
    // A hidden group answers exactly as one that does not exist.
    expect((await hidden.json()).error).toBe((await unknown.json()).error);
  });

  it('shows a reader viewKit admits the private pages, privately', async () => {
    const staff = await app.request(`${NAV}.json?group=0`, { headers: STAFF });
    expect(staff.headers.get('cache-control')).toContain('private');
    const body = (await staff.json()) as ReaderNavListing;
    expect(body.total).toBe(322);
    expect(body.items).toHaveLength(100);
    expect((await listing('group=0&offset=100&limit=1', STAFF)).items[0]).toMatchObject({ path: 'secret' });
    expect((await listing('group=1', STAFF)).items).toEqual([
      { kind: 'page', title: 'Staff notes', path: 'staff-notes', url: '/big/staff-notes' },
    ]);
  });

  it('answers an unknown group, version or locale with a 404 that says what is missing', async () => {
    for (const query of ['group=9', 'group=0.5', 'group=abc', 'group=0.320.0']) {
      const response = await app.request(`${NAV}.json?${query}`);
      expect(response.status, query).toBe(404);
      const body = await response.json();
      expect(body.error).toBe('navigation.group_not_found');
      expect(body.message).toContain(`No navigation group \`${new URLSearchParams(query).get('group')}\``);
    }
    expect((await app.request('/big/_kit/nav/9.x/en.json?group=0')).status).toBe(404);
    expect((await app.request('/big/_kit/nav/current/xx.json?group=0')).status).toBe(404);
  });

  it('asks a guest of an auth set to sign in, as the pages do', async () => {
    const authApp = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, access: { mode: 'auth' } } },
      }),
      cacheDir: null,
    });
    const guest = await authApp.request('/docs/_kit/nav/3.x/en.json?group=0');
    expect(guest.status).toBe(401);
    expect(await guest.text()).not.toContain('Installation');
    const reader = await authApp.request('/docs/_kit/nav/3.x/en.json?group=0', {
      headers: { authorization: 'Bearer reader' },
    });
    expect(reader.status).toBe(200);
  });
});

describe('the navigation JSON of a tabbed navigation', () => {
  it('lists the tabs at the top, then the groups of a tab and their pages by the same keys', async () => {
    const top = (await (await app.request('/tabbed/_kit/nav/current/en.json')).json()) as ReaderNavListing;
    expect(top.group).toBeNull();
    expect(top.items).toEqual([
      { kind: 'group', id: '0', label: 'Guides', count: 1, url: '/tabbed/_kit/nav/current/en?group=0' },
      { kind: 'group', id: '1', label: 'API', count: 1, url: '/tabbed/_kit/nav/current/en?group=1' },
    ]);
    const users = (await (await app.request('/tabbed/_kit/nav/current/en.json?group=1.0')).json()) as ReaderNavListing;
    expect(users.group).toEqual({ id: '1.0', label: 'Users' });
    expect(users.trail.map((step) => step.href)).toEqual([
      '/tabbed/_kit/nav/current/en',
      '/tabbed/_kit/nav/current/en?group=1',
    ]);
    expect(users.items).toEqual([{ kind: 'page', title: 'Page c', path: 'c', url: '/tabbed/c' }]);
  });
});

describe('the navigation page (without the script)', () => {
  it('lists a group a page at a time in the site frame, linking the pages before and after', async () => {
    const response = await app.request(`${NAV}?group=0&offset=100`, { headers: HTML });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<h1>All</h1>');
    expect(html).toContain('<a class="kit-nav-link" href="/big/p100" data-path="p100"><span>Page p100</span></a>');
    expect(html).toContain(`href="${NAV}?group=0" rel="prev"`);
    expect(html).toContain(`href="${NAV}?group=0&amp;offset=200" rel="next"`);
    expect(html).toContain(`<li><a href="${NAV}">Documentation</a></li>`);
    expect(html).not.toContain('Zeppelin');
    const nested = await (await app.request(`${NAV}?group=0&offset=300`, { headers: HTML })).text();
    expect(nested).toContain(`href="${NAV}?group=0.320"><span>Nested</span><span class="kit-nav-count">2</span>`);
    expect(nested).not.toContain('rel="next"');
  });

  it('answers a browser asking for an unknown group with the 404 page', async () => {
    const response = await app.request(`${NAV}?group=42`, { headers: HTML });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Page not found');
  });
});

describe('a page of a large set', () => {
  it('carries a bounded sidebar whose links lead to the navigation pages', async () => {
    const html = await (await app.request('/big/p250', { headers: HTML })).text();
    const nav = /<nav class="kit-nav"[\s\S]*?<\/nav>/.exec(html)![0];
    expect(nav).toContain(`data-kit-nav="${NAV}"`);
    expect(nav).toContain('<a class="kit-nav-link" href="/big/p250" data-path="p250" aria-current="page">');
    expect(nav.match(/class="kit-nav-link"/g)!.length).toBeLessThanOrEqual(40);
    expect(nav).toContain(`href="${NAV}?group=0" data-kit-nav-more="0" data-offset="0" data-end="230"`);
    // Previous and next still follow the whole navigation.
    expect(html).toContain('<a class="kit-pager-prev" href="/big/p249" rel="prev">');
    expect(html).toContain('<a class="kit-pager-next" href="/big/p251" rel="next">');
  });
});
