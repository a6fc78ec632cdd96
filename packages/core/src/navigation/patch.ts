import { KitError } from '../errors/kit-error.js';
import { cloneJson } from '../manifest/merge-patch.js';
import type { NavEntry, NavGroup, NavigationFile, NavTab } from '../model/types.js';
import { validateAgainstSchema } from '../schemas/registry.js';
import { nearestKey } from '../util/nearest-key.js';
import { normalizeNavPath } from './parse.js';

/**
 * The `update_navigation` patch operations. `group` names a group by its label (top-level or
 * nested); `tab` picks the tab in a tabbed file. `after`/`before` name an entry of the target
 * group: a page path, or the label of a nested group or link.
 */
export type NavigationPatchOp =
  | { op: 'add'; path: string; title?: string; group: string; tab?: string; after?: string; before?: string }
  | { op: 'move'; path: string; group: string; tab?: string; after?: string; before?: string }
  | { op: 'remove'; path: string }
  | { op: 'remove'; group: string; tab?: string }
  | { op: 'rename'; path: string; to?: string; title?: string | null }
  | { op: 'rename'; group: string; tab?: string; to: string }
  | { op: 'rename'; tab: string; to: string };

interface GroupRef {
  group: NavGroup;
  /** The list holding the group: top-level groups, a tab's groups or a parent group's pages. */
  container: Array<NavGroup | NavEntry>;
  tab?: string;
  trail: string[];
}

interface EntryRef {
  entry: string | { path: string; title?: string };
  container: NavEntry[];
  index: number;
  trail: string[];
  tab?: string;
}

const MAX_LISTED = 40;

function quoteList(items: string[]): string {
  if (items.length === 0) return '(none)';
  const shown = items.slice(0, MAX_LISTED).map((item) => `"${item}"`);
  return items.length > MAX_LISTED ? `${shown.join(', ')} and ${items.length - MAX_LISTED} more` : shown.join(', ');
}

function topLevel(nav: NavigationFile): Array<{ groups: NavGroup[]; tab?: string }> {
  return 'tabs' in nav ? nav.tabs.map((tab) => ({ groups: tab.groups, tab: tab.label })) : [{ groups: nav.groups }];
}

function allGroups(nav: NavigationFile): GroupRef[] {
  const found: GroupRef[] = [];
  const walk = (container: Array<NavGroup | NavEntry>, trail: string[], tab: string | undefined) => {
    for (const item of container) {
      if (typeof item === 'object' && 'pages' in item) {
        const here = [...trail, item.label];
        found.push({ group: item, container, trail: here, ...(tab !== undefined ? { tab } : {}) });
        walk(item.pages, here, tab);
      }
    }
  };
  for (const { groups, tab } of topLevel(nav)) walk(groups, [], tab);
  return found;
}

function describeGroup(ref: GroupRef): string {
  return (ref.tab !== undefined ? `${ref.tab}: ` : '') + ref.trail.join(' › ');
}

function allEntries(nav: NavigationFile): EntryRef[] {
  const found: EntryRef[] = [];
  for (const ref of allGroups(nav)) {
    ref.group.pages.forEach((entry, index) => {
      if (typeof entry === 'string' || 'path' in entry) {
        found.push({
          entry,
          container: ref.group.pages,
          index,
          trail: ref.trail,
          ...(ref.tab !== undefined ? { tab: ref.tab } : {}),
        });
      }
    });
  }
  return found;
}

function entryPath(entry: string | { path: string }): string {
  return typeof entry === 'string' ? entry : entry.path;
}

function findPage(nav: NavigationFile, path: string): EntryRef[] {
  return allEntries(nav).filter((ref) => entryPath(ref.entry) === path);
}

function pageNotFound(nav: NavigationFile, path: string): KitError {
  const paths = [...new Set(allEntries(nav).map((ref) => entryPath(ref.entry)))];
  const suggestion = nearestKey(path, paths);
  return new KitError(
    'navigation.page_not_found',
    `No page "${path}" in the navigation.${suggestion ? ` Did you mean "${suggestion}"?` : ''} Pages in the navigation: ${quoteList(paths)}. To list a page that is not there yet, use {"op": "add"}.`,
    { details: { path, pages: paths } },
  );
}

