import type { DocSet, Viewer } from '../ports/docset.js';
import { rootUrl } from '../urls/set-urls.js';
import {
  type AgentFile,
  type AgentFileOptions,
  type AgentPageEntry,
  type AgentPageGroup,
  type AgentScope,
  agentFilePath,
  groupHeading,
  instructionsOf,
  oneLine,
  pageGroups,
  resolveAgentScope,
  statusNote,
  summaryOf,
} from './scope.js';
import { effectiveLimit, packParts, uniqueSlugs } from './split.js';

/** What a builder of `llms.txt` or `llms-full.txt` returns: every file of one version and locale. */
export interface AgentFileBundle {
  version: string;
  locale: string;
  /** True when the content was over the limit and the files are split by navigation group. */
  split: boolean;
  /** The limit applied (characters per file). */
  limit: number;
  /** The main file (`…/llms.txt` or `…/llms-full.txt`) first, then group parts, then index continuations. */
  files: AgentFile[];
  /** Each visible page once, in the order the files list it, with the group it is in. */
  pages: Array<AgentPageEntry & { group: string }>;
}

type Kind = 'llms' | 'llms-full';

interface PreparedGroup {
  heading: string;
  slug: string;
  pages: AgentPageEntry[];
  /** Text units of the group: list lines for `llms.txt`, page blocks for `llms-full.txt`. */
  items: string[];
}

/**
 * Builds `llms.txt` (per llmstxt.org) for one version and locale as a viewer sees it: `# name`,
 * `> summary`, the agent instructions, notes on the version's status and the other versions and
 * languages, then one `##` section per navigation group listing `- [title](.md URL): description`.
 * Over `agents.llms_txt_limit` characters, the file becomes an index linking one file per group
 * (`llms/<group-slug>.txt`, continued in `llms/<group-slug>.2.txt`, ... when a group alone is over
 * the limit), so no file is over the limit and no page is left out.
 *
 * @example
 * const bundle = await buildLlmsTxt(docs, { user: null }, { origin: 'https://example.com', version: '12.x' });
 * bundle.files[0].path; // '/docs/12.x/llms.txt'
 */
export async function buildLlmsTxt(set: DocSet, viewer: Viewer, options: AgentFileOptions): Promise<AgentFileBundle> {
  const scope = await resolveAgentScope(set, viewer, options);
  const groups = await pageGroups(scope);
  const prepared = prepareGroups(groups, (pages) => pages.map(listLine));
  return bundle(scope, 'llms', set.config.agents.llms_txt_limit, prepared);
}

/**
 * Builds `llms-full.txt` for one version and locale: every page the viewer may see, as agent
 * Markdown, in navigation order, each with a `Source:` line naming its `.md` URL. Over
 * `agents.llms_full_limit` characters it splits by navigation group the same way as
 * {@link buildLlmsTxt} (`llms-full/<group-slug>.txt`); a page larger than a whole file continues in
 * the group's next part.
 *
 * @example
 * const bundle = await buildLlmsFullTxt(docs, { user: null }, { origin: 'https://example.com' });
 */
export async function buildLlmsFullTxt(
  set: DocSet,
  viewer: Viewer,
  options: AgentFileOptions,
): Promise<AgentFileBundle> {
  const scope = await resolveAgentScope(set, viewer, options);
  const groups = await pageGroups(scope);
  const blocks = new Map<string, string>();
  for (const group of groups) {
    for (const page of group.pages) {
      const result = await set.readPage(
        { path: page.path, version: scope.version.id, locale: scope.locale.code },
        viewer,
      );
      blocks.set(page.path, pageBlock(result.text, page));
    }
  }
  const prepared = prepareGroups(groups, (pages) => pages.map((page) => blocks.get(page.path) as string));
  return bundle(scope, 'llms-full', set.config.agents.llms_full_limit, prepared);
}

function prepareGroups(groups: AgentPageGroup[], itemsOf: (pages: AgentPageEntry[]) => string[]): PreparedGroup[] {
  const slugs = uniqueSlugs(groups.map((group) => (group.tab ? `${group.tab} ${group.label}` : group.label)));
  return groups.map((group, index) => ({
    heading: groupHeading(group),
    slug: slugs[index] as string,
    pages: group.pages,
    items: itemsOf(group.pages),
  }));
}

function listLine(page: AgentPageEntry): string {
  const description = oneLine(page.description);
  return `- [${escapeLinkText(page.title)}](${page.markdownUrl})${description ? `: ${description}` : ''}\n`;
}

