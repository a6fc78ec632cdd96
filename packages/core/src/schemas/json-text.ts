/**
 * Reading JSON text with positions. `JSON.parse` gives the value, and an error message whose
 * position wording changes between Node.js releases, but no way to point a schema error at a line. This scanner walks the text
 * once, reports the first syntax error with its line and column, and records where every value
 * (by JSON Pointer) starts so schema problems can name the line an author must edit.
 */

export interface TextPosition {
  line: number;
  column: number;
}

export type JsonTextResult =
  | { ok: true; value: unknown; positions: Map<string, TextPosition> }
  | { ok: false; message: string; line: number; column: number };

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Position (1-based line and column) of a character offset in `text`. */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Escapes one key for a JSON Pointer (RFC 6901). */
export function pointerSegment(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

function describeChar(char: string | undefined): string {
  if (char === undefined) return 'the end of the file';
  if (char === '\n') return 'a line break';
  return `'${char}'`;
}

/**
 * Parses JSON text (a leading BOM is ignored). On success returns the value and the position of
 * every value by JSON Pointer (`''` is the root, `/versions/0/id` a nested value); on failure
 * the first syntax error with line and column.
 */
export function parseJsonText(input: string): JsonTextResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const positions = new Map<string, TextPosition>();
  const offsets: Array<[string, number]> = [];
  let i = 0;

  const skipSpace = () => {
    while (i < text.length) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else break;
    }
  };
  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const expect = (char: string, context: string) => {
    if (text[i] !== char) fail(`Expected ${describeChar(char)} ${context} but found ${describeChar(text[i])}`);
    i++;
  };

  const scanString = () => {
    const start = i;
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return text.slice(start, i);
      }
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\u escape in string');
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail(`Invalid escape \\${next ?? ''} in string`);
        continue;
      }
      if (c === '\n' || (c !== undefined && c.charCodeAt(0) < 0x20))
        fail('Unescaped control character or line break inside a string');
      i++;
    }
    return fail('Unterminated string', start);
  };

  const scanValue = (pointer: string): void => {
    skipSpace();
    offsets.push([pointer, i]);
    const c = text[i];
    if (c === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail(`Expected a double-quoted property name but found ${describeChar(text[i])}`);
        const key = JSON.parse(scanString()) as string;
        skipSpace();
        expect(':', `after property name "${key}"`);
        scanValue(`${pointer}/${pointerSegment(key)}`);
        skipSpace();
        if (text[i] === ',') {
          const comma = i;
          i++;
          skipSpace();
          if (text[i] === '}') fail('Trailing comma before }', comma);
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`Expected ',' or '}' after a property value but found ${describeChar(text[i])}`);
      }
    }
    if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        scanValue(`${pointer}/${index}`);
        skipSpace();
        if (text[i] === ',') {
          const comma = i;
          i++;
          skipSpace();
          if (text[i] === ']') fail('Trailing comma before ]', comma);
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`Expected ',' or ']' after an array item but found ${describeChar(text[i])}`);
      }
    }
    if (c === '"') {
      scanString();
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal) {
      i += literal[0].length;
      return;
    }
    fail(
      c === undefined
        ? 'Unexpected end of the file: a value is missing'
        : `Unexpected ${describeChar(c)}: expected a value`,
    );
  };

  try {
    scanValue('');
    skipSpace();
    if (i < text.length) fail(`Unexpected ${describeChar(text[i])} after the end of the JSON value`);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const at = positionAt(text, error.offset);
    return { ok: false, message: error.message, ...at };
  }

  // Lines are computed in one pass over the recorded offsets (they were recorded in text order).
  let line = 1;
  let lineStart = 0;
  let cursor = 0;
  for (const [pointer, offset] of offsets) {
    for (; cursor < offset; cursor++) {
      if (text.charCodeAt(cursor) === 10) {
        line++;
        lineStart = cursor + 1;
      }
    }
    positions.set(pointer, { line, column: offset - lineStart + 1 });
  }
  return { ok: true, value: JSON.parse(text), positions };
}
