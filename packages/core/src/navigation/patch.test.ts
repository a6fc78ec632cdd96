import { describe, expect, it } from 'vitest';
import { KitError } from '../errors/kit-error.js';
import type { NavGroup, NavigationFile } from '../model/types.js';
import { applyNavigationPatch } from './patch.js';

function failure(run: () => unknown): KitError {
  try {
    run();
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
  throw new Error('expected a KitError');
}

const nav: { groups: NavGroup[] } = {
  groups: [
    { label: 'Getting Started', pages: ['installation', { path: 'configuration', title: 'Config' }] },
    {
      label: 'Guides',
      pages: [
        'routing',
        { label: 'Advanced', pages: ['advanced/caching'] },
        { label: 'API', href: 'https://example.com/api' },
      ],
    },
  ],
};

const tabbed: NavigationFile = {
  tabs: [
    { label: 'Guides', groups: [{ label: 'Start', pages: ['index'] }] },
    {
      label: 'Reference',
      groups: [
        { label: 'API', pages: ['api/users'] },
        { label: 'Start', pages: ['api/index'] },
      ],
    },
  ],
};

describe('applyNavigationPatch add', () => {
  it('appends a page to a group', () => {
    const result = applyNavigationPatch(nav, [{ op: 'add', path: 'deployment', group: 'Getting Started' }]);
    expect(result.groups[0]!.pages).toEqual(['installation', { path: 'configuration', title: 'Config' }, 'deployment']);
  });

  it('places a page after or before an entry, with a title', () => {
    const after = applyNavigationPatch(nav, [
      { op: 'add', path: 'middleware', title: 'Middleware', group: 'Guides', after: 'routing' },
    ]);
    expect(after.groups[1]!.pages[1]).toEqual({ path: 'middleware', title: 'Middleware' });
    const before = applyNavigationPatch(nav, [
      { op: 'add', path: 'start', group: 'Getting Started', before: 'installation' },
    ]);
    expect(before.groups[0]!.pages[0]).toBe('start');
    const afterGroup = applyNavigationPatch(nav, [{ op: 'add', path: 'x', group: 'Guides', after: 'Advanced' }]);
    expect(afterGroup.groups[1]!.pages[2]).toBe('x');
  });

  it('adds to a nested group and matches labels case-insensitively', () => {
    const result = applyNavigationPatch(nav, [{ op: 'add', path: 'advanced/queues', group: 'advanced' }]);
    expect(result.groups[1]!.pages[1]).toEqual({ label: 'Advanced', pages: ['advanced/caching', 'advanced/queues'] });
  });

  it('creates a group that does not exist yet at the end', () => {
    const result = applyNavigationPatch(nav, [{ op: 'add', path: 'webhooks', group: 'Integrations' }]);
    expect(result.groups.at(-1)).toEqual({ label: 'Integrations', pages: ['webhooks'] });
  });

  it('refuses a group label that looks like a typo and lists the groups', () => {
    const error = failure(() => applyNavigationPatch(nav, [{ op: 'add', path: 'x', group: 'Guide' }]));
    expect(error.code).toBe('navigation.group_not_found');
    expect(error.message).toBe(
      'No group "Guide" in the navigation. Did you mean "Guides"? Groups: "Getting Started", "Guides", "Guides › Advanced".',
    );
  });

  it('refuses a page that is already listed', () => {
    const error = failure(() =>
      applyNavigationPatch(nav, [{ op: 'add', path: '/routing.md', group: 'Getting Started' }]),
    );
    expect(error.code).toBe('navigation.page_exists');
    expect(error.message).toContain('{"op": "move"}');
  });

  it('names the entries of the group when the anchor is missing', () => {
    const error = failure(() => applyNavigationPatch(nav, [{ op: 'add', path: 'x', group: 'Guides', after: 'nope' }]));
    expect(error.code).toBe('navigation.page_not_found');
    expect(error.message).toContain('Its entries: "routing", "Advanced", "API"');
  });

  it('refuses a path that is not a page path', () => {
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'add', path: '../etc/passwd', group: 'Guides' }])).code).toBe(
      'page.invalid_path',
    );
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'add', path: '', group: 'Guides' }])).code).toBe(
      'argument.invalid',
    );
  });
});

