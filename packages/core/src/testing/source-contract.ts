import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sha256Digest } from '../agents/skills.js';
import { contentHash } from '../hash/content-hash.js';
import type { SourcePage } from '../model/types.js';
import type { ContentSource } from '../ports/content-source.js';

/** One page of a fixture: the whole page file (frontmatter block and Markdown body) as an author wrote it. */
export interface SourceFixturePage {
  version: string;
  locale: string;
  /** Page path without `.md`; `index` is the landing page of a folder. */
  path: string;
  text: string;
}

/** A set's content described independently of where a source keeps it. */
export interface SourceFixture {
  /** The manifest (`kit.json`) as an object or as its text; absent for a set without one. */
  manifest?: Record<string, unknown> | string;
  pages: SourceFixturePage[];
  /** Navigation file text of one version and locale. */
  navigation?: Array<{ version: string; locale: string; text: string }>;
  /** Hand-written skill files; `name` is without `.md`. */
  skills?: Array<{ name: string; content: string }>;
  /** Files named relative to the manifest, such as the stylesheets of `assets.css`. */
  assets?: Array<{ name: string; content: string | Uint8Array }>;
}

/** Options of {@link runSourceContract}. */
export interface SourceContractOptions {
  /** Names the suite, e.g. `'repository source'`. */
  name: string;
  /** Builds a source holding exactly the fixture's content. Called once per test. */
  create(fixture: SourceFixture): ContentSource | Promise<ContentSource>;
  /** Runs after the whole suite, to remove what `create` made (temporary folders, databases). */
  cleanup?(): void | Promise<void>;
}

const routingText = [
  '---',
  'title: Routing',
  'sources:',
  '  - src/router.ts',
  'inserts: false',
  'owner: team-a',
  '---',
  '# Routing',
  '',
].join('\n');
const brokenText = ['---', 'title: Broken', 'title: Twice', '---', '# Still served', '', 'Body.', ''].join('\n');
const lfText = '---\ntitle: Line endings\n---\n\nFirst line\nSecond line\n';

const manifest = {
  name: 'Acme',
  versions: ['2.x', { id: '1.x', status: 'maintained' }],
  locales: ['en', { code: 'ar' }],
  assets: { css: ['theme.css'] },
  futureKey: { kept: true },
};

const navigation = JSON.stringify({ groups: [{ label: 'Start', pages: ['index', 'guides/setup'] }] }, null, 2);
const arabicNavigation = JSON.stringify({ groups: [{ label: 'البداية', pages: ['index'] }] });
const logo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);

/** A versioned, localized set that exercises every part of the port. */
export const contractFixture: SourceFixture = {
  manifest,
  pages: [
    {
      version: '2.x',
      locale: 'en',
      path: 'index',
      text: '---\ntitle: Welcome\ndescription: Start here.\n---\n\n# Hello\n',
    },
    { version: '2.x', locale: 'en', path: 'guides/setup', text: '# Setting up\n\nInstall it.\n' },
    { version: '2.x', locale: 'en', path: 'guides/index', text: 'A folder landing page without a heading.\n' },
    { version: '2.x', locale: 'en', path: 'routing', text: routingText },
    { version: '2.x', locale: 'en', path: 'secret', text: '---\nvisibility: private\n---\n# Secret\n' },
    { version: '2.x', locale: 'en', path: 'hidden', text: '---\nvisibility: Internal\n---\n# Hidden\n' },
    { version: '2.x', locale: 'en', path: 'open', text: '---\nvisibility: " Public "\n---\n# Open\n' },
    {
      version: '2.x',
      locale: 'en',
      path: 'code-first',
      text: '```md\n# Not the title\n```\n\n# Real title\n',
    },
    { version: '2.x', locale: 'en', path: 'broken', text: brokenText },
    { version: '2.x', locale: 'en', path: 'endings/lf', text: lfText },
    { version: '2.x', locale: 'en', path: 'endings/crlf', text: lfText.replace(/\n/g, '\r\n') },
    { version: '2.x', locale: 'ar', path: 'index', text: '# مرحبا\n\nأهلا.\n' },
    { version: '2.x', locale: 'ar', path: 'guides/setup', text: '# الإعداد\n' },
    { version: '1.x', locale: 'en', path: 'index', text: '# Old docs\n' },
    { version: '1.x', locale: 'en', path: 'legacy', text: '# Legacy\n' },
  ],
  navigation: [
    { version: '2.x', locale: 'en', text: navigation },
    { version: '2.x', locale: 'ar', text: arabicNavigation },
  ],
  skills: [
    { name: 'review', content: '# Review a page\n\nRead it first.\n' },
    { name: 'deploy', content: '# Deploy the docs\n' },
  ],
  assets: [
    { name: 'theme.css', content: ':root { --accent: #0a7; }\n' },
    { name: 'images/logo.png', content: logo },
  ],
};

