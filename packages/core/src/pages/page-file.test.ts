import { describe, expect, it } from 'vitest';
import { contentHash } from '../hash/content-hash.js';
import { firstHeading, parsePageFile } from './page-file.js';

describe('parsePageFile', () => {
  it('keeps every frontmatter key and starts the body after the closing delimiter', () => {
    const text =
      '---\ntitle: Queues\ndescription: Jobs in the background.\nsources: [app/Jobs/*.php]\ninserts: false\ntags:\n  - async\n---\n\nBody\n';
    const page = parsePageFile(text, 'queues.md');
    expect(page.frontmatter).toEqual({
      title: 'Queues',
      description: 'Jobs in the background.',
      sources: ['app/Jobs/*.php'],
      inserts: false,
      tags: ['async'],
    });
    expect(page.body).toBe('\nBody\n');
    expect(page.bodyLine).toBe(9);
    expect(page.title).toBe('Queues');
    expect(page.description).toBe('Jobs in the background.');
    expect(page.contentHash).toBe(contentHash(text));
  });

  it('accepts ... as the closing delimiter and an empty block', () => {
    expect(parsePageFile('---\ntitle: Dots\n...\n# H\n').frontmatter).toEqual({ title: 'Dots' });
    const empty = parsePageFile('---\n---\n# Empty\n');
    expect(empty.frontmatter).toEqual({});
    expect(empty.problems).toEqual([]);
    expect(empty.bodyLine).toBe(3);
  });

  it('treats a leading BOM and CRLF line endings like a clean file', () => {
    const clean = '---\ntitle: Same\n---\n# Same\n';
    const windows = `\uFEFF${clean.replace(/\n/g, '\r\n')}`;
    expect(parsePageFile(windows)).toEqual(parsePageFile(clean));
  });

  it('does not read a thematic break later in the file as frontmatter', () => {
    const page = parsePageFile('# Title\n\n---\n\ntext\n');
    expect(page.frontmatter).toEqual({});
    expect(page.body).toBe('# Title\n\n---\n\ntext\n');
  });

  it('reports frontmatter that breaks the frontmatter schema on the line of its key, with a fix', () => {
    const cases: Array<[string, string]> = [
      ['inserts: maybe', '`inserts` must be'],
      ['inserts: 5', '`inserts` must be'],
      ['sources: [1]', '`sources[0]` must be a string'],
      ['sources: {a: 1}', '`sources` must be a string or a list'],
      ['sources: ""', '`sources` must not be empty'],
      ['title: ""', '`title` must not be empty'],
      ['title: 42', '`title` must be a string'],
    ];
    for (const [line, message] of cases) {
      const page = parsePageFile(`---\ndescription: Fine\n${line}\n---\n# Heading\n`, 'guide.md');
      expect(page.problems, line).toEqual([
        {
          rule: 'frontmatter.schema',
          severity: 'error',
          file: 'guide.md',
          line: 3,
          message: expect.stringContaining(message),
          fix: expect.stringContaining(`\`${line.split(':')[0]}`),
        },
      ]);
      expect(page.title, line).toBe('Heading');
    }
  });

  it('accepts the frontmatter the schema allows, unknown keys included', () => {
    const page = parsePageFile(
      '---\ntitle: Ok\nsources: src/app.ts\ninserts: { article.after: false }\nvisibility: private\norder: 3\n---\n',
    );
    expect(page.problems).toEqual([]);
    expect(parsePageFile('---\ninserts: true\nsources: [a.ts, "lib/**"]\n---\n').problems).toEqual([]);
  });

  it('reports the line of a YAML error counted from the top of the file', () => {
    const page = parsePageFile('---\ntitle: Ok\nlist:\n  - a\n - b\n---\n', 'p.md');
    expect(page.problems).toEqual([
      expect.objectContaining({ rule: 'frontmatter.schema', severity: 'error', file: 'p.md', line: 5 }),
    ]);
  });
});

const ALIAS_BOMB = [
  '---',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((name, index) => {
    const previous = 'abcdefghi'[index] as string;
    return `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`;
  }),
  'title: Bomb',
  '---',
  '# Laughs',
  '',
].join('\n');

describe('parsePageFile with hostile frontmatter', () => {
  it('reports a YAML alias bomb as frontmatter.schema and keeps the page, without its frontmatter', () => {
    const page = parsePageFile(ALIAS_BOMB, 'bomb.md');
    expect(page.frontmatter).toEqual({});
    expect(page.title).toBe('Laughs');
    expect(page.body).toBe('# Laughs\n');
    expect(page.problems).toEqual([
      expect.objectContaining({
        rule: 'frontmatter.schema',
        severity: 'error',
        file: 'bomb.md',
        message: expect.stringContaining('Excessive alias count'),
        fix: expect.stringContaining('aliases'),
      }),
    ]);
  });

  it('still reads frontmatter that uses a few aliases', () => {
    const page = parsePageFile('---\nbase: &b app/Jobs\nsources: [*b]\ntitle: Jobs\n---\nBody\n');
    expect(page.problems).toEqual([]);
    expect(page.frontmatter.sources).toEqual(['app/Jobs']);
  });
});

describe('firstHeading', () => {
  it('finds an ATX heading with closing hashes and a setext heading', () => {
    expect(firstHeading('intro\n\n# Hello world ##\n')).toBe('Hello world');
    expect(firstHeading('Setext title\n===\n\ntext\n')).toBe('Setext title');
  });

  it('skips headings inside fenced code and deeper headings', () => {
    expect(
      firstHeading('## Second level\n\n~~~\n# in tilde fence\n~~~\n\n````md\n```\n# still fenced\n````\n\n# Out\n'),
    ).toBe('Out');
  });

  it('does not take #hashtag text or an empty heading for a title', () => {
    expect(firstHeading('#hashtag\n#\n')).toBeNull();
  });
});