describe('applyNavigationPatch move', () => {
  it('moves a page into another group and keeps its title', () => {
    const result = applyNavigationPatch(nav, [
      { op: 'move', path: 'configuration', group: 'Guides', after: 'routing' },
    ]);
    expect(result.groups[0]!.pages).toEqual(['installation']);
    expect(result.groups[1]!.pages.slice(0, 2)).toEqual(['routing', { path: 'configuration', title: 'Config' }]);
  });

  it('moves a page within its own group', () => {
    const result = applyNavigationPatch(nav, [
      { op: 'move', path: 'installation', group: 'Getting Started', after: 'configuration' },
    ]);
    expect(result.groups[0]!.pages).toEqual([{ path: 'configuration', title: 'Config' }, 'installation']);
  });

  it('lists the pages when the page to move is not in the navigation', () => {
    const error = failure(() => applyNavigationPatch(nav, [{ op: 'move', path: 'routng', group: 'Guides' }]));
    expect(error.code).toBe('navigation.page_not_found');
    expect(error.message).toBe(
      'No page "routng" in the navigation. Did you mean "routing"? Pages in the navigation: "installation", "configuration", "routing", "advanced/caching". To list a page that is not there yet, use {"op": "add"}.',
    );
  });
});

describe('applyNavigationPatch remove', () => {
  it('unlists a page wherever it is', () => {
    const result = applyNavigationPatch(nav, [{ op: 'remove', path: 'advanced/caching' }]);
    expect(result.groups[1]!.pages[1]).toEqual({ label: 'Advanced', pages: [] });
  });

  it('removes a group with its entries', () => {
    const result = applyNavigationPatch(nav, [{ op: 'remove', group: 'Advanced' }]);
    expect(result.groups[1]!.pages).toEqual(['routing', { label: 'API', href: 'https://example.com/api' }]);
  });

  it('refuses to remove what is not there', () => {
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'remove', path: 'nope' }])).code).toBe(
      'navigation.page_not_found',
    );
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'remove', group: 'Nope' }])).code).toBe(
      'navigation.group_not_found',
    );
  });
});

describe('applyNavigationPatch rename', () => {
  it('points an entry at a moved page and keeps its place and title', () => {
    const result = applyNavigationPatch(nav, [{ op: 'rename', path: 'configuration', to: 'setup/configuration' }]);
    expect(result.groups[0]!.pages[1]).toEqual({ path: 'setup/configuration', title: 'Config' });
  });

  it('sets and removes the navigation title of a page', () => {
    const titled = applyNavigationPatch(nav, [{ op: 'rename', path: 'installation', title: 'Install' }]);
    expect(titled.groups[0]!.pages[0]).toEqual({ path: 'installation', title: 'Install' });
    const untitled = applyNavigationPatch(nav, [{ op: 'rename', path: 'configuration', title: null }]);
    expect(untitled.groups[0]!.pages[1]).toBe('configuration');
  });

  it('relabels a group and a tab', () => {
    expect(applyNavigationPatch(nav, [{ op: 'rename', group: 'Guides', to: 'Tutorials' }]).groups[1]!.label).toBe(
      'Tutorials',
    );
    const result = applyNavigationPatch(tabbed, [{ op: 'rename', tab: 'Reference', to: 'API Reference' }]);
    expect('tabs' in result && result.tabs.map((t) => t.label)).toEqual(['Guides', 'API Reference']);
  });

  it('refuses to point an entry at a page that is already listed', () => {
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'rename', path: 'installation', to: 'routing' }])).code).toBe(
      'navigation.page_exists',
    );
  });

  it('needs something to rename to', () => {
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'rename', path: 'installation' }])).code).toBe(
      'argument.invalid',
    );
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'rename', to: 'x' } as never])).code).toBe(
      'argument.invalid',
    );
  });
});

