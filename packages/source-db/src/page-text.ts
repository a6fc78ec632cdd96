import { contentHash, normalizeForHash } from '@kit/core';
import type { SourceProblem, Visibility } from '@kit/core';
import { isMap, parseDocument, stringify } from 'yaml';

/** A page file split the way every Kit source splits it, before a row or a file gives it a path. */
export interface ParsedPageText {
  /** The page file with LF line endings and no BOM: what is stored and hashed. */
  document: string;
  frontmatter: Record<string, unknown>;
  body: string;
  /** Frontmatter `title`, else the first H1 outside code; null when neither exists. */
  title: string | null;
  description?: string;
  contentHash: string;
  bodyLine: number;
  visibility: Visibility;
  problems: SourceProblem[];
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits a page file into frontmatter and body with the rules of repository sets, so a page moved
 * between a folder and a database reads the same: broken frontmatter is reported as
 * `frontmatter.schema` on its line and the page is served without it.
 */
export function parsePageText(raw: string): ParsedPageText {
  const document = normalizeForHash(raw);
  const problems: SourceProblem[] = [];
  const report = (message: string, line: number, fix: string) =>
    problems.push({ rule: 'frontmatter.schema', severity: 'error', message, line, fix });

  let frontmatter: Record<string, unknown> = {};
  let body = document;
  let bodyLine = 1;
  let lineOf = (_key: string) => 1;

  if (OPENING.test(document)) {
    const lines = document.split('\n');
    const closing = lines.findIndex((line, index) => index > 0 && CLOSING.test(line));
    if (closing === -1) {
      report(
        'The frontmatter block opened on line 1 is never closed.',
        1,
        'End the frontmatter with a line holding only `---`, or remove the opening `---`.',
      );
    } else {
      const yamlLines = lines.slice(1, closing);
      const parsed = parseYaml(yamlLines.join('\n'));
      lineOf = (key) => {
        const index = yamlLines.findIndex((line) => line.startsWith(`${key}:`));
        return index === -1 ? 2 : index + 2;
      };
      if (parsed.ok) frontmatter = parsed.value;
      else report(parsed.message, parsed.line, parsed.fix);
      body = lines.slice(closing + 1).join('\n');
      bodyLine = closing + 2;
    }
  }

  const title = stringKey(frontmatter, 'title', (m, f) => report(m, lineOf('title'), f)) ?? firstHeading(body);
  const description = stringKey(frontmatter, 'description', (m, f) => report(m, lineOf('description'), f));
  return {
    document,
    frontmatter,
    body,
    title,
    ...(description === undefined ? {} : { description }),
    contentHash: contentHash(document),
    bodyLine,
    visibility: pageVisibility(frontmatter.visibility),
    problems,
  };
}

/**
 * The page file for frontmatter and a body given apart (as `write_page` receives them): a YAML
 * block when there is frontmatter, then the body.
 */
export function composePageText(frontmatter: Record<string, unknown> | undefined, body: string): string {
  const normalizedBody = normalizeForHash(body);
  if (!frontmatter || Object.keys(frontmatter).length === 0) return normalizedBody;
  return `---\n${stringify(frontmatter, { lineWidth: 0 })}---\n${normalizedBody}`;
}

type YamlResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; line: number; fix: string };

function parseYaml(source: string): YamlResult {
  if (source.trim() === '') return { ok: true, value: {} };
  const parsed = parseDocument(source, { uniqueKeys: true, prettyErrors: false });
  const [error] = parsed.errors;
  if (error) {
    // The YAML starts on file line 2.
    const line = source.slice(0, Math.min(error.pos[0], source.length)).split('\n').length + 1;
    return {
      ok: false,
      message: `The frontmatter is not valid YAML (line ${line}): ${error.message.split('\n')[0]}`,
      line,
      fix: 'Fix the YAML on that line; the page is served without its frontmatter until then.',
    };
  }
  if (!isMap(parsed.contents)) {
    return {
      ok: false,
      message: 'The frontmatter must be a mapping of keys (such as `title: Routing`), not a list or a single value.',
      line: 2,
      fix: 'Write the frontmatter as `key: value` lines.',
    };
  }
  return { ok: true, value: parsed.toJS({ maxAliasCount: 100 }) as Record<string, unknown> };
}

function stringKey(
  frontmatter: Record<string, unknown>,
  key: 'title' | 'description',
  report: (message: string, fix: string) => void,
): string | undefined {
  const value = frontmatter[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  report(
    `The frontmatter key \`${key}\` must be a string, not ${Array.isArray(value) ? 'a list' : typeof value}.`,
    `Write \`${key}\` as plain text, quoted if it holds a colon.`,
  );
  return undefined;
}

/** Anything but `public` (trimmed, case-insensitive) is private, so a typo never publishes a page. */
function pageVisibility(value: unknown): Visibility {
  if (value === undefined || value === null) return 'public';
  return typeof value === 'string' && value.trim().toLowerCase() === 'public' ? 'public' : 'private';
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_H1 = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;

function firstHeading(markdown: string): string | null {
  const lines = markdown.split('\n');
  let fence: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    const atx = ATX_H1.exec(line);
    if (atx) {
      const heading = (atx[1] ?? '').trim();
      if (heading) return heading;
      continue;
    }
    const previous = index > 0 ? lines[index - 1]! : '';
    const beforePrevious = index > 1 ? lines[index - 2]! : '';
    if (SETEXT_H1.test(line) && previous.trim() !== '' && beforePrevious.trim() === '' && !/^ {4}/.test(previous)) {
      return previous.trim();
    }
  }
  return null;
}
