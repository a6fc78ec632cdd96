import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { parse as parseYaml } from 'yaml';
import type { SkillFile } from '../model/types.js';
import type { DocSet, Kit, Viewer } from '../ports/docset.js';
import { markdownUrl, mcpEndpointPath } from '../urls/set-urls.js';
import {
  type AgentFile,
  agentFilePath,
  cleanOrigin,
  instructionsOf,
  layoutOf,
  oneLine,
  setFilePath,
  summaryOf,
} from './scope.js';

/** `$schema` of the agent-skills discovery index (Agent Skills Discovery, v0.2.0). */
export const AGENT_SKILLS_SCHEMA_URL = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** Agent Skills `name`: 1–64 lowercase letters, digits and single hyphens, no hyphen at either end. */
export const SKILL_NAME_MAX = 64;
/** Agent Skills `description`: 1–1024 characters. */
export const SKILL_DESCRIPTION_MAX = 1024;

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** True when `name` is a valid Agent Skills name. */
export function isSkillName(name: string): boolean {
  return name.length >= 1 && name.length <= SKILL_NAME_MAX && SKILL_NAME.test(name);
}

/**
 * Turns any text into a valid Agent Skills name, or `''` when nothing usable is left.
 *
 * @example
 * toSkillName('Acme Docs'); // 'acme-docs'
 */
export function toSkillName(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, SKILL_NAME_MAX).replace(/-+$/, '');
}

