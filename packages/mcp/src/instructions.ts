import type { Kit } from '@kit/core';
import type { McpScope } from './context.js';

/**
 * The text every client receives on connect: the one workflow (search, read, validate, cite,
 * feedback) and, on a local server with several sets, the set keys and names to pass as `set`.
 * `named: false` leaves the web set's product name out, for a caller who may read none of it.
 */
export async function mcpInstructions(kit: Kit, scope: McpScope, { named = true } = {}): Promise<string> {
  const keys = scope.kind === 'web' ? [scope.set] : [...kit.sets.keys()];
  const names = new Map<string, string>();
  for (const key of keys) names.set(key, (await kit.set(key).manifest()).name);

  const lines: string[] = [];
  if (scope.kind === 'web') {
    lines.push(
      named
        ? `This server answers questions from the ${names.get(scope.set)} documentation (set "${scope.set}").`
        : `This server answers questions from the documentation set "${scope.set}".`,
    );
  } else if (keys.length === 1) {
    lines.push(`This server serves the ${names.get(keys[0]!)} documentation (set "${keys[0]}") from this project.`);
  } else {
    lines.push(
      `This server serves ${keys.length} documentation sets from this project. Pass \`set\` to choose one; without it tools use the default set "${kit.config.default}".`,
      '',
      'Sets:',
      ...keys.map((key) => `- \`${key}\`: ${names.get(key)}${key === kit.config.default ? ' (default)' : ''}`),
    );
  }
  lines.push(
    '',
    'Workflow:',
    '1. Search first: call search_docs with the words of the question before answering from memory; list_pages shows the navigation by group.',
    '2. Read before writing: call read_page on every page you rely on, cite or change. Its text ends with a content_hash line; pass that hash as based_on when you change the page.',
    '3. Validate after writing: call validate_docs (or run `kit validate`) after changing docs and fix every error it reports.',
    '4. Cite page URLs: point the user to the url of each page you used, so they can read it themselves.',
    '5. Use submit_feedback when a page is wrong, outdated or missing what you needed: helpful false and a comment saying what was wrong.',
    '',
    'Pages are also resources: docs://{set}/{version}/{path} (version "current" for an unversioned set; a non-default locale goes in front of the path, e.g. docs://docs/3.x/ar/intro).',
  );
  return lines.join('\n');
}
