import { describe, expect, it } from 'vitest';
import { isKitError, KitError } from '../errors/kit-error.js';
import { applyManifestPatch, PATCHABLE_MANIFEST_KEYS } from './patch.js';

function refusal(run: () => unknown): KitError {
  try {
    run();
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
  throw new Error('expected a KitError');
}

const base = {
  $schema: 'https://kit.dev/schemas/3.x/kit.json',
  name: 'Acme',
  'x-owner': 'docs-team',
  theme: { radius: 'soft', accent: '#0f766e' },
  versions: ['2.x'],
  agents: { llmsTxt: { description: 'Old summary', instructions: 'Search first.' } },
  repository: { url: 'https://github.com/acme/acme' },
};

describe('applyManifestPatch', () => {
  it('replaces, merges and removes keys as a JSON merge patch', () => {
    const { manifest, changed } = applyManifestPatch(base, {
      name: 'Acme Docs',
      theme: { radius: null, mode: 'dark' },
      versions: [{ id: '3.x' }, { id: '2.x', status: 'maintained' }],
    });
    expect(changed).toBe(true);
    expect(manifest).toEqual({
      ...base,
      name: 'Acme Docs',
      theme: { accent: '#0f766e', mode: 'dark' },
      versions: [{ id: '3.x' }, { id: '2.x', status: 'maintained' }],
    });
  });

  it('changes the agent description and keeps the instructions', () => {
    const { manifest } = applyManifestPatch(base, { agents: { llmsTxt: { description: 'New summary' } } });
    expect(manifest.agents).toEqual({ llmsTxt: { description: 'New summary', instructions: 'Search first.' } });
  });

  it('accepts every documented key', () => {
    const patch = {
      name: 'N',
      description: 'D',
      theme: { mode: 'light' },
      versions: ['1.x'],
      locales: ['en', 'ar'],
      navbar: { links: [{ label: 'Blog', href: 'https://acme.dev/blog' }] },
      redirects: [{ from: '/docs/old', to: '/docs/new', status: 308 }],
      agents: { llmsTxt: { description: 'Summary' } },
    };
    expect(Object.keys(patch).length).toBe(PATCHABLE_MANIFEST_KEYS.length);
    expect(() => applyManifestPatch(base, patch)).not.toThrow();
  });

  it('never changes its inputs', () => {
    const before = structuredClone(base);
    const patch = { theme: { radius: null } };
    applyManifestPatch(base, patch);
    expect(base).toEqual(before);
    expect(patch).toEqual({ theme: { radius: null } });
  });

  it('keeps unknown top-level keys and their order', () => {
    const { manifest } = applyManifestPatch(base, { description: 'Docs.' });
    expect(Object.keys(manifest)).toEqual([...Object.keys(base), 'description']);
    expect(manifest['x-owner']).toBe('docs-team');
  });

  it('says when a patch changes nothing', () => {
    expect(applyManifestPatch(base, { name: 'Acme' }).changed).toBe(false);
    expect(applyManifestPatch(base, { description: null }).changed).toBe(false);
  });

  it("starts a set without a manifest from one that names the service's schema", () => {
    const schemaUrl = 'https://docs.acme.dev/schemas/3.x/kit.json';
    const { manifest } = applyManifestPatch(undefined, { name: 'Fresh' }, { schemaUrl });
    expect(manifest).toEqual({ $schema: schemaUrl, name: 'Fresh' });
    expect(applyManifestPatch(undefined, { name: 'Fresh' }).manifest).toEqual({ name: 'Fresh' });
  });

  it('upgrades an outdated $schema when the patch changes the manifest, and only then', () => {
    const schemaUrl = 'https://docs.acme.dev/schemas/3.x/kit.json';
    const upgraded = applyManifestPatch(base, { description: 'Docs.' }, { schemaUrl });
    expect(upgraded.manifest.$schema).toBe(schemaUrl);
    expect(Object.keys(upgraded.manifest)[0]).toBe('$schema');
    expect(applyManifestPatch(base, { name: 'Acme' }, { schemaUrl })).toEqual({ manifest: base, changed: false });
    const { $schema: _, ...bare } = base;
    const added = applyManifestPatch(bare, { description: 'Docs.' }, { schemaUrl }).manifest;
    expect(Object.keys(added).slice(0, 2)).toEqual(['$schema', 'name']);
    expect(added.$schema).toBe(schemaUrl);
  });

  it('refuses analytics integrations and points at kit.config.ts', () => {
    const error = refusal(() =>
      applyManifestPatch(base, { integrations: { analytics: { ga4: { measurementId: 'G-1' } } } }),
    );
    expect(error.code).toBe('manifest.patch_forbidden');
    expect(error.message).toContain('`integrations`');
    expect(error.message).toContain('kit.config.ts');
  });

  it('refuses infrastructure keys and says they belong in kit.config.ts', () => {
    const error = refusal(() => applyManifestPatch(base, { route: { prefix: 'api' } }));
    expect(error.code).toBe('manifest.patch_forbidden');
    expect(error.message).toMatchInlineSnapshot(
      `"\`route\` cannot be changed by update_manifest: routes, drivers, AI settings and secrets belong in kit.config.ts, never in the manifest. update_manifest changes \`name\`, \`description\`, \`theme\`, \`versions\`, \`locales\`, \`navbar\`, \`redirects\`, \`agents.llmsTxt.description\`."`,
    );
  });

  it('refuses manifest keys outside the list and says to edit kit.json', () => {
    for (const key of ['logo', 'footer', 'repository', 'inserts', 'assets', 'landing', 'credit', '$schema']) {
      const error = refusal(() => applyManifestPatch(base, { [key]: null }));
      expect(error.code).toBe('manifest.patch_forbidden');
      expect(error.message).toContain(`\`${key}\``);
      expect(error.message).toContain('edit it in kit.json directly');
    }
  });

  it('refuses agent keys other than the llms.txt description', () => {
    expect(refusal(() => applyManifestPatch(base, { agents: { llmsTxt: { instructions: 'x' } } })).message).toContain(
      '`agents.llmsTxt.instructions`',
    );
    expect(refusal(() => applyManifestPatch(base, { agents: { skillMd: false } })).message).toContain(
      '`agents.skillMd`',
    );
    expect(refusal(() => applyManifestPatch(base, { agents: null })).code).toBe('manifest.patch_forbidden');
    expect(refusal(() => applyManifestPatch(base, { agents: { llmsTxt: null } })).code).toBe(
      'manifest.patch_forbidden',
    );
  });

  it('names every refused key when there are several', () => {
    const error = refusal(() => applyManifestPatch(base, { name: 'x', logo: 'a.svg', source: {} }));
    expect(error.message).toContain('`logo`, `source`');
    expect(error.details).toEqual({ keys: ['logo', 'source'] });
  });

  it('refuses a patch whose result breaks the schema and names the key path', () => {
    const error = refusal(() =>
      applyManifestPatch(base, { theme: { radius: 'round' }, redirects: [{ from: 'old', to: '/new' }] }),
    );
    expect(isKitError(error, 'manifest.invalid')).toBe(true);
    expect(error.message).toContain('nothing was changed');
    expect(error.message).toContain('`theme.radius` must be one of "sharp", "soft" (found "round")');
    expect(error.message).toContain('`redirects[0].from` must start with /');
  });

  it('still applies a valid patch to a manifest that was already invalid elsewhere', () => {
    const broken = { ...base, repository: { url: 'ftp://example.com' } };
    const { manifest } = applyManifestPatch(broken, { name: 'Fixed name' });
    expect(manifest.name).toBe('Fixed name');
  });

  it('refuses a patch that is not an object', () => {
    for (const patch of [null, ['name'], 'name', 3]) {
      expect(refusal(() => applyManifestPatch(base, patch)).code).toBe('argument.invalid');
    }
  });

  it('keeps a __proto__ key of a patch out of every prototype', () => {
    const patch = JSON.parse('{"theme": {"__proto__": {"polluted": true}}}');
    expect(() => applyManifestPatch(base, patch)).toThrow(KitError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
