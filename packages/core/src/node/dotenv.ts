import { KitError } from '../errors/kit-error.js';

/**
 * Parses a `.env` file: `KEY=VALUE` lines, optional `export `, `#` comments (whole-line, or after an
 * unquoted value preceded by a space), single quotes (literal), double quotes (`\n`, `\t`, `\"`,
 * `\\` escapes, may span lines), and `${NAME}` expansion in unquoted and double-quoted values from
 * keys defined earlier in the file or from `env`. A line that is none of these is a
 * `config.invalid` naming the line, so a typo never silently drops a setting.
 *
 * @example
 * parseDotenv('KIT_REVIEW=auto # drafts publish at once\nKIT_ASK="true"');
 * // { KIT_REVIEW: 'auto', KIT_ASK: 'true' }
 */
export function parseDotenv(
  text: string,
  env: Readonly<Record<string, string | undefined>> = {},
  fileName = '.env',
): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const expand = (value: string) =>
    value.replace(/(?<!\\)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => values[name] ?? env[name] ?? '');

  for (let index = 0; index < lines.length; index++) {
    const lineNumber = index + 1;
    const line = lines[index]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line);
    if (!match) {
      // The line itself is not echoed: it may hold a secret.
      throw new KitError('config.invalid', `${fileName} line ${lineNumber}: expected KEY=VALUE (or a # comment)`);
    }
    const key = match[1]!;
    let rest = match[2]!;
    const quote = rest[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      // A quoted value may continue over the following lines until its closing quote.
      let body = rest.slice(1);
      let end = closingQuote(body, quote);
      while (end === -1 && index + 1 < lines.length) {
        index++;
        body += `\n${lines[index]!}`;
        end = closingQuote(body, quote);
      }
      if (end === -1) {
        throw new KitError(
          'config.invalid',
          `${fileName} line ${lineNumber}: the value of ${key} opens a ${quote} quote that never closes`,
        );
      }
      const trailing = body.slice(end + 1).trim();
      if (trailing !== '' && !trailing.startsWith('#')) {
        throw new KitError(
          'config.invalid',
          `${fileName} line ${lineNumber}: unexpected text after the quoted value of ${key}`,
        );
      }
      const raw = body.slice(0, end);
      values[key] = quote === "'" ? raw : quote === '"' ? unescapeDoubleQuoted(expand(raw)) : raw;
      continue;
    }
    const comment = rest.search(/\s#/);
    if (comment !== -1) rest = rest.slice(0, comment);
    values[key] = expand(rest.trim());
  }
  return values;
}

function closingQuote(body: string, quote: string): number {
  for (let position = 0; position < body.length; position++) {
    if (body[position] === '\\' && quote === '"') position++;
    else if (body[position] === quote) return position;
  }
  return -1;
}

function unescapeDoubleQuoted(value: string): string {
  return value.replace(/\\([nrt"\\$])/g, (_, char: string) => {
    if (char === 'n') return '\n';
    if (char === 'r') return '\r';
    if (char === 't') return '\t';
    return char;
  });
}
