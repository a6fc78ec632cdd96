import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ValidationReport, validateFrontmatter } from './documents.js';
import { parseJsonText } from './json-text.js';
import {
  MANIFEST_SCHEMA_URL,
  manifestSchemaUrl,
  readablePath,
  rebaseSchema,
  schemaNames,
  schemas,
  upgradedManifestSchema,
  validateAgainstSchema,
  withManifestSchema,
} from './registry.js';

const root = join(import.meta.dirname, '../../../..');
const corpus = `${process.env.KIT_SHARED_DIR}/corpora/laravel`;
const files = {
  larecipe: 'kit.json',
  navigation: 'navigation.json',
  frontmatter: 'frontmatter.json',
  validate: 'validate.json',
} as const;

describe('schemas', () => {
  it('are the JSON files of the top-level schemas folder', () => {
    for (const name of schemaNames) {
      expect(schemas[name]).toEqual(JSON.parse(readFileSync(join(root, 'schemas', files[name]), 'utf8')));
    }
  });

  it('carry draft 2020-12 and their canonical $id', () => {
    for (const name of schemaNames) {
      expect(schemas[name].$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schemas[name].$id).toBe(`https://kit.dev/schemas/3.x/${files[name]}`);
    }
    expect(MANIFEST_SCHEMA_URL).toBe(schemas.larecipe.$id);
  });

  it('describe every manifest key of the specification except credit, and the reader strings', () => {
    const properties = Object.keys(schemas.larecipe.properties as object);
    expect(properties).toEqual([
      '$schema',
      'name',
      'description',
      'logo',
      'favicon',
      'repository',
      'theme',
      'versions',
      'locales',
      'landing',
      'navbar',
      'footer',
      'redirects',
      'assets',
      'inserts',
      'integrations',
      'agents',
      'provenance',
      'pageActions',
      'strings',
    ]);
    expect(schemas.larecipe.additionalProperties).toBe(true);
  });

  it('accept credit and any other unknown top-level key in a manifest', () => {
    expect(validateAgainstSchema('larecipe', { credit: false, 'x-anything': { a: 1 } })).toEqual([]);
  });

  it("names the manifest schema under the service's own base address", () => {
    expect(manifestSchemaUrl('https://docs.acme.dev/')).toBe('https://docs.acme.dev/schemas/3.x/kit.json');
    expect(manifestSchemaUrl('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000/schemas/3.x/kit.json');
  });

  it('upgrades a missing, fixed kit.dev or older-line $schema and keeps a current or foreign one', () => {
    const target = 'https://docs.acme.dev/schemas/3.x/kit.json';
    expect(upgradedManifestSchema(undefined, target)).toBe(target);
    expect(upgradedManifestSchema('', target)).toBe(target);
    expect(upgradedManifestSchema(42, target)).toBe(target);
    expect(upgradedManifestSchema('https://kit.dev/schemas/3.x/kit.json', target)).toBe(target);
    expect(upgradedManifestSchema('https://docs.acme.dev/schemas/2.x/larecipe.json', target)).toBe(target);
    expect(upgradedManifestSchema(target, target)).toBeNull();
    expect(upgradedManifestSchema('http://127.0.0.1:4000/schemas/3.x/kit.json', target)).toBeNull();
    expect(upgradedManifestSchema('https://docs.acme.dev/docs/schemas/larecipe.json', target)).toBeNull();
    expect(upgradedManifestSchema('https://example.com/my-own-schema.json', target)).toBeNull();
  });

  it('puts an added $schema first and keeps every other key as it was', () => {
    const target = 'https://docs.acme.dev/schemas/3.x/kit.json';
    const manifest = { name: 'Acme', 'x-team': 'docs' };
    expect(Object.keys(withManifestSchema(manifest, target))).toEqual(['$schema', 'name', 'x-team']);
    const current = { $schema: target, name: 'Acme' };
    expect(withManifestSchema(current, target)).toBe(current);
  });

  it('can be served from another origin', () => {
    const served = rebaseSchema('larecipe', 'https://docs.acme.dev/schemas/3.x');
    expect(served.$id).toBe('https://docs.acme.dev/schemas/3.x/kit.json');
    expect(schemas.larecipe.$id).toBe('https://kit.dev/schemas/3.x/kit.json');
  });
});

describe('the Laravel corpus', () => {
  it('has a valid manifest', () => {
    expect(validateAgainstSchema('larecipe', JSON.parse(readFileSync(join(corpus, 'kit.json'), 'utf8')))).toEqual([]);
  });

  const navigationFiles = readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('navigation.json'),
  );

  it('has a navigation file per version', () => {
    expect(navigationFiles.sort()).toEqual(['11.x/navigation.json', '12.x/navigation.json', '13.x/navigation.json']);
  });

  it.each(navigationFiles)('has a valid %s', (file) => {
    expect(validateAgainstSchema('navigation', JSON.parse(readFileSync(join(corpus, file), 'utf8')))).toEqual([]);
  });
});

