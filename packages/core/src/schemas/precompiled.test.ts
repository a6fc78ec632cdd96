import { describe, expect, it } from 'vitest';
import { schemaFingerprint } from './compile-options.js';
import { compileValidator, precompiledValidator, schemaNames, schemas } from './registry.js';

const invalidDocuments: Record<(typeof schemaNames)[number], unknown[]> = {
  larecipe: [
    { theme: { radius: 'round' } },
    { versions: [{ id: 12, status: 'maybe' }], name: '' },
    { navbar: { links: [{ label: 'x' }] }, redirects: 'nope' },
    [],
  ],
  navigation: [{ groups: [{ pages: ['a'] }] }, { tabs: 'x' }, { groups: [{ label: 'A', pages: [{ path: 3 }] }] }],
  frontmatter: [{ title: 3 }, { title: 'x', description: ['list'] }, 'text'],
  validate: [{ ok: 'yes' }, { problems: [{}] }, null],
};

describe('validators compiled ahead of time', () => {
  it('exist for every schema as it is now (core build regenerates them; run `pnpm --filter @kit/core generate:validators`)', () => {
    for (const name of schemaNames) expect(precompiledValidator(name), name).not.toBeNull();
  });

  it('report the same errors as validators compiled at run time', () => {
    for (const name of schemaNames) {
      const ahead = precompiledValidator(name)!;
      const now = compileValidator(name);
      for (const document of invalidDocuments[name]) {
        expect(ahead(document)).toBe(now(document));
        expect(ahead.errors, `${name} ${JSON.stringify(document)}`).toEqual(now.errors);
        expect(now.errors?.length ?? 0).toBeGreaterThan(0);
      }
    }
  });

  it('are set aside when the schema changes, because its fingerprint changes', () => {
    const changed = { ...schemas.larecipe, required: ['name'] };
    expect(schemaFingerprint(changed)).not.toBe(schemaFingerprint(schemas.larecipe));
    expect(schemaFingerprint(structuredClone(schemas.larecipe))).toBe(schemaFingerprint(schemas.larecipe));
  });
});