/** A set without a manifest: one implicit version `current` and one locale `en`. */
export const unversionedFixture: SourceFixture = {
  pages: [
    { version: 'current', locale: 'en', path: 'index', text: '# Home\n' },
    { version: 'current', locale: 'en', path: 'about', text: '---\ntitle: About us\n---\nWho we are.\n' },
  ],
};

const flowPng = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
// Larger than any source keeps whole in memory (1 MiB), with a pattern so a reordered chunk shows.
const largeFile = Uint8Array.from({ length: 1536 * 1024 + 7 }, (_, index) => (index * 31 + (index >> 12)) & 0xff);

/**
 * A versioned, localized set with static files beside its pages, and files a source must never
 * serve (a dotfile, a key, the Markdown sources themselves).
 */
export const filesFixture: SourceFixture = {
  manifest: { name: 'Files', versions: ['2.x', '1.x'], locales: ['en', 'ar'], logo: 'brand/logo.svg' },
  pages: [
    { version: '2.x', locale: 'en', path: 'index', text: '# Home\n\n![Flow](./images/flow.png)\n' },
    { version: '2.x', locale: 'ar', path: 'index', text: '# الرئيسية\n' },
    { version: '1.x', locale: 'en', path: 'index', text: '# Old\n' },
  ],
  assets: [
    { name: 'brand/logo.svg', content: '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>' },
    { name: '2.x/images/flow.png', content: flowPng },
    { name: '2.x/ar/images/flow.png', content: flowPng.slice(0, 4) },
    { name: '2.x/downloads/large.bin', content: largeFile },
    { name: '2.x/.env', content: 'TOKEN=hidden\n' },
    { name: '2.x/keys/server.key', content: 'PRIVATE\n' },
    { name: '2.x/notes.md', content: '# Draft notes\n' },
  ],
};

/** Every byte of an opened file, whether the source handed out a stream or the bytes. */
async function readAll(body: ReadableStream<Uint8Array> | Uint8Array): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  const all = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

function fixturePage(fixture: SourceFixture, version: string, locale: string, path: string): SourceFixturePage {
  const page = fixture.pages.find((p) => p.version === version && p.locale === locale && p.path === path);
  if (!page) throw new Error(`The contract fixture has no page ${version}/${locale}/${path}.`);
  return page;
}

function byPath(pages: SourcePage[], path: string): SourcePage {
  const page = pages.find((p) => p.path === path);
  expect(page, `page ${path} is listed`).toBeDefined();
  return page!;
}

/**
 * Inside a `describe`: a function that builds a source from a fixture with `options.create`,
 * closing every source it built after each test and running `options.cleanup` after the suite.
 */
export function sourceOpener(options: Pick<SourceContractOptions, 'create' | 'cleanup'>) {
  const opened: ContentSource[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((source) => source.close?.()));
  });
  if (options.cleanup) afterAll(() => options.cleanup!());
  return async (fixture: SourceFixture) => {
    const source = await options.create(fixture);
    opened.push(source);
    return source;
  };
}

/** Builds a source over a fixture, closed after the test (see `sourceOpener`). */
type OpenSource = (fixture: SourceFixture) => Promise<ContentSource>;

