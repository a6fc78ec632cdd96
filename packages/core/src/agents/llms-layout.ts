/**
 * The layout of `llms.txt` and `llms-full.txt` for one version and locale: whether the text fits
 * one file, and when it does not, the index and each group's numbered parts. Every decision is
 * made from the units' lengths ({@link PageItems}), so any one file is built by reading only the
 * pages it holds, and nothing holds the text of every page at once.
 */
import type { DocSet, Viewer } from '../ports/docset.js';
import { rootUrl } from '../urls/set-urls.js';
import { escapeLinkText, forEachLength, listItems, type PageItems, pageBlockItems } from './llms-items.js';
import {
  type AgentFile,
  type AgentFileOptions,
  type AgentPageEntry,
  type AgentScope,
  agentFilePath,
  groupHeading,
  instructionsOf,
  oneLine,
  pageGroupsWithSources,
  resolveAgentScope,
  statusNote,
  summaryOf,
} from './scope.js';
import { effectiveLimit, PartPacker, packParts, uniqueSlugs } from './split.js';

/** `llms` for `llms.txt` (page lists), `llms-full` for `llms-full.txt` (page text). */
export type LlmsKind = 'llms' | 'llms-full';

/** A navigation group as the files name it. */
export interface LlmsGroup {
  heading: string;
  slug: string;
  pages: AgentPageEntry[];
}

/** Everything the files of one kind, version and locale are made from; no page text. */
export interface LlmsLayout {
  scope: AgentScope;
  kind: LlmsKind;
  /** The limit applied (characters per file). */
  limit: number;
  groups: LlmsGroup[];
  items: PageItems;
  /** URL path of the main file (`…/llms.txt`, `…/llms-full.txt`). */
  mainPath: string;
  /** The opening of the main file: name, summary, instructions and notes. */
  head: string;
  /** URL path of part `part` of a group (or of the index, slug `index`). */
  partPath(slug: string, part: number): string;
}

/** Reads the listing of one version and locale as a viewer sees it; reads no page. */
export async function llmsLayout(
  set: DocSet,
  viewer: Viewer,
  options: AgentFileOptions,
  kind: LlmsKind,
): Promise<LlmsLayout> {
  const scope = await resolveAgentScope(set, viewer, options);
  const { groups, sources } = await pageGroupsWithSources(scope);
  const slugs = uniqueSlugs(groups.map((group) => (group.tab ? `${group.tab} ${group.label}` : group.label)));
  const target = { version: scope.version.id, locale: scope.locale.code };
  return {
    scope,
    kind,
    limit: effectiveLimit(kind === 'llms' ? set.config.agents.llms_txt_limit : set.config.agents.llms_full_limit),
    groups: groups.map((group, index) => ({
      heading: groupHeading(group),
      slug: slugs[index] as string,
      pages: group.pages,
    })),
    items: kind === 'llms' ? listItems : pageBlockItems(scope, sources),
    mainPath: agentFilePath(scope.layout, target, kind === 'llms' ? 'llms.txt' : 'llms-full.txt'),
    head: header(scope, kind),
    partPath: (slug, part) => agentFilePath(scope.layout, target, `${kind}/${slug}${part > 1 ? `.${part}` : ''}.txt`),
  };
}

/** A group's opening in the whole file: a `##` heading in `llms.txt`, nothing in `llms-full.txt`. */
function wholeGroupHead(layout: LlmsLayout, group: LlmsGroup): string {
  return layout.kind === 'llms' ? `## ${group.heading}\n\n` : '';
}

/** A group's closing in the whole file: a blank line in `llms.txt`. */
function wholeGroupTail(layout: LlmsLayout): string {
  return layout.kind === 'llms' ? '\n' : '';
}

