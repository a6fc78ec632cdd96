import { isMap, parseDocument, stringify } from 'yaml';
import { contentHash, normalizeForHash } from '../hash/content-hash.js';
import type { SourceProblem, Visibility } from '../model/types.js';
import { validateFrontmatter } from '../schemas/documents.js';

/** What a page file says on its own, before a folder or a row gives it a version, locale and path. */
export interface ParsedPageFile {
  /** The page file with LF line endings and no BOM: what is stored and hashed. */
  document: string;
  frontmatter: Record<string, unknown>;
  body: string;
  /** Frontmatter `title` or the first H1; null when neither exists (the path decides then). */
  title: string | null;
  description?: string;
  contentHash: string;
  bodyLine: number;
  visibility: Visibility;
  problems: SourceProblem[];
}

const OPENING_DELIMITER = /^---[ \t]*\n/;
const CLOSING_DELIMITER = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits a page file into frontmatter and body, the one way every content source does it, so a page
 * moved between a folder and a database reads the same. Broken frontmatter never fails the page: it
 * is reported as `frontmatter.schema` with the file line of the YAML error and the page is served
 * with empty frontmatter, so one bad file cannot take a set down. Frontmatter that parses but
 * breaks `schemas/frontmatter.json` (`inserts: maybe`, `title: ""`) is reported the same way, on
 * the line of its key; a `title` or `description` that is not usable text is then ignored.
 *
 * @example
 * parsePageFile('---\ntitle: Routing\n---\nBody\n', '13.x/routing.md').title; // 'Routing'
 */
export function parsePageFile(raw: string, file?: string): ParsedPageFile {
  const text = normalizeForHash(raw);
  const problems: SourceProblem[] = [];
  const report = (message: string, line: number, fix: string) =>
    problems.push({ rule: 'frontmatter.schema', severity: 'error', message, ...(file ? { file } : {}), line, fix });

  let frontmatter: Record<string, unknown> = {};
  let body = text;
  let bodyLine = 1;

  if (OPENING_DELIMITER.test(text)) {
    const lines = text.split('\n');
    const closing = lines.findIndex((line, index) => index > 0 && CLOSING_DELIMITER.test(line));
    if (closing === -1) {
      report(
        'The frontmatter block opened on line 1 is never closed.',
        1,
        'End the frontmatter with a line holding only `---`, or remove the opening `---`.',
      );
    } else {
      // The YAML starts on file line 2, so its line numbers shift by one.
      const parsed = parseYaml(lines.slice(1, closing).join('\n'), 1);
      const yamlLines = lines.slice(1, closing);
      const lineOf = (key: string) => {
        const index = yamlLines.findIndex((line) => line.startsWith(`${key}:`));
        return index === -1 ? 2 : index + 2;
      };
      if (parsed.ok) {
        frontmatter = parsed.value;
        problems.push(...validateFrontmatter(frontmatter, file || undefined, { lineOf }));
      } else report(parsed.message, parsed.line, parsed.fix);
      body = lines.slice(closing + 1).join('\n');
      bodyLine = closing + 2;
    }
  }

  const title = textKey(frontmatter, 'title') ?? firstHeading(body);
  const description = textKey(frontmatter, 'description');
  return {
    document: text,
    frontmatter,
    body,
    title,
    ...(description === undefined ? {} : { description }),
    contentHash: contentHash(text),
    bodyLine,
    visibility: pageVisibility(frontmatter.visibility),
    problems,
  };
}

/**
 * The page file for frontmatter and a body given apart (as `write_page` receives them): a YAML
 * block when there is frontmatter, then the body.
 *
 * @example
 * composePageFile({ title: 'Queues' }, '# Queues\n'); // '---\ntitle: Queues\n---\n# Queues\n'
 */
export function composePageFile(frontmatter: Record<string, unknown> | undefined, body: string): string {
  const normalizedBody = normalizeForHash(body);
  if (!frontmatter || Object.keys(frontmatter).length === 0) return normalizedBody;
  return `---\n${stringify(frontmatter, { lineWidth: 0 })}---\n${normalizedBody}`;
}

type YamlResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; line: number; fix: string };

function parseYaml(source: string, lineOffset: number): YamlResult {
  if (source.trim() === '') return { ok: true, value: {} };
  const document = parseDocument(source, { uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error) {
    const offset = Math.min(error.pos[0], source.length);
    const line = source.slice(0, offset).split('\n').length + lineOffset;
    const reason = error.message.split('\n')[0] ?? error.message;
    return {
      ok: false,
      message: `The frontmatter is not valid YAML (line ${line}): ${reason}`,
      line,
      fix: 'Fix the YAML on that line; the page is served without its frontmatter until then.',
    };
  }
  if (!isMap(document.contents)) {
    return {
      ok: false,
      message: 'The frontmatter must be a mapping of keys (such as `title: Routing`), not a list or a single value.',
      line: 1 + lineOffset,
      fix: 'Write the frontmatter as `key: value` lines.',
    };
  }
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: 100 }) as Record<string, unknown> };
  } catch (error) {
    // Aliases that expand past the limit (a "billion laughs" block) parse but cannot be read.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `The frontmatter cannot be read: ${reason}.`,
      line: 1 + lineOffset,
      fix: 'Write the values out instead of repeating YAML aliases (`*name`); the page is served without its frontmatter until then.',
    };
  }
}

/** A text key's trimmed value; anything else (the schema check reports it) counts as absent. */
function textKey(frontmatter: Record<string, unknown>, key: 'title' | 'description'): string | undefined {
  const value = frontmatter[key];
  if (typeof value !== 'string') return undefined;
  return value.trim() === '' ? undefined : value.trim();
}

/** Anything but `public` (trimmed, case-insensitive) is private, so a typo never publishes a page. */
function pageVisibility(value: unknown): Visibility {
  if (value === undefined || value === null) return 'public';
  return typeof value === 'string' && value.trim().toLowerCase() === 'public' ? 'public' : 'private';
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_H1 = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;

/** The first level-one heading outside fenced code, as plain heading text. */
export function firstHeading(markdown: string): string | null {
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
    // A setext H1 here is a one-line paragraph underlined with `=`.
    const previous = index > 0 ? lines[index - 1]! : '';
    const beforePrevious = index > 1 ? lines[index - 2]! : '';
    if (SETEXT_H1.test(line) && previous.trim() !== '' && beforePrevious.trim() === '' && !/^ {4}/.test(previous)) {
      return previous.trim();
    }
  }
  return null;
}
