import { describe, expect, it } from 'vitest';
import { readManifestDocument, serializeManifest } from './document.js';
import { applyManifestPatch } from './patch.js';

const written = `{
  "$schema": "https://kit.dev/schemas/3.x/kit.json",
  "x-team": { "owner": "docs", "slack": "#docs" },
  "name": "Acme",
  "10": "an integer-like key",
  "theme": {
    "radius": "soft",
    "accent": "#0f766e"
  },
  "credit": false,
  "zz-last": [1, 2, 3]
}
`;

describe('manifest documents', () => {
  it('reads and writes a manifest back unchanged except for formatting', () => {
    const doc = readManifestDocument(written);
    expect(doc.problems).toEqual([]);
    expect(serializeManifest(doc.raw!, doc.keyOrder)).toBe(`{
  "$schema": "https://kit.dev/schemas/3.x/kit.json",
  "x-team": {
    "owner": "docs",
    "slack": "#docs"
  },
  "name": "Acme",
  "10": "an integer-like key",
  "theme": {
    "radius": "soft",
    "accent": "#0f766e"
  },
  "credit": false,
  "zz-last": [
    1,
    2,
    3
  ]
}
`);
  });

  it('keeps unknown top-level keys and key order through read, patch and write', () => {
    const doc = readManifestDocument(written);
    const { manifest } = applyManifestPatch(doc.raw, { name: 'Acme Docs', description: 'Docs for Acme.' });
    const out = serializeManifest(manifest, doc.keyOrder);
    expect(Object.keys(JSON.parse(out))).toContain('x-team');
    const order = [...out.matchAll(/^ {2}"([^"]+)":/gm)].map((match) => match[1]);
    expect(order).toEqual(['$schema', 'x-team', 'name', '10', 'theme', 'credit', 'zz-last', 'description']);
    expect(JSON.parse(out)['x-team']).toEqual({ owner: 'docs', slack: '#docs' });
    expect(JSON.parse(out).credit).toBe(false);
    expect(out.endsWith('}\n')).toBe(true);
  });

  it('writes two-space JSON with a trailing newline', () => {
    expect(serializeManifest({ name: 'Acme', theme: { radius: 'soft' } })).toBe(
      '{\n  "name": "Acme",\n  "theme": {\n    "radius": "soft"\n  }\n}\n',
    );
    expect(serializeManifest({})).toBe('{}\n');
  });

  it('reports invalid JSON with line and column instead of a document', () => {
    const doc = readManifestDocument('{\n  "name": "Acme",\n}\n');
    expect(doc.raw).toBeNull();
    expect(doc.problems).toMatchObject([{ rule: 'manifest.schema', severity: 'error', line: 2, column: 17 }]);
  });

  it('refuses a document that is not an object', () => {
    const doc = readManifestDocument('["a"]');
    expect(doc.raw).toBeNull();
    expect(doc.problems[0]!.message).toContain('must hold a JSON object, not a list');
  });

  it('ignores a byte order mark', () => {
    const doc = readManifestDocument('\uFEFF{"name":"Acme"}');
    expect(doc.raw).toEqual({ name: 'Acme' });
  });
});
