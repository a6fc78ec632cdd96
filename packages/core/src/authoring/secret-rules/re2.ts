// gitleaks writes its rules in Go's RE2 syntax. Most of it is JavaScript syntax too; what is not:
// flags that switch on or off inside a pattern ("(?i)" halfway, "(?-i:...)", "(?s:...)"), which
// Node 22's RegExp (V8 12.4; modifiers arrived in V8 12.5) cannot scope, named groups written "(?P<name>", "\z", and POSIX classes. This
// rewrites a pattern into one JavaScript reads the same way: a case-insensitive part spells each
// letter in both cases ("[aA]"), so the RegExp itself needs no flags.

interface Flags {
  ignoreCase: boolean;
  dotAll: boolean;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\t\\n\\v\\f\\r ',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function swapCase(char: string): string {
  return char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
}

/** A character as a class member, escaped where a class would read it as syntax. */
function classChar(code: number): string {
  const char = String.fromCharCode(code);
  if ('\\]^-['.includes(char)) return `\\${char}`;
  if (code < 0x20 || code > 0x7e) return `\\u${code.toString(16).padStart(4, '0')}`;
  return char;
}

/** The ASCII letters of `low`..`high` in the other case, as class ranges. */
function foldedRanges(low: number, high: number): string {
  let out = '';
  for (const [start, end, shift] of [
    [0x61, 0x7a, -0x20],
    [0x41, 0x5a, 0x20],
  ] as const) {
    const from = Math.max(low, start);
    const to = Math.min(high, end);
    if (from <= to)
      out += from === to ? classChar(from + shift) : `${classChar(from + shift)}-${classChar(to + shift)}`;
  }
  return out;
}

/**
 * Rewrites a Go RE2 pattern into JavaScript RegExp source with the same meaning, to be compiled
 * without flags. Throws on syntax it does not know (so a new upstream rule fails the generator and
 * the tests rather than matching something else).
 *
 * @example
 * re2ToJs('(?i)api(?-i:KEY)'); // '[aA][pP][iI](?:KEY)'
 */
export function re2ToJs(pattern: string): string {
  const frames: Flags[] = [{ ignoreCase: false, dotAll: false }];
  const flags = () => frames[frames.length - 1]!;
  let out = '';
  let index = 0;

  const readEscape = (): { text: string; code: number | null } => {
    // At a backslash: the escape as JavaScript source, and the character it stands for if one.
    const next = pattern[index + 1];
    if (next === undefined) throw new Error(`trailing backslash in ${pattern}`);
    if (next === 'x') {
      if (pattern[index + 2] === '{') {
        const close = pattern.indexOf('}', index + 3);
        const code = Number.parseInt(pattern.slice(index + 3, close), 16);
        index = close + 1;
        if (!(code <= 0xffff)) throw new Error(`\\x{...} beyond the BMP in ${pattern}`);
        return { text: `\\u${code.toString(16).padStart(4, '0')}`, code };
      }
      const code = Number.parseInt(pattern.slice(index + 2, index + 4), 16);
      index += 4;
      return { text: `\\x${pattern.slice(index - 2, index)}`, code };
    }
    index += 2;
    if ('pPQECX'.includes(next)) throw new Error(`unsupported escape \\${next} in ${pattern}`);
    const named: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };
    if (next in named) return { text: `\\${next}`, code: named[next]! };
    if (/[A-Za-z0-9]/.test(next)) return { text: `\\${next}`, code: null };
    return { text: `\\${next}`, code: next.charCodeAt(0) };
  };

  const readClass = (): string => {
    index += 1; // [
    let negated = false;
    if (pattern[index] === '^') {
      negated = true;
      index += 1;
    }
    let body = '';
    let extra = '';
    let first = true;
    while (index < pattern.length && (pattern[index] !== ']' || first)) {
      first = false;
      if (pattern.startsWith('[:', index)) {
        const close = pattern.indexOf(':]', index + 2);
        const name = pattern.slice(index + 2, close);
        const members = POSIX_CLASSES[name];
        if (close < 0 || members === undefined) throw new Error(`unknown POSIX class in ${pattern}`);
        body += members;
        index = close + 2;
        continue;
      }
      let low: { text: string; code: number | null };
      if (pattern[index] === '\\') low = readEscape();
      else {
        const code = pattern.charCodeAt(index);
        low = { text: classChar(code), code };
        index += 1;
      }
      if (pattern[index] === '-' && pattern[index + 1] !== ']' && low.code !== null) {
        index += 1;
        let high: { text: string; code: number | null };
        if (pattern[index] === '\\') high = readEscape();
        else {
          const code = pattern.charCodeAt(index);
          high = { text: classChar(code), code };
          index += 1;
        }
        if (high.code === null) throw new Error(`class range ending in a class escape in ${pattern}`);
        body += `${low.text}-${high.text}`;
        if (flags().ignoreCase) extra += foldedRanges(low.code, high.code);
        continue;
      }
      body += low.text;
      if (flags().ignoreCase && low.code !== null && isLetter(low.code)) extra += foldedRanges(low.code, low.code);
    }
    if (pattern[index] !== ']') throw new Error(`unclosed class in ${pattern}`);
    index += 1;
    return `[${negated ? '^' : ''}${body}${extra}]`;
  };

  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === 'z') {
        // Without the m flag, JavaScript's $ is the end of the text, as RE2's \z.
        out += '$';
        index += 2;
      } else if (next === 'A') {
        out += '^';
        index += 2;
      } else {
        out += readEscape().text;
      }
    } else if (char === '[') {
      out += readClass();
    } else if (char === '(') {
      if (pattern[index + 1] !== '?') {
        frames.push({ ...flags() });
        out += '(';
        index += 1;
        continue;
      }
      const rest = pattern.slice(index + 2);
      const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      if (named) {
        frames.push({ ...flags() });
        out += `(?<${named[1]}>`;
        index += 2 + named[0].length;
        continue;
      }
      const modifier = /^([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
      if (!modifier) throw new Error(`unsupported group syntax in ${pattern}`);
      const next = { ...flags() };
      for (const [letters, on] of [
        [modifier[1] ?? '', true],
        [modifier[2] ?? '', false],
      ] as const) {
        for (const letter of letters) {
          if (letter === 'i') next.ignoreCase = on;
          else if (letter === 's') next.dotAll = on;
          else throw new Error(`unsupported flag ${letter} in ${pattern}`);
        }
      }
      index += 2 + modifier[0].length;
      if (modifier[3] === ')') {
        // "(?i)": the flags hold for the rest of the enclosing group.
        frames[frames.length - 1] = next;
      } else {
        frames.push(next);
        out += '(?:';
      }
    } else if (char === ')') {
      if (frames.length === 1) throw new Error(`unbalanced ")" in ${pattern}`);
      frames.pop();
      out += ')';
      index += 1;
    } else if (char === '.') {
      out += flags().dotAll ? '[\\s\\S]' : '.';
      index += 1;
    } else if (flags().ignoreCase && isLetter(char.charCodeAt(0))) {
      out += `[${char}${swapCase(char)}]`;
      index += 1;
    } else {
      out += char;
      index += 1;
    }
  }
  if (frames.length !== 1) throw new Error(`unclosed group in ${pattern}`);
  return out;
}