/** `sha256:` plus the hex SHA-256 of the UTF-8 bytes of `text`: the digest the discovery index carries. */
export function sha256Digest(text: string | Uint8Array): string {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return `sha256:${bytesToHex(sha256(bytes))}`;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** The `skill.md` of a set: its path, name, description and text. */
export interface SkillMd extends AgentFile {
  name: string;
  description: string;
}

/**
 * Builds `skill.md` in the Agent Skills format for a set as a viewer sees it: frontmatter `name`
 * (from the manifest name) and `description` (the agent summary, within the format's limits),
 * then how to use the docs: the MCP endpoint, the `/ask` search, `.md` twins, `llms.txt`, the
 * versions and languages, hand-written skills, and the manifest's agent instructions. Only
 * surfaces whose `agents.*` / `mcp.web.enabled` keys are on are mentioned.
 *
 * @example
 * const skill = await buildSkillMd(docs, { user: null }, { origin: 'https://example.com' });
 * skill.path; // '/docs/skill.md'
 */
export async function buildSkillMd(set: DocSet, viewer: Viewer, options: { origin: string }): Promise<SkillMd> {
  const origin = cleanOrigin(options.origin);
  const { manifest, layout } = await layoutOf(set);
  const config = set.config;
  const displayName = oneLine(manifest.name) || set.key;
  const name = toSkillName(manifest.name) || toSkillName(set.key) || 'docs';
  const summary = summaryOf(manifest);
  const docsUrl = origin + (layout.prefix === '' ? '/' : layout.prefix);
  const description = clip(
    `${summary ? `${summary} ` : ''}Use this skill to search and read the ${displayName} documentation (${docsUrl}) as Markdown and to cite its pages.`,
    SKILL_DESCRIPTION_MAX,
  );
  const versions = await set.versions(viewer);
  const defaultLocale = layout.defaultLocale;
  const defaultScope = { version: layout.defaultVersion, locale: defaultLocale };
  const visible = versions.some((version) => version.id === layout.defaultVersion)
    ? await set.visiblePages(defaultScope, viewer)
    : [];
  const example = visible.find((page) => page.path !== layout.landing) ?? visible[0];

  const lines: string[] = [
    '---',
    `name: ${name}`,
    `description: ${JSON.stringify(description)}`,
    '---',
    '',
    `# ${displayName} documentation`,
    '',
  ];
  if (summary) lines.push(summary, '');
  const instructions = instructionsOf(manifest);
  if (instructions) lines.push('## Instructions', '', instructions, '');

  lines.push('## How to use these docs', '');
  if (config.mcp.web.enabled) {
    lines.push(
      `- **MCP**: connect to \`${origin}${mcpEndpointPath(layout.prefix, config.mcp.web.path)}\` (Streamable HTTP). Call \`search_docs\` first, then \`read_page\` for the pages you need, and \`list_pages\` to see the navigation.${config.feedback.enabled ? ' Report a wrong or missing page with `submit_feedback`.' : ''}`,
    );
  }
  if (config.agents.ask_endpoint) {
    lines.push(
      `- **Search without MCP**: \`GET ${origin}${layout.prefix}/ask?q=<words>\` returns the best sections as Markdown (send \`Accept: application/json\` for JSON; optional \`version\`, \`locale\`, \`limit\` 1–20).`,
    );
  }
  lines.push(
    `- **Markdown pages**: append \`.md\` to any page URL for its Markdown twin${example ? `, e.g. ${origin}${markdownUrl(layout, { ...defaultScope, path: example.path })}` : ''}; a version or language root's twin is \`index.md\`. Each twin ends with a \`content_hash: sha256:…\` line.`,
  );
  if (config.agents.llms_txt) {
    lines.push(
      `- **Page index**: ${origin}${agentFilePath(layout, defaultScope, 'llms.txt')} lists every page with its \`.md\` URL.`,
    );
  }
  if (config.agents.llms_full) {
    lines.push(
      // Over agents.llms_full_limit the file is an index of group files, not the pages themselves.
      `- **Everything at once**: ${origin}${agentFilePath(layout, defaultScope, 'llms-full.txt')} has every page's Markdown in navigation order; for docs over ${config.agents.llms_full_limit.toLocaleString('en-US')} characters it lists one file per navigation group (\`llms-full/<group>.txt\`) that holds those pages instead.`,
    );
  }
  lines.push('- **Cite** the page URLs you used in your answer.', '');

  if (layout.versioned && versions.length > 0) {
    lines.push('## Versions', '');
    for (const version of versions) {
      const facts = [version.status, ...(version.id === layout.defaultVersion ? ['default'] : [])];
      const index = config.agents.llms_txt
        ? `: ${origin}${agentFilePath(layout, { version: version.id, locale: defaultLocale }, 'llms.txt')}`
        : '';
      lines.push(`- ${version.label} (${facts.join(', ')})${index}`);
    }
    lines.push(
      '',
      `Unless asked otherwise, use ${layout.defaultVersion}. Deprecated and archived versions are kept for projects pinned to them.`,
      '',
    );
  }
  if (layout.locales.length > 1) {
    lines.push('## Languages', '');
    for (const locale of layout.locales) {
      const index = config.agents.llms_txt
        ? `: ${origin}${agentFilePath(layout, { version: layout.defaultVersion, locale: locale.code }, 'llms.txt')}`
        : '';
      lines.push(`- ${locale.label} (\`${locale.code}\`${locale.default ? ', default' : ''})${index}`);
    }
    lines.push('');
  }
  const skills = await listHandWrittenSkills(set);
  if (skills.length > 0) {
    lines.push('## More skills', '');
    for (const skill of skills) lines.push(`- [${skill.name}](${origin}${skill.path}): ${oneLine(skill.description)}`);
    lines.push('');
  }
  return {
    path: setFilePath(layout, 'skill.md'),
    name,
    description,
    text: `${lines.join('\n').replace(/\n+$/, '')}\n`,
  };
}

/** A hand-written skill (`skills/<file>.md`) as it is served and listed. */
export interface HandWrittenSkill {
  /** The file name without `.md`: the URL segment. */
  file: string;
  /** Agent Skills name: the frontmatter `name` when valid, else derived from the file name. */
  name: string;
  description: string;
  /** URL path, e.g. `/docs/skills/deploy.md`. */
  path: string;
  /** The served text, byte for byte the file's (line endings normalized by the source). */
  text: string;
}

/**
 * The hand-written skill files of a set (`ContentSource.listSkills`), with the name and
 * description the discovery index lists: frontmatter `name`/`description` when they are valid,
 * else the file name and the first paragraph.
 */
export async function listHandWrittenSkills(set: DocSet): Promise<HandWrittenSkill[]> {
  const { layout } = await layoutOf(set);
  const files = await set.source.listSkills();
  return files.flatMap((file) => {
    const skill = describeSkill(file);
    if (!skill) return [];
    return [{ ...skill, path: setFilePath(layout, `skills/${encodeURIComponent(file.name)}.md`) }];
  });
}

function describeSkill(file: SkillFile): Omit<HandWrittenSkill, 'path'> | null {
  const text = file.content;
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  let front: Record<string, unknown> = {};
  if (match) {
    try {
      const parsed = parseYaml(match[1] as string);
      if (parsed && typeof parsed === 'object') front = parsed as Record<string, unknown>;
    } catch {
      front = {};
    }
  }
  const declared = typeof front.name === 'string' ? front.name.trim() : '';
  const name = isSkillName(declared) ? declared : toSkillName(file.name);
  if (!name) return null;
  const body = match ? text.slice(match[0].length) : text;
  const firstParagraph = body
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .find((block) => block !== '' && !block.startsWith('#'));
  const described = typeof front.description === 'string' ? front.description.trim() : '';
  const description = clip(oneLine(described || firstParagraph || `The ${name} skill.`), SKILL_DESCRIPTION_MAX);
  return { file: file.name, name, description, text };
}

/** One entry of the agent-skills discovery index. */
export interface AgentSkillsIndexEntry {
  name: string;
  type: 'skill-md';
  description: string;
  url: string;
  digest: string;
}

/** The agent-skills discovery index (`/.well-known/agent-skills/index.json`). */
export interface AgentSkillsIndex {
  $schema: string;
  skills: AgentSkillsIndexEntry[];
}

/** True when a set serves its entries in the discovery index: both `agents.skill_md` and `agents.well_known_skills` on. */
export function listsSkills(set: DocSet): boolean {
  return set.config.agents.skill_md && set.config.agents.well_known_skills;
}

/**
 * Builds `/.well-known/agent-skills/index.json` for a viewer: the `skill.md` of every set with
 * both skill keys on that the viewer may see, then its hand-written skills, each with the URL it is
 * served at and `digest` = sha256 of exactly the bytes served there to the same viewer. Names are
 * unique: a name another set already used gets the set key in front. Null when no set (of
 * `options.sets`, when given) has both keys on (the route answers 404).
 *
 * @example
 * const index = await buildAgentSkillsIndex(kit, { user: null }, { origin: 'https://example.com' });
 */
export async function buildAgentSkillsIndex(
  kit: Kit,
  viewer: Viewer,
  options: {
    origin: string;
    /** Only these sets, e.g. those served on the request's host (default: every set of the kit). */
    sets?: Iterable<DocSet>;
  },
): Promise<AgentSkillsIndex | null> {
  const origin = cleanOrigin(options.origin);
  const sets = [...(options.sets ?? kit.sets.values())].filter(listsSkills);
  if (sets.length === 0) return null;
  const skills: AgentSkillsIndexEntry[] = [];
  const taken = new Set<string>();
  const unique = (name: string, setKey: string) => {
    let candidate = name;
    if (taken.has(candidate)) candidate = toSkillName(`${setKey}-${name}`) || name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name.slice(0, SKILL_NAME_MAX - 4)}-${n}`;
    taken.add(candidate);
    return candidate;
  };
  for (const set of sets) {
    if (!(await set.canView(viewer, {}))) continue;
    const versions = await set.versions(viewer);
    const { layout } = await layoutOf(set);
    if (!versions.some((version) => version.id === layout.defaultVersion)) continue;
    const skill = await buildSkillMd(set, viewer, { origin });
    skills.push({
      name: unique(skill.name, set.key),
      type: 'skill-md',
      description: skill.description,
      url: origin + skill.path,
      digest: sha256Digest(skill.text),
    });
    for (const extra of await listHandWrittenSkills(set)) {
      skills.push({
        name: unique(extra.name, set.key),
        type: 'skill-md',
        description: extra.description,
        url: origin + extra.path,
        digest: sha256Digest(extra.text),
      });
    }
  }
  return { $schema: AGENT_SKILLS_SCHEMA_URL, skills };
}