function requireString(value: unknown, field: string, op: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new KitError('argument.invalid', `The "${op}" operation needs \`${field}\` as a non-empty string.`);
  }
  return value.trim();
}

function requirePath(value: unknown, field: string, op: string): string {
  const raw = requireString(value, field, op);
  const path = normalizeNavPath(raw);
  if (path === undefined) {
    throw new KitError(
      'page.invalid_path',
      `\`${field}\` of the "${op}" operation is not a page path: ${JSON.stringify(raw)}. Write the page path without .md, e.g. "guides/installation".`,
    );
  }
  return path;
}

function optionalString(value: unknown, field: string, op: string): string | undefined {
  if (value === undefined) return undefined;
  return requireString(value, field, op);
}

function tabsOf(nav: NavigationFile): NavTab[] | undefined {
  return 'tabs' in nav ? nav.tabs : undefined;
}

function checkTab(nav: NavigationFile, tab: string | undefined): void {
  if (tab === undefined) return;
  const tabs = tabsOf(nav);
  if (!tabs) {
    throw new KitError(
      'argument.invalid',
      `\`tab\` was given ("${tab}") but this navigation has no tabs; leave \`tab\` out.`,
    );
  }
  if (!tabs.some((t) => t.label === tab)) {
    throw new KitError(
      'navigation.group_not_found',
      `No tab "${tab}" in the navigation. Tabs: ${quoteList(tabs.map((t) => t.label))}.`,
      { details: { tab, tabs: tabs.map((t) => t.label) } },
    );
  }
}

/**
 * Finds the group labelled `label` (exact, then case-insensitive). With `create`, a label that
 * matches nothing and is no near-miss of an existing one becomes a new group at the end.
 */
function resolveGroup(nav: NavigationFile, label: string, tab: string | undefined, create: boolean): GroupRef {
  checkTab(nav, tab);
  const candidates = allGroups(nav).filter((ref) => tab === undefined || ref.tab === tab);
  let matches = candidates.filter((ref) => ref.group.label === label);
  if (matches.length === 0) matches = candidates.filter((ref) => ref.group.label.toLowerCase() === label.toLowerCase());
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new KitError(
      'navigation.group_not_found',
      `Several groups are labelled "${label}": ${quoteList(matches.map(describeGroup))}. Give \`tab\` to say which one, or rename one of them.`,
      { details: { group: label, groups: matches.map(describeGroup) } },
    );
  }
  const labels = candidates.map(describeGroup);
  const nearMiss = nearestKey(
    label,
    candidates.map((ref) => ref.group.label),
  );
  if (!create || nearMiss !== null) {
    throw new KitError(
      'navigation.group_not_found',
      `No group "${label}" in the navigation${tab !== undefined ? ` tab "${tab}"` : ''}.${nearMiss !== null ? ` Did you mean "${nearMiss}"?` : ''} Groups: ${quoteList(labels)}.`,
      { details: { group: label, groups: labels } },
    );
  }
  const created: NavGroup = { label, pages: [] };
  const tabs = tabsOf(nav);
  if (tabs) {
    const target = tab !== undefined ? tabs.find((t) => t.label === tab) : tabs.length === 1 ? tabs[0] : undefined;
    if (!target) {
      throw new KitError(
        'navigation.group_not_found',
        `No group "${label}" in the navigation, and it has several tabs, so Kit cannot tell where to create it. Give \`tab\` (one of ${quoteList(tabs.map((t) => t.label))}) or use an existing group: ${quoteList(labels)}.`,
        { details: { group: label, groups: labels, tabs: tabs.map((t) => t.label) } },
      );
    }
    target.groups.push(created);
    return { group: created, container: target.groups, tab: target.label, trail: [label] };
  }
  const groups = (nav as { groups: NavGroup[] }).groups;
  groups.push(created);
  return { group: created, container: groups, trail: [label] };
}

function entryKey(entry: NavEntry): string {
  if (typeof entry === 'string') return entry;
  if ('path' in entry) return entry.path;
  return entry.label;
}

