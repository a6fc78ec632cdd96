import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

// A watched set's sidebar is made once per change for every reader who may see every page, and
// per request for anyone who sees less: what one reader was shown never reaches another, and a
// change reaches the next page served.

const HTML = { accept: 'text/html' };
const STAFF = { ...HTML, authorization: 'Bearer staff' };
const root = mkdtempSync(join(tmpdir(), 'kit-sidebar-kept-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function write(name: string, text: string) {
  mkdirSync(dirname(join(root, name)), { recursive: true });
  writeFileSync(join(root, name), text);
}
write('docs/kit.json', JSON.stringify({ name: 'Kept' }));
write('docs/index.md', '# Home\n\nWelcome.\n');
write('docs/guide.md', '# Guide\n\nText.\n');
write('docs/secret.md', '---\nvisibility: private\n---\n# Zeppelin plans\n\nSecret.\n');
const navigation = (pages: string[]) => JSON.stringify({ groups: [{ label: 'All', pages }] });
write('docs/navigation.json', navigation(['index', 'guide', 'secret']));

const kit = fixtureKit(
  { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } },
  { root, watch: true },
);
const app = createKitApp({ kit, cacheDir: null });
afterAll(() => kit.close?.());

const page = async (path: string, headers: Record<string, string>) => {
  const response = await app.request(`/docs/${path}`, { headers });
  expect(response.status).toBe(200);
  return response.text();
};

describe('the sidebar kept between requests', () => {
  it('shows staff the private page and guests never, whoever asked first', async () => {
    expect(await page('guide', STAFF)).toContain('Zeppelin plans');
    expect(await page('guide', HTML)).not.toContain('Zeppelin plans');
    expect(await page('index', HTML)).not.toContain('Zeppelin plans');
    expect(await page('index', STAFF)).toContain('Zeppelin plans');
  });

  it('follows a change of the navigation and a new page on the next request', async () => {
    expect(await page('guide', HTML)).not.toContain('Fresh page');
    write('docs/fresh.md', '# Fresh page\n\nNew.\n');
    write('docs/navigation.json', navigation(['index', 'fresh', 'guide', 'secret']));
    await expect.poll(async () => (await page('guide', HTML)).includes('Fresh page')).toBe(true);
    const html = await page('guide', HTML);
    // Previous and next follow the new order too: fresh comes right before guide.
    expect(html).toMatch(/rel="prev"[^>]*href="\/docs\/fresh"|href="\/docs\/fresh"[^>]*rel="prev"/);
  });
});
