import { relative } from 'node:path';
import { createUrlLayout, type Kit, markdownUrl, type ResolvedConfig } from '@kit/core';

export const BLOCK_START = '<!-- kit:start -->';
export const BLOCK_END = '<!-- kit:end -->';

/**
 * Writes `block` into `existing` between the Kit markers, replacing only Kit's own block (every
 * earlier copy too, so a file edited by hand never ends with two). Text outside the markers is
 * kept byte for byte; a file without a block gets it appended after a blank line.
 *
 * @example
 * replaceBlock('# Agents\n', 'hello'); // '# Agents\n\n<!-- kit:start -->\nhello\n<!-- kit:end -->\n'
 */
export function replaceBlock(existing: string, block: string): string {
  const wrapped = `${BLOCK_START}\n${block.replace(/\s+$/, '')}\n${BLOCK_END}`;
  const ranges: Array<[number, number]> = [];
  let from = 0;
  while (true) {
    const start = existing.indexOf(BLOCK_START, from);
    if (start === -1) break;
    const end = existing.indexOf(BLOCK_END, start + BLOCK_START.length);
    if (end === -1) break;
    ranges.push([start, end + BLOCK_END.length]);
    from = end + BLOCK_END.length;
  }
  if (ranges.length === 0) {
    if (existing.trim() === '') return `${wrapped}\n`;
    return `${existing.replace(/\s+$/, '')}\n\n${wrapped}\n`;
  }
  let result = '';
  let cursor = 0;
  ranges.forEach(([start, end], index) => {
    result += existing.slice(cursor, start);
    if (index === 0) {
      result += wrapped;
      cursor = end;
    } else {
      // A removed duplicate takes its line break with it.
      result = result.replace(/\n+$/, '\n');
      cursor = existing[end] === '\n' ? end + 1 : end;
    }
  });
  return result + existing.slice(cursor);
}

/**
 * The instructions block for coding agents: how to use the docs tools, the `review` mode, and a
 * docs index of every set (default version and locale) cut to `instructions.index_max_bytes`.
 */
export async function instructionsBlock(kit: Kit): Promise<string> {
  const config = kit.config;
  const lines: string[] = [
    '## Documentation (Kit)',
    '',
    'This project keeps its documentation in Kit. Work with the docs through the `kit` MCP server (`kit mcp`) or the `kit` command, run from the project root as `npx -p @kit/cli kit <command>` (plain `npx kit` would fetch an unrelated npm package named `kit` when @kit/cli is not installed):',
    '',
    '- Search first: `search_docs` (or `kit search "<query>"`) finds the page and section; cite page URLs in answers.',
    '- Read before writing: `read_page` returns a page as Markdown; `list_pages` shows the navigation.',
    editLine(config),
    '- After a code change run `affected_pages` (or `kit affected`): pages whose `sources:` match changed files are listed as `stale` until you update them.',
    ...(config.ai.sync.provider
      ? [
          '- The docs agent can update stale pages for you: `kit sync --dry-run` shows its proposed changes as a diff, `kit sync` writes them through the author tools (review the result before committing).',
        ]
      : []),
    '- Validate after writing: `validate_docs` (or `kit validate`) reports broken links, navigation entries without pages and schema errors, each with a rule id and a fix.',
    '- Report a wrong or missing page with `submit_feedback`.',
    '',
    reviewLine(config),
  ];
  if (kit.sets.size > 1) {
    lines.push(
      '',
      `Doc sets: ${[...kit.sets.keys()].map((key) => `\`${key}\``).join(', ')} (default \`${config.default}\`); pass \`set\` to the tools.`,
    );
  }
  if (config.instructions.index) {
    const index = await docsIndex(kit, config.instructions.index_max_bytes);
    const leftOut = setsLeftOutOfIndex(kit);
    const note = leftOut.length > 0 ? leftOutNote(leftOut) : '';
    if (index !== '' || note !== '') {
      lines.push('', '### Docs index', '', ...[index, note].filter((part) => part !== ''));
    }
  }
  return lines.join('\n');
}

/** A set the docs index leaves out, and the access mode that keeps it out. */
export interface SetLeftOut {
  key: string;
  mode: 'auth' | 'gate';
}

/**
 * The sets whose pages the docs index leaves out: with `access.mode` `auth` or `gate` a page is
 * only for a signed-in or admitted reader, and the instructions file is committed to the
 * repository, where anyone with the code would read the titles and descriptions.
 *
 * @example
 * setsLeftOutOfIndex(kit); // [{ key: 'internal', mode: 'auth' }]
 */
export function setsLeftOutOfIndex(kit: Kit): SetLeftOut[] {
  const leftOut: SetLeftOut[] = [];
  for (const docSet of kit.sets.values()) {
    const mode = docSet.config.access.mode;
    if (mode === 'auth' || mode === 'gate') leftOut.push({ key: docSet.key, mode });
  }
  return leftOut;
}

