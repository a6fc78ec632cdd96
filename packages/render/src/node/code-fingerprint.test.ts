import { describe, expect, it } from 'vitest';
import { createComponentRegistry } from '../components/registry.js';
import { createNodeRenderer } from '../node.js';
import { createRenderer } from '../render/renderer.js';
import { renderCodeFingerprint } from './code-fingerprint.js';

const html = () => '<span>v</span>';
const markdown = () => 'v';

describe('the renderer fingerprint a shared cache store keys renders by', () => {
  it('is the same for two renderers of one install, and stable within a process', async () => {
    const code = await renderCodeFingerprint();
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    expect(await renderCodeFingerprint()).toBe(code);
    const registry = createComponentRegistry();
    const one = createNodeRenderer({ components: registry });
    const two = createNodeRenderer({ components: registry });
    expect(await one.fingerprint()).toBe(await two.fingerprint());
    expect(await one.fingerprint()).toContain(code);
  });

  it('changes when a component is registered or rendered by other code', async () => {
    const registry = createComponentRegistry();
    const renderer = createNodeRenderer({ components: registry });
    const bare = await renderer.fingerprint();
    registry.register('Badge', { html, markdown });
    const withBadge = await renderer.fingerprint();
    expect(withBadge).not.toBe(bare);

    const other = createComponentRegistry();
    other.register('Badge', { html: () => '<b>v</b>', markdown });
    expect(await createNodeRenderer({ components: other }).fingerprint()).not.toBe(withBadge);
  });

  it('changes with the code it is given, which is how a new release is told apart', async () => {
    const components = createComponentRegistry();
    const older = createRenderer({ components, codeFingerprint: async () => 'release-1' });
    const newer = createRenderer({ components, codeFingerprint: async () => 'release-2' });
    expect(await older.fingerprint!()).not.toBe(await newer.fingerprint!());
  });

  it('is not offered by a renderer that does not know its code, so its renders stay in the process', () => {
    expect(createRenderer().fingerprint).toBeUndefined();
  });
});