/**
 * The contract every {@link ContentSource} keeps, as a vitest suite. A source package calls it from
 * a test file with a factory that stores a fixture its own way (files, database rows) and returns a
 * source over it; the suite then checks manifests, pages, frontmatter, titles, hashes, broken
 * frontmatter, navigation, skills and assets exactly as Kit's other packages rely on them.
 *
 * @example
 * // packages/source-fs/src/contract.test.ts
 * runSourceContract({ name: 'repository source', create: (fixture) => createFsSource({ root: writeFixture(fixture), setKey: 'docs' }) });
 */
export function runSourceContract(options: SourceContractOptions): void {
  describe(`${options.name} keeps the content-source contract`, () => {
    const open = sourceOpener(options);

    manifestTests(open);
    pageListTests(open);
    pageContentTests(open);
    navigationAndSkillTests(open);
    fileTests(open);
    problemTests(open);
  });
}

/** What the source says about itself and its manifest. */
function manifestTests(open: OpenSource): void {
  it('says whether it is a repository or a database source', async () => {
    const source = await open(contractFixture);
    expect(['repository', 'database']).toContain(source.kind);
  });

  it('returns the manifest with every key kept, unknown ones included', async () => {
    const source = await open(contractFixture);
    const file = await source.readManifest();
    expect(file).not.toBeNull();
    expect(JSON.parse(file!.text)).toEqual(manifest);
  });

  it('returns a manifest given as text with the same content', async () => {
    const text = '{\n  "name": "Raw",\n  "custom": [1, 2]\n}\n';
    const source = await open({ manifest: text, pages: unversionedFixture.pages });
    const file = await source.readManifest();
    expect(JSON.parse(file!.text)).toEqual({ name: 'Raw', custom: [1, 2] });
  });

  it('has no manifest when the set has none', async () => {
    const source = await open(unversionedFixture);
    expect(await source.readManifest()).toBeNull();
  });
}

/** Which pages a version and locale list, and reading one of them. */
function pageListTests(open: OpenSource): void {
  it('lists exactly the pages of one version and locale, ordered by path', async () => {
    const source = await open(contractFixture);
    const pages = await source.listPages('2.x', 'en');
    const expected = contractFixture.pages
      .filter((page) => page.version === '2.x' && page.locale === 'en')
      .map((page) => page.path)
      .sort();
    expect(pages.map((page) => page.path)).toEqual(expected);
    for (const page of pages) {
      expect(page.version).toBe('2.x');
      expect(page.locale).toBe('en');
    }
  });

  it('keeps versions and locales apart', async () => {
    const source = await open(contractFixture);
    expect((await source.listPages('2.x', 'ar')).map((page) => page.path)).toEqual(['guides/setup', 'index']);
    expect((await source.listPages('1.x', 'en')).map((page) => page.path)).toEqual(['index', 'legacy']);
    expect(await source.listPages('1.x', 'ar')).toEqual([]);
    expect((await source.getPage('2.x', 'ar', 'index'))?.title).toBe('مرحبا');
    expect(await source.getPage('1.x', 'en', 'routing')).toBeNull();
  });

  it('has no pages in a version or locale the manifest does not declare', async () => {
    const source = await open(contractFixture);
    expect(await source.listPages('9.x', 'en')).toEqual([]);
    expect(await source.listPages('2.x', 'fr')).toEqual([]);
    expect(await source.getPage('9.x', 'en', 'index')).toBeNull();
    expect(await source.getPage('2.x', 'fr', 'index')).toBeNull();
  });

  it('serves an unversioned set as version current in locale en', async () => {
    const source = await open(unversionedFixture);
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['about', 'index']);
    expect((await source.getPage('current', 'en', 'about'))?.title).toBe('About us');
  });

  it('reads one page exactly as the listing shows it', async () => {
    const source = await open(contractFixture);
    const listed = await source.listPages('2.x', 'en');
    for (const path of ['index', 'guides/setup', 'routing', 'broken']) {
      expect(await source.getPage('2.x', 'en', path)).toEqual(byPath(listed, path));
    }
  });

  it('answers null for a path that holds no page', async () => {
    const source = await open(contractFixture);
    for (const path of ['missing', 'guides', 'routing.md', 'guides/missing', '../1.x/legacy', '', 'ar/index']) {
      expect(await source.getPage('2.x', 'en', path), `getPage(${JSON.stringify(path)})`).toBeNull();
    }
  });
}

