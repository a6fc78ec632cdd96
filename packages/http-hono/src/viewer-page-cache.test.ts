import { gunzipSync } from 'node:zlib';
import type { Kit } from '@kit/core';
import * as render from '@kit/render';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit, users } from './testing/fixture.js';

// Counts how often a reader page is laid out, to tell a kept page from one built again.
vi.mock('@kit/render', async (original) => {
  const actual = await original<typeof import('@kit/render')>();
  return { ...actual, renderReaderPage: vi.fn(actual.renderReaderPage) };
});
const layouts = vi.mocked(render.renderReaderPage);

const staff = { Authorization: 'Bearer staff' };
const reader = { Authorization: 'Bearer reader' };
/** What staff see of the private 4.x version and the private roadmap page on the 3.x queues page. */
const secrets = ['4.x', 'Roadmap'];

let kit: Kit;
let app: ReturnType<typeof createKitApp>;

beforeAll(async () => {
  // Watched, as a server's sets are: only a set whose source reports changes keeps responses.
  kit = fixtureKit({}, { watch: true });
  app = createKitApp({ kit, cacheDir: null });
  await app.request('/docs'); // builds the reader assets outside the tests' time
});

afterAll(async () => {
  await kit.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await app.request(path, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = response.headers.get('content-encoding') === 'gzip' ? gunzipSync(bytes).toString() : bytes.toString();
  return { response, text };
}

describe('pages kept for signed-in readers', () => {
  it('lays a signed-in reader’s page out once and answers the repeat from the cache, still private', async () => {
    const first = await get('/docs/queues', staff);
    const before = layouts.mock.calls.length;
    const again = await get('/docs/queues', staff);
    expect(layouts.mock.calls.length).toBe(before);
    expect(again.text).toBe(first.text);
    expect(again.response.headers.get('cache-control')).toBe('private, no-cache');
    expect(again.response.headers.get('etag')).toBeNull();
    expect(again.response.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(again.response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends the kept page gzipped to a client that accepts gzip, and plain to one that does not', async () => {
    const plain = await get('/docs/queues', staff);
    const zipped = await get('/docs/queues', { ...staff, 'Accept-Encoding': 'gzip' });
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    expect(zipped.response.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.text).toBe(plain.text);
    expect(zipped.response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('never hands one class of readers the page kept for another', async () => {
    // Staff (whom viewKit admits) first, so their page with the private version and page is the one kept.
    for (const encoding of [{}, { 'Accept-Encoding': 'gzip' }] as Array<Record<string, string>>) {
      const forStaff = await get('/docs/queues', { ...staff, ...encoding });
      for (const secret of secrets) expect(forStaff.text).toContain(secret);
      const forReader = await get('/docs/queues', { ...reader, ...encoding });
      const forGuest = await get('/docs/queues', encoding);
      for (const { text } of [forReader, forGuest]) {
        expect(text).toContain('Queues run jobs.');
        for (const secret of secrets) expect(text).not.toContain(secret);
      }
      expect(forGuest.response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    }
  });

  it('keeps one page for every reader who may see the same, and still refuses a private page to others', async () => {
    await get('/docs/4.x/queues', staff);
    const before = layouts.mock.calls.length;
    // Another staff member: same gate answers, same page.
    const colleague = await app.request('/docs/4.x/queues', { headers: staff });
    expect(await colleague.text()).toContain('Unreleased hyperdrive queues.');
    expect(layouts.mock.calls.length).toBe(before);
    expect((await app.request('/docs/4.x/queues', { headers: reader })).status).toBe(404);
    expect((await app.request('/docs/4.x/queues.md', { headers: reader })).status).toBe(404);
    expect((await app.request('/docs/4.x/queues.md', { headers: staff })).status).toBe(200);
  });

  it('asks the gates again on every request: a role taken away serves the other class’s page at once', async () => {
    // Staff's page (with the private version and page) is kept first; then the same token loses
    // the role that viewKit admits, as when an administrator demotes someone mid-session.
    for (const secret of secrets) expect((await get('/docs/queues', staff)).text).toContain(secret);
    expect((await app.request('/docs/4.x/queues', { headers: staff })).status).toBe(200);
    users.staff!.role = 'reader';
    try {
      for (const encoding of [{}, { 'Accept-Encoding': 'gzip' }] as Array<Record<string, string>>) {
        const demoted = await get('/docs/queues', { ...staff, ...encoding });
        expect(demoted.text).toContain('Queues run jobs.');
        for (const secret of secrets) expect(demoted.text).not.toContain(secret);
      }
      expect((await app.request('/docs/4.x/queues', { headers: staff })).status).toBe(404);
      expect((await app.request('/docs/4.x/queues.md', { headers: staff })).status).toBe(404);
    } finally {
      users.staff!.role = 'staff';
    }
    // Given back, the role brings back the page with what it may see.
    for (const secret of secrets) expect((await get('/docs/queues', staff)).text).toContain(secret);
    expect((await app.request('/docs/4.x/queues.md', { headers: staff })).status).toBe(200);
  });
});