function insertEntry(
  ref: GroupRef,
  entry: NavEntry,
  after: string | undefined,
  before: string | undefined,
  op: string,
): void {
  const pages = ref.group.pages;
  const anchor = after ?? before;
  if (after !== undefined && before !== undefined) {
    throw new KitError('argument.invalid', `The "${op}" operation takes \`after\` or \`before\`, not both.`);
  }
  if (anchor === undefined) {
    pages.push(entry);
    return;
  }
  const wanted = normalizeNavPath(anchor) ?? anchor.trim();
  const index = pages.findIndex((candidate) => entryKey(candidate) === wanted || entryKey(candidate) === anchor.trim());
  if (index === -1) {
    throw new KitError(
      'navigation.page_not_found',
      `No entry "${anchor}" in group "${describeGroup(ref)}" to place the page ${after !== undefined ? 'after' : 'before'}. Its entries: ${quoteList(pages.map(entryKey))}. Leave \`${after !== undefined ? 'after' : 'before'}\` out to append at the end.`,
      { details: { anchor, entries: pages.map(entryKey) } },
    );
  }
  pages.splice(after !== undefined ? index + 1 : index, 0, entry);
}

function applyOne(nav: NavigationFile, raw: unknown, position: number): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new KitError(
      'argument.invalid',
      `Patch operation ${position + 1} must be an object such as {"op": "add", "path": "intro", "group": "Guides"}.`,
    );
  }
  const op = raw as Record<string, unknown>;
  const name = op.op;
  switch (name) {
    case 'add': {
      const path = requirePath(op.path, 'path', 'add');
      const title = optionalString(op.title, 'title', 'add');
      const group = requireString(op.group, 'group', 'add');
      const existing = findPage(nav, path)[0];
      if (existing) {
        throw new KitError(
          'navigation.page_exists',
          `Page "${path}" is already in the navigation (group "${existing.trail.join(' › ')}"). Use {"op": "move"} to move it or {"op": "rename"} to change its title.`,
          { details: { path } },
        );
      }
      const ref = resolveGroup(nav, group, optionalString(op.tab, 'tab', 'add'), true);
      insertEntry(
        ref,
        title === undefined ? path : { path, title },
        optionalString(op.after, 'after', 'add'),
        optionalString(op.before, 'before', 'add'),
        'add',
      );
      return;
    }
    case 'move': {
      const path = requirePath(op.path, 'path', 'move');
      const group = requireString(op.group, 'group', 'move');
      const found = findPage(nav, path);
      if (found.length === 0) throw pageNotFound(nav, path);
      const first = found[0]!;
      // Remove every listing (last first, so indexes stay valid), then place the page once.
      for (const ref of [...found].reverse()) ref.container.splice(ref.index, 1);
      const target = resolveGroup(nav, group, optionalString(op.tab, 'tab', 'move'), true);
      insertEntry(
        target,
        first.entry,
        optionalString(op.after, 'after', 'move'),
        optionalString(op.before, 'before', 'move'),
        'move',
      );
      return;
    }
    case 'remove': {
      if (op.path === undefined && op.group !== undefined) {
        const ref = resolveGroup(
          nav,
          requireString(op.group, 'group', 'remove'),
          optionalString(op.tab, 'tab', 'remove'),
          false,
        );
        ref.container.splice(ref.container.indexOf(ref.group), 1);
        return;
      }
      const path = requirePath(op.path, 'path', 'remove');
      const found = findPage(nav, path);
      if (found.length === 0) throw pageNotFound(nav, path);
      for (const ref of [...found].reverse()) ref.container.splice(ref.index, 1);
      return;
    }
    case 'rename': {
      if (op.path !== undefined) {
        const path = requirePath(op.path, 'path', 'rename');
        const to = op.to === undefined ? undefined : requirePath(op.to, 'to', 'rename');
        if (to === undefined && op.title === undefined) {
          throw new KitError(
            'argument.invalid',
            'The "rename" operation on a page needs `to` (the new page path) and/or `title` (the navigation title; null removes it).',
          );
        }
        const found = findPage(nav, path);
        if (found.length === 0) throw pageNotFound(nav, path);
        if (to !== undefined && to !== path && findPage(nav, to).length > 0) {
          throw new KitError(
            'navigation.page_exists',
            `Page "${to}" is already in the navigation; remove it first or pick another path.`,
            {
              details: { path: to },
            },
          );
        }
        const title =
          op.title === undefined
            ? undefined
            : op.title === null || (typeof op.title === 'string' && op.title.trim() === '')
              ? null
              : requireString(op.title, 'title', 'rename');
        for (const ref of found) {
          const current = ref.entry;
          const newPath = to ?? entryPath(current);
          const newTitle =
            title === undefined ? (typeof current === 'string' ? undefined : current.title) : (title ?? undefined);
          ref.container[ref.index] = newTitle === undefined ? newPath : { path: newPath, title: newTitle };
        }
        return;
      }
      const to = requireString(op.to, 'to', 'rename');
      if (op.group !== undefined) {
        const ref = resolveGroup(
          nav,
          requireString(op.group, 'group', 'rename'),
          optionalString(op.tab, 'tab', 'rename'),
          false,
        );
        ref.group.label = to;
        return;
      }
      if (op.tab !== undefined) {
        const tab = requireString(op.tab, 'tab', 'rename');
        checkTab(nav, tab);
        for (const t of tabsOf(nav)!) if (t.label === tab) t.label = to;
        return;
      }
      throw new KitError(
        'argument.invalid',
        'The "rename" operation needs `path` (a page), `group` (a group label) or `tab` (a tab label), plus `to`.',
      );
    }
    default:
      throw new KitError(
        'argument.invalid',
        `Unknown navigation operation ${JSON.stringify(name)} (operation ${position + 1}); use "add", "move", "remove" or "rename".`,
      );
  }
}