describe('validateAgainstSchema messages', () => {
  it('names the key path, what was found and the allowed values', () => {
    expect(
      validateAgainstSchema('larecipe', { theme: { radius: 'sof', acent: 'red' }, versions: [5] }),
    ).toMatchInlineSnapshot(`
      [
        {
          "fix": "Rename \`acent\` to \`accent\`.",
          "message": "\`theme\` has an unknown key \`acent\`; allowed keys: \`accent\`, \`radius\`, \`fonts\`, \`mode\`.",
          "path": "theme.acent",
          "pointer": "/theme/acent",
        },
        {
          "fix": "Use "soft".",
          "message": "\`theme.radius\` must be one of "sharp", "soft" (found "sof").",
          "path": "theme.radius",
          "pointer": "/theme/radius",
        },
        {
          "message": "\`versions[0]\` must be a string or an object (found 5).",
          "path": "versions[0]",
          "pointer": "/versions/0",
        },
      ]
    `);
  });

  it('quotes keys with dots in paths', () => {
    expect(readablePath('/inserts/article.after/0')).toBe('inserts["article.after"][0]');
    expect(readablePath('/a~1b/c~0d')).toBe('["a/b"]["c~d"]');
    expect(readablePath('')).toBe('');
  });

  it('explains navigation entries by the shape they look like', () => {
    const issues = validateAgainstSchema('navigation', {
      groups: [
        {
          label: 'A',
          pages: [
            '/intro.md',
            { path: 'b', titel: 'B' },
            { label: 'Nested' },
            { label: 'Evil', href: 'javascript:x' },
            4,
          ],
        },
      ],
    });
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['groups[0].pages[0]', expect.stringContaining('must be a page path without a leading /, without .md')],
      ['groups[0].pages[1].titel', '`groups[0].pages[1]` has an unknown key `titel`; allowed keys: `path`, `title`.'],
      ['groups[0].pages[2]', '`groups[0].pages[2]` is missing the required key `pages`.'],
      [
        'groups[0].pages[3].href',
        expect.stringContaining('must be an http, https or mailto URL, or a path on the site'),
      ],
      ['groups[0].pages[4]', '`groups[0].pages[4]` must be a string or an object (found 4).'],
    ]);
  });

  it('requires groups or tabs at the top of a navigation file', () => {
    expect(validateAgainstSchema('navigation', {}).map((issue) => issue.message)).toEqual([
      'The document is missing the required key `groups`.',
    ]);
    expect(validateAgainstSchema('navigation', { tabs: [{ label: 'API', groups: [] }] })).toEqual([]);
  });
});