/** What a page holds: frontmatter, title, description, visibility, hash, and copies handed out. */
function pageContentTests(open: OpenSource): void {
  it('splits the frontmatter off the body and keeps keys Kit does not know', async () => {
    const source = await open(contractFixture);
    const page = await source.getPage('2.x', 'en', 'routing');
    expect(page?.frontmatter).toEqual({
      title: 'Routing',
      sources: ['src/router.ts'],
      inserts: false,
      owner: 'team-a',
    });
    expect(page?.body).toBe('# Routing\n');
    expect(page?.bodyLine).toBe(8);
    const plain = await source.getPage('2.x', 'en', 'guides/setup');
    expect(plain?.frontmatter).toEqual({});
    expect(plain?.body).toBe('# Setting up\n\nInstall it.\n');
    expect(plain?.bodyLine).toBe(1);
  });

  it('takes the title from frontmatter, else the first H1 outside code, else the last path segment', async () => {
    const source = await open(contractFixture);
    const pages = await source.listPages('2.x', 'en');
    expect(byPath(pages, 'index').title).toBe('Welcome');
    expect(byPath(pages, 'guides/setup').title).toBe('Setting up');
    expect(byPath(pages, 'code-first').title).toBe('Real title');
    expect(byPath(pages, 'guides/index').title).toBe('index');
  });

  it('takes the description from frontmatter', async () => {
    const source = await open(contractFixture);
    const pages = await source.listPages('2.x', 'en');
    expect(byPath(pages, 'index').description).toBe('Start here.');
    expect(byPath(pages, 'guides/setup').description).toBeUndefined();
  });

  it('marks a page private when its visibility is anything but public', async () => {
    const source = await open(contractFixture);
    const pages = await source.listPages('2.x', 'en');
    expect(byPath(pages, 'secret').visibility).toBe('private');
    expect(byPath(pages, 'hidden').visibility).toBe('private');
    expect(byPath(pages, 'open').visibility).toBe('public');
    expect(byPath(pages, 'routing').visibility).toBe('public');
  });

  it('hashes each page file as contentHash does, whatever its line endings', async () => {
    const source = await open(contractFixture);
    const pages = await source.listPages('2.x', 'en');
    for (const page of pages) {
      expect(page.contentHash, page.path).toBe(contentHash(fixturePage(contractFixture, '2.x', 'en', page.path).text));
    }
    expect(byPath(pages, 'endings/crlf').contentHash).toBe(byPath(pages, 'endings/lf').contentHash);
    expect(byPath(pages, 'endings/crlf').body).toBe(byPath(pages, 'endings/lf').body);
    expect(byPath(pages, 'index').contentHash).not.toBe(byPath(pages, 'routing').contentHash);
  });

  it('serves a page with broken frontmatter without it, reporting frontmatter.schema on the faulty line', async () => {
    const source = await open(contractFixture);
    const page = await source.getPage('2.x', 'en', 'broken');
    expect(page).not.toBeNull();
    expect(page!.frontmatter).toEqual({});
    expect(page!.title).toBe('Still served');
    expect(page!.body).toContain('Body.');
    expect(page!.problems).toEqual([
      expect.objectContaining({ rule: 'frontmatter.schema', severity: 'error', line: 3 }),
    ]);
    expect(byPath(await source.listPages('2.x', 'en'), 'routing').problems).toEqual([]);
  });

  it('hands out copies, so changing a page it returned changes nothing it serves later', async () => {
    const source = await open(contractFixture);
    const first = await source.getPage('2.x', 'en', 'routing');
    first!.frontmatter.title = 'Changed';
    (first!.frontmatter.sources as string[]).push('src/other.ts');
    const again = await source.getPage('2.x', 'en', 'routing');
    expect(again?.frontmatter).toEqual({
      title: 'Routing',
      sources: ['src/router.ts'],
      inserts: false,
      owner: 'team-a',
    });
  });
}