/** True when the whole text fits one file; stops reading as soon as it is over the limit. */
export async function fitsOneFile(layout: LlmsLayout): Promise<boolean> {
  if (layout.groups.length === 0) return true;
  let total = layout.head.length;
  for (const group of layout.groups) {
    total += wholeGroupHead(layout, group).length + wholeGroupTail(layout).length;
    if (total > layout.limit) return false;
    await forEachLength(group.pages, layout.items, (length) => {
      total += length;
      return total > layout.limit;
    });
    if (total > layout.limit) return false;
  }
  return true;
}

/** The main file when the whole text fits it (see {@link fitsOneFile}): at most the limit long. */
export async function wholeFile(layout: LlmsLayout): Promise<AgentFile> {
  let text = layout.head;
  for (const group of layout.groups) {
    text += wholeGroupHead(layout, group);
    for (const page of group.pages) text += await layout.items.text(page);
    text += wholeGroupTail(layout);
  }
  return { path: layout.mainPath, text: `${text.replace(/\s+$/, '')}\n` };
}

/** The packer of a group's parts: each part's title and link to the index, and its link onward. */
function groupPacker(layout: LlmsLayout, group: LlmsGroup): PartPacker {
  return new PartPacker(layout.limit, groupPartHead(layout, group), groupPartTail(layout, group));
}

function groupPartHead(layout: LlmsLayout, group: LlmsGroup): (part: number) => string {
  const name = shorten(oneLine(layout.scope.manifest.name), 120);
  const heading = shorten(group.heading, 120);
  const intro = `Part of the index at ${layout.scope.origin + layout.mainPath}\n\n`;
  return (part) =>
    layout.kind === 'llms'
      ? `# ${name}: ${heading}${part > 1 ? ` (part ${part})` : ''}\n\n${intro}## ${heading}\n\n`
      : `# ${name}: ${heading} (full text${part > 1 ? `, part ${part}` : ''})\n\n${intro}`;
}

function groupPartTail(layout: LlmsLayout, group: LlmsGroup): (next: number) => string {
  return (next) => `\nContinued in part ${next}: ${layout.scope.origin + layout.partPath(group.slug, next)}\n`;
}

/** How many parts a group's file takes: from lengths, reading only a page too large for a part. */
export async function groupPartCount(layout: LlmsLayout, group: LlmsGroup): Promise<number> {
  const packer = groupPacker(layout, group);
  await forEachLength(group.pages, layout.items, async (length, page) => {
    packer.add(length, packer.cuts(length) ? await layout.items.text(page) : undefined);
    return undefined;
  });
  return packer.parts;
}

/**
 * Part `part` of a group's file, or null when the group has fewer parts. Reads the text of the
 * pages in that part only (and of a page too large for a part before it, to find where it is cut).
 */
export async function groupPart(
  layout: LlmsLayout,
  group: LlmsGroup,
  part: number,
  retried = false,
): Promise<AgentFile | null> {
  const packer = groupPacker(layout, group);
  let body = '';
  let stale = false;
  await forEachLength(group.pages, layout.items, async (length, page) => {
    const text = packer.cuts(length) ? await layout.items.text(page) : undefined;
    const mine = packer.add(length, text).filter((piece) => piece.part === part);
    if (mine.length > 0) {
      const whole = text ?? (await layout.items.text(page));
      stale ||= whole.length !== length;
      for (const piece of mine) body += whole.slice(piece.start, piece.end);
    }
    // Part `part` is complete, and not the last, once an item reached the part after it.
    return packer.parts > part;
  });
  // A kept length that no longer matches the page (a render changed without its page) was just
  // refreshed by the read: pack again with the true lengths rather than cut a page wrong.
  if (stale && !retried) return groupPart(layout, group, part, true);
  if (packer.parts < part) return null;
  const last = packer.parts === part;
  const text = groupPartHead(layout, group)(part) + body + (last ? '' : groupPartTail(layout, group)(part + 1));
  return { path: layout.partPath(group.slug, part), text };
}