/**
 * The sentence both the block and `kit agents`' output use for the sets left out of the index.
 *
 * @example
 * leftOutNote([{ key: 'internal', mode: 'auth' }]);
 * // 'Not in this index: the set `internal` (access mode `auth`): its pages are only for ...'
 */
export function leftOutNote(leftOut: readonly SetLeftOut[]): string {
  const named = leftOut.map((set) => `\`${set.key}\` (access mode \`${set.mode}\`)`).join(', ');
  const one = leftOut.length === 1;
  return `Not in this index: the set${one ? '' : 's'} ${named}: ${one ? 'its' : 'their'} pages are only for signed-in or admitted readers, so their titles stay out of this file. Find them with \`list_pages\` and \`search_docs\` of the local \`kit mcp\` (pass \`set\`).`;
}

/**
 * Where docs are changed: the files of each repository set (by hand or with the author tools of
 * `kit mcp`), and database sets only through the author tools, which also write the branch's docs
 * migration.
 */
function editLine(config: ResolvedConfig): string {
  const sets = Object.values(config.sets);
  const folders = sets
    .filter((set) => set.source.driver === 'repository')
    .map((set) => `\`${toSlashes(relative(config.root, set.source.path)) || '.'}/\``);
  const database = sets.filter((set) => set.source.driver === 'database').map((set) => `\`${set.key}\``);
  const tools = '`write_page`, `move_page`, `delete_page`, `update_navigation` and `update_manifest`';
  const parts: string[] = [];
  if (folders.length > 0) {
    parts.push(
      `- Change docs in the same change as the code they describe: edit their Markdown files (pages, \`navigation.json\`, \`kit.json\`) in ${folders.join(', ')}, or use ${tools} (pass \`based_on\`, the \`content_hash\` you read).`,
    );
  }
  if (database.length > 0) {
    const migrations = toSlashes(relative(config.root, config.migrations.path)) || '.';
    parts.push(
      `- The pages of the database set${database.length === 1 ? '' : 's'} ${database.join(', ')} change only through ${tools} of \`kit mcp\`: each change goes into the local database and this branch's docs migration in \`${migrations}/\`; commit that file with the code (deploys apply it with \`kit migrate\`).`,
    );
  }
  return parts.join('\n');
}

function toSlashes(path: string): string {
  return path.split('\\').join('/');
}

function reviewLine(config: ResolvedConfig): string {
  const modes = new Set(Object.values(config.sets).map((set) => set.review));
  if (modes.size === 0) modes.add(config.review);
  if (modes.size > 1) {
    return 'Review: it differs per set; with `review: required` docs changes made outside a pull request are drafts until a person publishes them, with `auto` they publish at once (still revisioned). Changes to docs files in this repository are reviewed with the pull request.';
  }
  return [...modes][0] === 'auto'
    ? 'Review mode `auto`: docs changes made outside a pull request publish at once and are still revisioned. Changes to docs files in this repository are reviewed with the pull request.'
    : 'Review mode `required`: docs changes made outside a pull request are drafts until a person publishes them. Changes to docs files in this repository are reviewed with the pull request.';
}

/**
 * One line per page in navigation order (`- [Title](markdown URL): description`), grouped by
 * navigation group, cut at `maxBytes` (UTF-8) on a whole line with a note of what was left out.
 * Only sets with `access.mode` `public` are listed (see {@link setsLeftOutOfIndex}).
 */
export async function docsIndex(kit: Kit, maxBytes: number): Promise<string> {
  const viewer = { user: null };
  const entries: string[] = [];
  for (const docSet of kit.sets.values()) {
    if (docSet.config.access.mode !== 'public') continue;
    const listing = await docSet.listPages({}, viewer).catch(() => null);
    if (!listing) continue;
    const layout = createUrlLayout(docSet.config.route.prefix, await docSet.manifest());
    if (kit.sets.size > 1) entries.push(`#### ${docSet.key}`);
    for (const group of listing.groups) {
      entries.push(`**${group.tab ? `${group.tab} › ` : ''}${group.label}**`);
      for (const page of group.pages) {
        const markdown = markdownUrl(layout, { version: listing.version, locale: listing.locale, path: page.path });
        const description = page.description ? `: ${oneLine(page.description)}` : '';
        entries.push(`- [${oneLine(page.title)}](${markdown})${description}`);
      }
    }
  }
  const encoder = new TextEncoder();
  // Room for the closing note, so the index with the note stays within maxBytes.
  const reserve = 100;
  const kept: string[] = [];
  let bytes = 0;
  for (let index = 0; index < entries.length; index++) {
    const size = encoder.encode(`${entries[index]}\n`).byteLength;
    const last = index === entries.length - 1;
    if (bytes + size + (last ? 0 : reserve) > maxBytes) {
      const left = entries.slice(index).filter((entry) => entry.startsWith('- ')).length;
      kept.push(`… ${left} more page${left === 1 ? '' : 's'}: call list_pages for the full list.`);
      break;
    }
    kept.push(entries[index]!);
    bytes += size;
  }
  return kept.join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