describe('applyNavigationPatch in a tabbed file', () => {
  it('asks for the tab when a label is used in several tabs', () => {
    const error = failure(() => applyNavigationPatch(tabbed, [{ op: 'add', path: 'x', group: 'Start' }]));
    expect(error.code).toBe('navigation.group_not_found');
    expect(error.message).toBe(
      'Several groups are labelled "Start": "Guides: Start", "Reference: Start". Give `tab` to say which one, or rename one of them.',
    );
  });

  it('adds to the group of the named tab', () => {
    const result = applyNavigationPatch(tabbed, [{ op: 'add', path: 'api/intro', group: 'Start', tab: 'Reference' }]);
    expect('tabs' in result && result.tabs[1]!.groups[1]!.pages).toEqual(['api/index', 'api/intro']);
  });

  it('creates a new group in the named tab and refuses to guess between tabs', () => {
    const result = applyNavigationPatch(tabbed, [{ op: 'add', path: 'sdk', group: 'SDKs', tab: 'Reference' }]);
    expect('tabs' in result && result.tabs[1]!.groups.at(-1)).toEqual({ label: 'SDKs', pages: ['sdk'] });
    const error = failure(() => applyNavigationPatch(tabbed, [{ op: 'add', path: 'sdk', group: 'SDKs' }]));
    expect(error.message).toContain('Give `tab` (one of "Guides", "Reference")');
  });

  it('lists the tabs when the tab does not exist', () => {
    const error = failure(() => applyNavigationPatch(tabbed, [{ op: 'add', path: 'x', group: 'Start', tab: 'Nope' }]));
    expect(error.message).toBe('No tab "Nope" in the navigation. Tabs: "Guides", "Reference".');
  });

  it('moves a page across tabs', () => {
    const result = applyNavigationPatch(tabbed, [{ op: 'move', path: 'api/users', group: 'Start', tab: 'Guides' }]);
    expect('tabs' in result && result.tabs.map((t) => t.groups.map((g) => g.pages))).toEqual([
      [['index', 'api/users']],
      [[], ['api/index']],
    ]);
  });
});

describe('applyNavigationPatch as a whole', () => {
  it('applies operations in order', () => {
    const result = applyNavigationPatch(nav, [
      { op: 'add', path: 'queues', group: 'Guides' },
      { op: 'rename', path: 'queues', title: 'Queues' },
      { op: 'move', path: 'queues', group: 'Getting Started', before: 'installation' },
    ]);
    expect(result.groups[0]!.pages[0]).toEqual({ path: 'queues', title: 'Queues' });
  });

  it('never changes its input and applies nothing when one operation fails', () => {
    const before = structuredClone(nav);
    expect(() =>
      applyNavigationPatch(nav, [
        { op: 'add', path: 'fine', group: 'Guides' },
        { op: 'remove', path: 'missing' },
      ]),
    ).toThrow(KitError);
    applyNavigationPatch(nav, [
      { op: 'add', path: 'fine', group: 'Guides' },
      { op: 'rename', group: 'Guides', to: 'G' },
    ]);
    expect(nav).toEqual(before);
  });

  it('refuses unknown operations and malformed lists', () => {
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'replace' }])).message).toContain(
      'Unknown navigation operation "replace"',
    );
    expect(failure(() => applyNavigationPatch(nav, ['add'])).code).toBe('argument.invalid');
    expect(failure(() => applyNavigationPatch(nav, {} as never)).code).toBe('argument.invalid');
  });

  it('refuses a group label that would break the schema', () => {
    expect(failure(() => applyNavigationPatch(nav, [{ op: 'rename', group: 'Guides', to: '   ' }])).code).toBe(
      'argument.invalid',
    );
  });
});