function escapeLinkText(text: string): string {
  return oneLine(text).replace(/([[\]\\])/g, '\\$1');
}

/** A page's agent Markdown with a `Source:` line under its title (or a title when it has none). */
function pageBlock(markdown: string, page: AgentPageEntry): string {
  const text = markdown.replace(/\s+$/, '');
  const source = `Source: ${page.markdownUrl}`;
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  if (/^# /.test(firstLine)) return `${firstLine}\n\n${source}\n${text.slice(firstLine.length)}\n\n`;
  return `# ${oneLine(page.title)}\n\n${source}\n\n${text}\n\n`;
}

/** The opening of the main file: name, summary, instructions and notes. */
function header(scope: AgentScope, kind: Kind): string {
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

function bundle(scope: AgentScope, kind: Kind, configuredLimit: number, groups: PreparedGroup[]): AgentFileBundle {
  const limit = effectiveLimit(configuredLimit);
  const target = { version: scope.version.id, locale: scope.locale.code };
  const mainName = kind === 'llms' ? 'llms.txt' : 'llms-full.txt';
  const mainPath = agentFilePath(scope.layout, target, mainName);
  const pages = groups.flatMap((group) => group.pages.map((page) => ({ ...page, group: group.heading })));
  const head = header(scope, kind);
  const whole =
    head +
    (kind === 'llms'
      ? groups.map((group) => `## ${group.heading}\n\n${group.items.join('')}\n`).join('')
      : groups.map((group) => group.items.join('')).join(''));
  const base = { version: target.version, locale: target.locale, limit, pages };
  if (groups.length === 0 || whole.length <= limit) {
    return { ...base, split: false, files: [{ path: mainPath, text: `${whole.replace(/\s+$/, '')}\n` }] };
  }

  const name = oneLine(scope.manifest.name);
  const mainUrl = scope.origin + mainPath;
  const partPath = (slug: string, part: number) =>
    agentFilePath(scope.layout, target, `${kind}/${slug}${part > 1 ? `.${part}` : ''}.txt`);
  const files: AgentFile[] = [];
  const indexSections: string[] = [];
  for (const group of groups) {
    const heading = shorten(group.heading, 120);
    const parts = packParts(
      group.items,
      limit,
      (part) => {
        const title =
          kind === 'llms'
            ? `# ${shorten(name, 120)}: ${heading}${part > 1 ? ` (part ${part})` : ''}\n\n`
            : `# ${shorten(name, 120)}: ${heading} (full text${part > 1 ? `, part ${part}` : ''})\n\n`;
        const intro = `Part of the index at ${mainUrl}\n\n`;
        return title + intro + (kind === 'llms' ? `## ${heading}\n\n` : '');
      },
      (next) => `\nContinued in part ${next}: ${scope.origin + partPath(group.slug, next)}\n`,
    );
    parts.forEach((text, index) => {
      files.push({ path: partPath(group.slug, index + 1), text });
    });
    const count = `${group.pages.length} ${group.pages.length === 1 ? 'page' : 'pages'}`;
    const links = parts.map((_, index) => {
      const label = escapeLinkText(index === 0 ? group.heading : `${group.heading}, part ${index + 1}`);
      const note = index === 0 ? count + (parts.length > 1 ? ` in ${parts.length} parts` : '') : `continued`;
      return `- [${label}](${scope.origin + partPath(group.slug, index + 1)}): ${note}\n`;
    });
    indexSections.push(`## ${group.heading}\n\n${links.join('')}\n`);
  }
  const what = kind === 'llms' ? 'page list' : 'full text';
  const splitNote = `The ${what} is over ${limit} characters, so it is split into one file per navigation group below.\n\n`;
  const indexPath = (part: number) => (part === 1 ? mainPath : partPath('index', part));
  const indexParts = packParts(
    [head, splitNote, ...indexSections],
    limit,
    (part) => (part === 1 ? '' : `# ${shorten(name, 120)}: index (part ${part})\n\n`),
    (next) => `\n## More\n\n- [Index, part ${next}](${scope.origin + indexPath(next)})\n`,
  );
  const indexFiles = indexParts.map((text, index) => ({ path: indexPath(index + 1), text }));
  return { ...base, split: true, files: [indexFiles[0] as AgentFile, ...files, ...indexFiles.slice(1)] };
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
