import type { Kit } from '@kit/core';
import type { McpScope } from './context.js';

/**
 * The text every client receives on connect: the one workflow (search, read, cite, feedback, and
 * for a caller who may change docs, read before writing and validate after) and, on a local
 * server with several sets, the set keys and names to pass as `set`. `named: false` leaves the web
 * set's product name out, for a caller who may read none of it; `writes: false` leaves the writing
 * steps out, for a caller offered no author tools (a read-only guest is never told to validate);
 * `feedback: false` leaves `submit_feedback` out where it is not offered.
 */
export async function mcpInstructions(
  kit: Kit,
  scope: McpScope,
  { named = true, writes = true, feedback = true }: { named?: boolean; writes?: boolean; feedback?: boolean } = {},
): Promise<string> {
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
  const steps = [
    'Search first: call search_docs with the words of the question before answering from memory; list_pages shows the navigation by group. No results means these docs do not cover it.',
    writes
      ? 'Read before writing: call read_page on every page you rely on, cite or change. Its text ends with a content_hash line; pass that hash as based_on when you change the page.'
      : 'Read before answering: call read_page on every page you rely on or cite.',
    ...(writes
      ? [
          'Validate after writing: call validate_docs (or run `kit validate`) after changing docs and fix every error it reports.',
        ]
      : []),
    'Cite page URLs: point the user to the url of each page you used, so they can read it themselves.',
    ...(feedback
      ? [
          'Use submit_feedback when a page is wrong, outdated or missing what you needed: helpful false and a comment saying what was wrong.',
        ]
      : []),
  ];
  lines.push(
    '',
    'Workflow:',
    ...steps.map((step, at) => `${at + 1}. ${step}`),
    '',
    'Pages are also resources: docs://{set}/{version}/{path} (version "current" for an unversioned set; a non-default locale goes in front of the path, e.g. docs://docs/3.x/ar/intro).',
  );
  return lines.join('\n');
}