/** Navigation files and hand-written skills. */
function navigationAndSkillTests(open: OpenSource): void {
  it('reads the navigation file of each version and locale, and null where there is none', async () => {
    const source = await open(contractFixture);
    expect(JSON.parse((await source.readNavigation('2.x', 'en'))!.text)).toEqual(JSON.parse(navigation));
    expect(JSON.parse((await source.readNavigation('2.x', 'ar'))!.text)).toEqual(JSON.parse(arabicNavigation));
    expect(await source.readNavigation('1.x', 'en')).toBeNull();
    expect(await source.readNavigation('9.x', 'en')).toBeNull();
  });

  it('lists the hand-written skills by name', async () => {
    const source = await open(contractFixture);
    expect(await source.listSkills()).toEqual([
      { name: 'deploy', content: '# Deploy the docs\n' },
      { name: 'review', content: '# Review a page\n\nRead it first.\n' },
    ]);
    expect(await (await open(unversionedFixture)).listSkills()).toEqual([]);
  });
}

/** Assets and the static files beside the pages, and the names never opened. */
function fileTests(open: OpenSource): void {
  it('reads assets byte for byte by name, and nothing that is not one', async () => {
    const source = await open(contractFixture);
    const css = await source.readAsset('theme.css');
    expect(css && new TextDecoder().decode(css)).toBe(':root { --accent: #0a7; }\n');
    expect(Array.from((await source.readAsset('images/logo.png')) ?? [])).toEqual(Array.from(logo));
    expect(await source.readAsset('missing.css')).toBeNull();
    expect(await source.readAsset('../theme.css')).toBeNull();
    expect(await source.readAsset('/etc/passwd')).toBeNull();
  });

  it('opens the static files beside the pages with their size and content hash, byte for byte', async () => {
    const source = await open(filesFixture);
    const png = await source.openFile('2.x/images/flow.png');
    expect(png).toMatchObject({ size: flowPng.byteLength, contentHash: sha256Digest(flowPng) });
    expect(Array.from(await readAll(await png!.open()))).toEqual(Array.from(flowPng));
    const arabic = await source.openFile('2.x/ar/images/flow.png');
    expect(arabic?.size).toBe(4);
    const logoFile = await source.openFile('brand/logo.svg');
    expect(new TextDecoder().decode(await readAll(await logoFile!.open()))).toContain('<svg');
    expect(await source.openFile('2.x/images/missing.png')).toBeNull();
    expect(await source.openFile('1.x/images/flow.png')).toBeNull();
    expect(await source.openFile('2.x/images')).toBeNull();
  });

  it('hands out a large file whole and unchanged (sources stream what they need not buffer)', async () => {
    const source = await open(filesFixture);
    const large = await source.openFile('2.x/downloads/large.bin');
    expect(large).toMatchObject({ size: largeFile.byteLength, contentHash: sha256Digest(largeFile) });
    const bytes = await readAll(await large!.open());
    expect(bytes.byteLength).toBe(largeFile.byteLength);
    expect(sha256Digest(bytes)).toBe(sha256Digest(largeFile));
  });

  it('never opens a name that climbs out, a dotfile, a secret, a Markdown source or a structure file', async () => {
    const source = await open(filesFixture);
    for (const name of [
      '',
      '../2.x/images/flow.png',
      '2.x/../2.x/images/flow.png',
      './2.x/images/flow.png',
      '2.x//images/flow.png',
      '/2.x/images/flow.png',
      '2.x\\images\\flow.png',
      '/etc/passwd',
      '2.x/.env',
      '2.x/keys/server.key',
      '2.x/notes.md',
      '2.x/index.md',
      'kit.json',
      '2.x/navigation.json',
      '2.x/images/flow.png\u0000.txt',
    ]) {
      expect(await source.openFile(name), name).toBeNull();
    }
  });
}

/** The problems a well-formed set reports. */
function problemTests(open: OpenSource): void {
  it('reports no source problems for a well-formed set, page problems staying on their page', async () => {
    const source = await open(contractFixture);
    expect(source.problems ? await source.problems() : []).toEqual([]);
  });
}
