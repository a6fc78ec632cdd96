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
  return new Re2Rewriter(pattern).rewrite();
}

/** A character read from a pattern: its JavaScript source, and the character it stands for if one. */
interface Atom {
  text: string;
  code: number | null;
}

/**
 * One pass over a pattern: `index` is the reading position, `frames` the flags of each open group
 * (the last one applies), `out` the JavaScript source so far.
 */
class Re2Rewriter {
  private readonly frames: Flags[] = [{ ignoreCase: false, dotAll: false }];
  private out = '';
  private index = 0;

  constructor(private readonly pattern: string) {}

  private get flags(): Flags {
    return this.frames[this.frames.length - 1]!;
  }

  rewrite(): string {
    const { pattern } = this;
    while (this.index < pattern.length) {
      const char = pattern[this.index]!;
      if (char === '\\') this.readBackslash();
      else if (char === '[') this.out += this.readClass();
      else if (char === '(') this.openGroup();
      else if (char === ')') this.closeGroup();
      else if (char === '.') {
        this.out += this.flags.dotAll ? '[\\s\\S]' : '.';
        this.index += 1;
      } else if (this.flags.ignoreCase && isLetter(char.charCodeAt(0))) {
        this.out += `[${char}${swapCase(char)}]`;
        this.index += 1;
      } else {
        this.out += char;
        this.index += 1;
      }
    }
    if (this.frames.length !== 1) throw new Error(`unclosed group in ${pattern}`);
    return this.out;
  }

  /** At a backslash outside a class: the anchors RE2 spells differently, else the escape. */
  private readBackslash(): void {
    const next = this.pattern[this.index + 1];
    if (next === 'z') {
      // Without the m flag, JavaScript's $ is the end of the text, as RE2's \z.
      this.out += '$';
      this.index += 2;
    } else if (next === 'A') {
      this.out += '^';
      this.index += 2;
    } else {
      this.out += this.readEscape().text;
    }
  }

  /** At a backslash: the escape as JavaScript source, and the character it stands for if one. */
  private readEscape(): Atom {
    const { pattern, index } = this;
    const next = pattern[index + 1];
    if (next === undefined) throw new Error(`trailing backslash in ${pattern}`);
    if (next === 'x') {
      if (pattern[index + 2] === '{') {
        const close = pattern.indexOf('}', index + 3);
        const code = Number.parseInt(pattern.slice(index + 3, close), 16);
        this.index = close + 1;
        if (!(code <= 0xffff)) throw new Error(`\\x{...} beyond the BMP in ${pattern}`);
        return { text: `\\u${code.toString(16).padStart(4, '0')}`, code };
      }
      const code = Number.parseInt(pattern.slice(index + 2, index + 4), 16);
      this.index += 4;
      return { text: `\\x${pattern.slice(this.index - 2, this.index)}`, code };
    }
    this.index += 2;
    if ('pPQECX'.includes(next)) throw new Error(`unsupported escape \\${next} in ${pattern}`);
    const named: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };
    if (next in named) return { text: `\\${next}`, code: named[next]! };
    if (/[A-Za-z0-9]/.test(next)) return { text: `\\${next}`, code: null };
    return { text: `\\${next}`, code: next.charCodeAt(0) };
  }

  /** At "[": the class, with the other case of its letters added where case is ignored. */
  private readClass(): string {
    const { pattern } = this;
    this.index += 1; // [
    let negated = false;
    if (pattern[this.index] === '^') {
      negated = true;
      this.index += 1;
    }
    let body = '';
    let extra = '';
    let first = true;
    while (this.index < pattern.length && (pattern[this.index] !== ']' || first)) {
      first = false;
      if (pattern.startsWith('[:', this.index)) {
        body += this.readPosixClass();
        continue;
      }
      const low = this.readClassAtom();
      if (pattern[this.index] === '-' && pattern[this.index + 1] !== ']' && low.code !== null) {
        this.index += 1;
        const high = this.readClassAtom();
        if (high.code === null) throw new Error(`class range ending in a class escape in ${pattern}`);
        body += `${low.text}-${high.text}`;
        if (this.flags.ignoreCase) extra += foldedRanges(low.code, high.code);
        continue;
      }
      body += low.text;
      if (this.flags.ignoreCase && low.code !== null && isLetter(low.code)) extra += foldedRanges(low.code, low.code);
    }
    if (pattern[this.index] !== ']') throw new Error(`unclosed class in ${pattern}`);
    this.index += 1;
    return `[${negated ? '^' : ''}${body}${extra}]`;
  }

  /** At "[:" inside a class: the members of the POSIX class named there. */
  private readPosixClass(): string {
    const { pattern } = this;
    const close = pattern.indexOf(':]', this.index + 2);
    const name = pattern.slice(this.index + 2, close);
    const members = POSIX_CLASSES[name];
    if (close < 0 || members === undefined) throw new Error(`unknown POSIX class in ${pattern}`);
    this.index = close + 2;
    return members;
  }

  /** One character or escape inside a class. */
  private readClassAtom(): Atom {
    if (this.pattern[this.index] === '\\') return this.readEscape();
    const code = this.pattern.charCodeAt(this.index);
    this.index += 1;
    return { text: classChar(code), code };
  }

  /** At "(": a plain group, a named group, or a group (or rest of a group) with its own flags. */
  private openGroup(): void {
    const { pattern } = this;
    if (pattern[this.index + 1] !== '?') {
      this.frames.push({ ...this.flags });
      this.out += '(';
      this.index += 1;
      return;
    }
    const rest = pattern.slice(this.index + 2);
    const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      this.frames.push({ ...this.flags });
      this.out += `(?<${named[1]}>`;
      this.index += 2 + named[0].length;
      return;
    }
    const modifier = /^([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
    if (!modifier) throw new Error(`unsupported group syntax in ${pattern}`);
    const next = { ...this.flags };
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
    this.index += 2 + modifier[0].length;
    if (modifier[3] === ')') {
      // "(?i)": the flags hold for the rest of the enclosing group.
      this.frames[this.frames.length - 1] = next;
    } else {
      this.frames.push(next);
      this.out += '(?:';
    }
  }

  private closeGroup(): void {
    if (this.frames.length === 1) throw new Error(`unbalanced ")" in ${this.pattern}`);
    this.frames.pop();
    this.out += ')';
    this.index += 1;
  }
}