/**
 * Applies `update_navigation` patch operations in order and returns the new navigation (of the same
 * shape: groups stay groups, tabs stay tabs); the input is never changed, and when any operation fails nothing is applied (the first failure is thrown).
 *
 * - `{op:'add', path, title?, group, tab?, after?|before?}` lists a page in a group (appended when
 *   no anchor is given). A group that does not exist is created at the end, unless its label is
 *   a near miss of an existing one (then `navigation.group_not_found` with "did you mean").
 * - `{op:'move', path, group, tab?, after?|before?}` moves a listed page, keeping its title.
 * - `{op:'remove', path}` unlists a page; `{op:'remove', group}` removes a group with its entries.
 * - `{op:'rename', path, to?, title?}` points an entry at a new page path (after `move_page`)
 *   and/or sets its navigation title (null removes it); `{op:'rename', group|tab, to}` relabels.
 *
 * @example
 * applyNavigationPatch(nav, [
 *   { op: 'add', path: 'webhooks', title: 'Webhooks', group: 'Guides', after: 'events' },
 *   { op: 'rename', path: 'old/intro', to: 'intro' },
 * ])
 */
export function applyNavigationPatch<T extends NavigationFile>(
  nav: T,
  ops: readonly NavigationPatchOp[] | readonly unknown[],
): T {
  if (!Array.isArray(ops)) {
    throw new KitError(
      'argument.invalid',
      'The navigation patch must be a list of operations, e.g. [{"op": "remove", "path": "old-page"}].',
    );
  }
  const result = cloneJson(nav);
  const before = new Set(
    validateAgainstSchema('navigation', nav).map((issue) => `${issue.pointer}\u0000${issue.message}`),
  );
  ops.forEach((op, index) => {
    applyOne(result, op, index);
  });
  const introduced = validateAgainstSchema('navigation', result).filter(
    (issue) => !before.has(`${issue.pointer}\u0000${issue.message}`),
  );
  if (introduced.length > 0) {
    throw new KitError(
      'navigation.invalid',
      `The patch would make navigation.json invalid, so nothing was changed: ${introduced.map((issue) => issue.message).join(' ')}`,
      { details: { issues: introduced } },
    );
  }
  return result;
}