describe('validateFrontmatter', () => {
  it('accepts the documented keys and any other key', () => {
    expect(
      validateFrontmatter({
        title: 'Routing',
        description: 'How routes work.',
        sources: ['src/router/**/*.ts'],
        inserts: { 'article.after': false },
        visibility: 'private',
        order: 3,
      }),
    ).toEqual([]);
    expect(validateFrontmatter({ sources: 'src/app.ts', inserts: false })).toEqual([]);
  });

  it('reports wrong values with rule frontmatter.schema', () => {
    expect(validateFrontmatter({ title: 4, sources: [1], inserts: { sidebar: false } }, '3.x/routing.md')).toEqual([
      {
        rule: 'frontmatter.schema',
        severity: 'error',
        file: '3.x/routing.md',
        message: '`title` must be a string (found 4).',
        fix: 'Write `title` as plain text (quoted if it holds a colon), or remove the key to use the first H1.',
      },
      {
        rule: 'frontmatter.schema',
        severity: 'error',
        file: '3.x/routing.md',
        message: '`sources[0]` must be a string (found 1).',
        fix: 'Write `sources` as a path or glob relative to the project root, or a list of them (`sources: [src/router/**]`).',
      },
      {
        rule: 'frontmatter.schema',
        severity: 'error',
        file: '3.x/routing.md',
        message:
          '`inserts` has an unknown key `sidebar`; allowed keys: `header.actions`, `sidebar.before`, `sidebar.after`, `article.before`, `article.after`, `toc.after`, `footer`.',
        fix: 'Remove `sidebar`.',
      },
    ]);
  });
});

describe('the validation report schema', () => {
  it('accepts a report of the documented shape', () => {
    const report: ValidationReport = {
      ok: false,
      set: 'docs',
      version: null,
      summary: { errors: 1, warnings: 1 },
      issues: [
        { rule: 'manifest.schema', severity: 'error', message: 'x', file: 'kit.json', line: 3, column: 5, fix: 'y' },
        {
          rule: 'markdown.size',
          severity: 'warning',
          message: 'z',
          set: 'docs',
          version: '3.x',
          locale: 'en',
          page: 'routing',
        },
      ],
    };
    expect(validateAgainstSchema('validate', report)).toEqual([]);
  });

  it('refuses a report with an unknown severity or a missing summary', () => {
    const messages = validateAgainstSchema('validate', {
      ok: true,
      issues: [{ rule: 'links.unsafe', severity: 'info', message: 'x' }],
    }).map((issue) => issue.message);
    expect(messages).toEqual([
      'The document is missing the required key `summary`.',
      '`issues[0].severity` must be one of "error", "warning" (found "info").',
    ]);
  });
});

describe('parseJsonText', () => {
  it('records the position of every value', () => {
    const result = parseJsonText('{\n  "a": [1, {"b": true}],\n  "c/d": null\n}');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.positions.get('/a/1/b')).toEqual({ line: 2, column: 18 });
    expect(result.positions.get('/c~1d')).toEqual({ line: 3, column: 10 });
  });

  it.each([
    ['{"a": 1', "Expected ',' or '}' after a property value but found the end of the file", 1, 8],
    ["{'a': 1}", "Expected a double-quoted property name but found '''", 1, 2],
    ['{"a": 01}', "Expected ',' or '}' after a property value but found '1'", 1, 8],
    ['[1,]', 'Trailing comma before ]', 1, 3],
    ['{"a": "x\ny"}', 'Unescaped control character or line break inside a string', 1, 9],
    ['{} // comment', "Unexpected '/' after the end of the JSON value", 1, 4],
    ['{"a": tru}', "Unexpected 't': expected a value", 1, 7],
  ])('reports %j as invalid with a position', (text, message, line, column) => {
    expect(parseJsonText(text)).toEqual({ ok: false, message, line, column });
  });

  it('parses what JSON.parse parses', () => {
    const text = '{"a":[1,-2.5e3,"\\u00e9\\n",true,false,null],"b":{}}';
    const result = parseJsonText(text);
    expect(result.ok && result.value).toEqual(JSON.parse(text));
  });
});