/** The index of a split file: the main file, continued in `index.2.txt`, ... when it is itself long. */
export async function indexFiles(layout: LlmsLayout): Promise<AgentFile[]> {
  const { scope, kind, limit } = layout;
  const sections: string[] = [];
  for (const group of layout.groups) {
    const parts = await groupPartCount(layout, group);
    const count = `${group.pages.length} ${group.pages.length === 1 ? 'page' : 'pages'}`;
    let links = '';
    for (let index = 0; index < parts; index++) {
      const label = escapeLinkText(index === 0 ? group.heading : `${group.heading}, part ${index + 1}`);
      const note = index === 0 ? count + (parts > 1 ? ` in ${parts} parts` : '') : `continued`;
      links += `- [${label}](${scope.origin + layout.partPath(group.slug, index + 1)}): ${note}\n`;
    }
    sections.push(`## ${group.heading}\n\n${links}\n`);
  }
  const name = shorten(oneLine(scope.manifest.name), 120);
  const what = kind === 'llms' ? 'page list' : 'full text';
  const splitNote = `The ${what} is over ${limit} characters, so it is split into one file per navigation group below.\n\n`;
  const indexPath = (part: number) => (part === 1 ? layout.mainPath : layout.partPath('index', part));
  const parts = packParts(
    [layout.head, splitNote, ...sections],
    limit,
    (part) => (part === 1 ? '' : `# ${name}: index (part ${part})\n\n`),
    (next) => `\n## More\n\n- [Index, part ${next}](${scope.origin + indexPath(next)})\n`,
  );
  return parts.map((text, index) => ({ path: indexPath(index + 1), text }));
}

/** The opening of the main file: name, summary, instructions and notes. */
function header(scope: AgentScope, kind: LlmsKind): string {
  const { manifest } = scope;
  const parts: string[] = [`# ${oneLine(manifest.name)}${kind === 'llms-full' ? ' (full text)' : ''}`];
  const summary = summaryOf(manifest);
  if (summary) parts.push(`> ${summary}`);
  const instructions = instructionsOf(manifest);
  if (instructions) parts.push(instructions);
  const fileName = kind === 'llms' ? 'llms.txt' : 'llms-full.txt';
  const defaultUrl =
    scope.origin +
    agentFilePath(scope.layout, { version: scope.layout.defaultVersion, locale: scope.locale.code }, fileName);
  const note = statusNote(scope, defaultUrl);
  if (note) parts.push(note);
  const scopeLine = scopeDescription(scope);
  if (scopeLine) parts.push(scopeLine);
  const others = alternates(scope, fileName);
  if (others) parts.push(others);
  return `${parts.join('\n\n')}\n\n`;
}

function scopeDescription(scope: AgentScope): string | undefined {
  const facts: string[] = [];
  if (scope.layout.versioned) facts.push(`version ${scope.version.label} (${scope.version.status})`);
  if (scope.locales.length > 1) facts.push(`language ${scope.locale.label} (${scope.locale.code})`);
  if (facts.length === 0) return undefined;
  return `This file covers ${facts.join(', ')}. Site: ${scope.origin}${rootUrl(scope.layout, { version: scope.version.id, locale: scope.locale.code })}`;
}

/** Links to the same file for the other versions and languages the viewer may see. */
function alternates(scope: AgentScope, fileName: string): string | undefined {
  const lines: string[] = [];
  if (scope.layout.versioned && scope.versions.length > 1) {
    const links = scope.versions.map((version) => {
      const url =
        scope.origin + agentFilePath(scope.layout, { version: version.id, locale: scope.locale.code }, fileName);
      const facts = [version.status, ...(version.id === scope.layout.defaultVersion ? ['default'] : [])];
      return `[${version.label}](${url}) (${facts.join(', ')})`;
    });
    lines.push(`Versions: ${links.join(', ')}.`);
  }
  if (scope.locales.length > 1) {
    const links = scope.locales.map((locale) => {
      const url =
        scope.origin + agentFilePath(scope.layout, { version: scope.version.id, locale: locale.code }, fileName);
      return `[${locale.label}](${url})`;
    });
    lines.push(`Languages: ${links.join(', ')}.`);
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
