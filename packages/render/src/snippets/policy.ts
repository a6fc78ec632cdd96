import { KitError } from '@kit/core';
import { isSecretSegment } from '@kit/core/internal';

/** Reads snippet files for `<<< @/path` includes. The Node implementation is `@kit/render/node`. */
export interface SnippetReader {
  /**
   * Returns the text of `relativePath` inside `root`. Must refuse, with {@link snippetRefused},
   * anything that is missing, not a regular file, or resolves (through symlinks) outside `root`.
   * The path has already passed {@link checkSnippetPath}.
   */
  read(root: string, relativePath: string): Promise<string>;
}

/**
 * The one error every refused or missing include gets. It names the written path only: whether a
 * file exists, is a symlink or is secret is never told apart, so includes cannot probe the disk.
 */
export function snippetRefused(written: string): KitError {
  return new KitError(
    'snippet.refused',
    `Snippet "<<< @/${written}" cannot be included: no such readable file inside snippets.root. Dotfiles, config/, storage/, vendor/, node_modules/, keys and certificates are never included; point the include at a file under snippets.root.`,
  );
}

/**
 * Checks a snippet path before any file is touched and returns it normalized (forward slashes, no
 * `.` segments). Refuses absolute paths, `..`, backslashes, control characters, dotfiles and dot
 * folders, the folders `config/`, `storage/`, `vendor/`, `node_modules/`, and any segment whose name
 * looks like it holds secrets: `kit.config.*`, environment files, keys and certificates (with any
 * suffix), credentials, secrets, service-account JSON, password stores, Terraform state and variables.
 */
export function checkSnippetPath(written: string): string {
  if (written === '' || written.length > 512 || /[\u0000-\u001f\\%]/.test(written) || written.startsWith('/')) {
    throw snippetRefused(written);
  }
  const segments = written.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) throw snippetRefused(written);
  if (segments.some(isSecretSegment)) throw snippetRefused(written);
  return segments.join('/');
}

/** A parsed `<<< @/path#selector{lang}` line. */
export interface SnippetDirective {
  path: string;
  /** Lines `L3-L9` (1-based, inclusive) or a region name. */
  lines?: { from: number; to: number };
  region?: string;
  lang?: string;
}

const DIRECTIVE = /^<<<[ \t]+@\/([^\s#{}]+)(?:#([\w.-]+))?(?:[ \t]*\{([\w+#.-]+)\})?[ \t]*$/;
const LINE_RANGE = /^L(\d+)(?:-L?(\d+))?$/;

/** Parses one include line, or null when the text is not an include. */
export function parseSnippetDirective(line: string): SnippetDirective | null {
  const match = DIRECTIVE.exec(line.trim());
  if (!match) return null;
  const directive: SnippetDirective = { path: match[1] as string };
  const selector = match[2];
  if (selector) {
    const range = LINE_RANGE.exec(selector);
    if (range) {
      const from = Number(range[1]);
      directive.lines = { from, to: range[2] ? Number(range[2]) : from };
    } else {
      directive.region = selector;
    }
  }
  if (match[3]) directive.lang = match[3];
  return directive;
}

const REGION_START = /#region\b[ \t]*([\w.-]+)?/;
const REGION_END = /#endregion\b/;

/**
 * Cuts the selected part out of a snippet file: a line range, a `#region name` ... `#endregion`
 * block (in any comment syntax, markers left out, indentation kept), or the whole file. Region
 * markers elsewhere in the file are dropped from the output. Null when the selection is empty.
 */
export function selectSnippet(text: string, directive: SnippetDirective): string | null {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  let selected: string[];
  if (directive.lines) {
    const { from, to } = directive.lines;
    if (from < 1 || to < from || from > lines.length) return null;
    selected = lines.slice(from - 1, to);
  } else if (directive.region) {
    const start = lines.findIndex((line) => REGION_START.exec(line)?.[1] === directive.region);
    if (start === -1) return null;
    let depth = 0;
    let end = lines.length;
    for (let index = start + 1; index < lines.length; index++) {
      const line = lines[index] as string;
      if (REGION_START.test(line)) depth++;
      else if (REGION_END.test(line)) {
        if (depth === 0) {
          end = index;
          break;
        }
        depth--;
      }
    }
    selected = lines.slice(start + 1, end);
  } else {
    selected = lines;
  }
  const kept = selected.filter((line) => !REGION_START.test(line) && !REGION_END.test(line));
  return dedent(kept).join('\n');
}

function dedent(lines: string[]): string[] {
  let indent = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === '') continue;
    indent = Math.min(indent, (/^[ \t]*/.exec(line) as RegExpExecArray)[0].length);
  }
  if (!Number.isFinite(indent) || indent === 0) return lines;
  return lines.map((line) => line.slice(indent));
}

const EXTENSION_LANGUAGES: Record<string, string> = {
  ts: 'ts',
  tsx: 'tsx',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'jsx',
  json: 'json',
  php: 'php',
  py: 'python',
  rb: 'ruby',
  go: 'go',
  rs: 'rust',
  sh: 'bash',
  bash: 'bash',
  yml: 'yaml',
  yaml: 'yaml',
  html: 'html',
  css: 'css',
  sql: 'sql',
  md: 'md',
  vue: 'vue',
  java: 'java',
  kt: 'kotlin',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cs: 'csharp',
  toml: 'toml',
  xml: 'xml',
};

/** The code fence language of an included file: `{lang}` if given, else from the extension. */
export function snippetLanguage(directive: SnippetDirective): string {
  if (directive.lang) return directive.lang;
  const extension = /\.([A-Za-z0-9]+)$/.exec(directive.path)?.[1]?.toLowerCase() ?? '';
  if (extension === 'blade' || directive.path.endsWith('.blade.php')) return 'blade';
  return EXTENSION_LANGUAGES[extension] ?? '';
}
