import { isSafeLink } from '../manifest/links.js';
import type { NavEntry, NavGroup, NavigationFile, NavTab, SourceProblem } from '../model/types.js';
import { parseJsonText, type TextPosition } from '../schemas/json-text.js';
import { validateAgainstSchema } from '../schemas/registry.js';
import { cleanPagePath } from '../urls/set-urls.js';

export interface NavigationResult {
  /** The usable navigation, invalid entries left out; null when there is none to use. */
  navigation: NavigationFile | null;
  problems: SourceProblem[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function label(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The canonical form of a page path in navigation: no surrounding blanks, no leading `/`, no
 * `.md` (in any letter case); undefined when it is no page path (see `cleanPagePath`: empty, `.`
 * or `..` segments, backslashes). Spaces inside are kept: a repository serves `getting started.md`
 * at `getting%20started`, so navigation lists it as `getting started`.
 *
 * @example
 * normalizeNavPath('/guides/intro.md') // 'guides/intro'
 * normalizeNavPath('getting started') // 'getting started'
 */
export function normalizeNavPath(path: unknown): string | undefined {
  if (typeof path !== 'string') return undefined;
  return cleanPagePath(path.trim().replace(/\.md$/i, '')) ?? undefined;
}

function cleanEntry(raw: unknown): NavEntry | undefined {
  if (typeof raw === 'string') return normalizeNavPath(raw);
  if (!isObject(raw)) return undefined;
  if (Array.isArray(raw.pages) || (raw.label !== undefined && raw.href === undefined && raw.path === undefined)) {
    return cleanGroup(raw);
  }
  if (raw.href !== undefined) {
    const name = label(raw.label);
    const href = typeof raw.href === 'string' ? raw.href.trim() : undefined;
    return name !== undefined && href !== undefined && isSafeLink(href) ? { label: name, href } : undefined;
  }
  const path = normalizeNavPath(raw.path);
  if (path === undefined) return undefined;
  const title = label(raw.title);
  return title === undefined ? { path } : { path, title };
}

function cleanGroup(raw: unknown): NavGroup | undefined {
  if (!isObject(raw)) return undefined;
  const name = label(raw.label);
  if (name === undefined || !Array.isArray(raw.pages)) return undefined;
  return { label: name, pages: raw.pages.flatMap((entry) => cleanEntry(entry) ?? []) };
}

function cleanGroups(raw: unknown): NavGroup[] {
  return Array.isArray(raw) ? raw.flatMap((group) => cleanGroup(group) ?? []) : [];
}

/**
 * Validates an already-parsed navigation tree (as `update_navigation` receives it) against
 * `schemas/navigation.json`. Problems have rule `navigation.schema`; the navigation returned keeps
 * every valid entry, with page paths in canonical form. It is null when the value is neither
 * `{groups}` nor `{tabs}`.
 *
 * @example
 * normalizeNavigation({ groups: [{ label: 'Start', pages: ['/intro.md'] }] }).navigation
 * // { groups: [{ label: 'Start', pages: ['intro'] }] }   (plus a problem about the written form)
 */
export function normalizeNavigation(
  value: unknown,
  file = 'navigation.json',
  positions?: Map<string, TextPosition>,
): NavigationResult {
  const problems: SourceProblem[] = [];
  const add = (pointer: string, message: string, fix?: string) => {
    problems.push({
      rule: 'navigation.schema',
      severity: 'error',
      message,
      file,
      ...(nearestPosition(positions, pointer) ?? {}),
      ...(fix ? { fix } : {}),
    });
  };
  if (isObject(value) && Object.hasOwn(value, 'groups') && Object.hasOwn(value, 'tabs')) {
    add(
      '',
      `${file} has both \`groups\` and \`tabs\`; a navigation file has one or the other. The tabs are used.`,
      'Move the groups into a tab, or remove `tabs`.',
    );
  }
  for (const issue of validateAgainstSchema('navigation', value)) {
    if (issue.pointer === '/groups' && isObject(value) && Object.hasOwn(value, 'tabs')) continue;
    add(issue.pointer, issue.message, issue.fix);
  }
  if (!isObject(value)) return { navigation: null, problems };
  if (Array.isArray(value.tabs)) {
    const tabs: NavTab[] = value.tabs.flatMap((tab) => {
      if (!isObject(tab)) return [];
      const name = label(tab.label);
      return name === undefined ? [] : [{ label: name, groups: cleanGroups(tab.groups) }];
    });
    return { navigation: { tabs }, problems };
  }
  if (Array.isArray(value.groups)) return { navigation: { groups: cleanGroups(value.groups) }, problems };
  return { navigation: null, problems };
}

function nearestPosition(positions: Map<string, TextPosition> | undefined, pointer: string): TextPosition | undefined {
  if (!positions) return undefined;
  for (let current = pointer; ; current = current.slice(0, current.lastIndexOf('/'))) {
    const found = positions.get(current);
    if (found) return { line: found.line, column: found.column };
    if (current === '') return undefined;
  }
}

/**
 * Parses a `navigation.json` file. Invalid JSON gives `navigation: null` and a
 * `navigation.schema` error with line and column (the version then falls back to navigation
 * derived from its folders); schema violations are `navigation.schema` errors pointing at the
 * offending line, and the valid entries are still used.
 *
 * @example
 * parseNavigation('{"groups":[{"label":"Start","pages":["index"]}]}')
 * // { navigation: { groups: [{ label: 'Start', pages: ['index'] }] }, problems: [] }
 */
export function parseNavigation(text: string, file = 'navigation.json'): NavigationResult {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      navigation: null,
      problems: [
        {
          rule: 'navigation.schema',
          severity: 'error',
          message: `${file} is not valid JSON: ${parsed.message} (line ${parsed.line}, column ${parsed.column}). Until it is fixed the navigation is derived from the folders.`,
          file,
          line: parsed.line,
          column: parsed.column,
          fix: 'Fix the JSON syntax at that position (quotes around keys and strings, no trailing commas, no comments).',
        },
      ],
    };
  }
  return normalizeNavigation(parsed.value, file, parsed.positions);
}
