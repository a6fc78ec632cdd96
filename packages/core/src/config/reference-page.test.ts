import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIT_ENV_VARIABLES } from './env.js';
import { knownKeyPaths, setOwnSchema } from './schema.js';

const page = readFileSync(join(import.meta.dirname, '../../../../apps/site/reference/configuration.md'), 'utf8');

/** How the page spells a key: set-only keys without their `sets.{key}.` prefix, shared ones at the top level. */
function documentedName(path: string): string | null {
  // Each event is described on the events reference page; the config page names the key once.
  if (path.startsWith('events.')) return 'events.{EventName}';
  if (!path.startsWith('sets.{key}.')) return path;
  const inSet = path.slice('sets.{key}.'.length);
  const first = inSet.split('.')[0]!;
  if (!(first in setOwnSchema)) return null;
  // Analytics tool fields are described by the manifest page; the config page names the group.
  return first === 'integrations' ? 'integrations.analytics' : inSet;
}

describe('the configuration reference page', () => {
  it('documents every key the config accepts', () => {
    const names = new Set(
      knownKeyPaths()
        .map(documentedName)
        .filter((name): name is string => name !== null),
    );
    const missing = [...names].filter((name) => !page.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('documents every environment variable', () => {
    expect(KIT_ENV_VARIABLES.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it('has the frontmatter a site page needs', () => {
    expect(page).toMatch(/^---\ntitle: Configuration\ndescription: .+\n---\n/);
  });
});
