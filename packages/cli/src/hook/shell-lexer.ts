/**
 * Reads a shell command line (POSIX sh / bash syntax) into its simple commands, the way the shell
 * would split and unquote them, so `kit hook` sees `g"it" push`, `git \<newline> push` and
 * `$(git push)` as the commands they run. It never runs or expands anything: an expansion
 * (`$NAME`, `$(...)`, a backquote) leaves its word marked dynamic, and the commands inside a
 * substitution, a heredoc body or a here-string are read as commands of their own.
 */

/** One word of a simple command after quote removal. */
export interface ShellWord {
  text: string;
  /** The word holds an expansion whose value the line does not show (`$NAME`, `${...}`, `$(...)`, backquotes). */
  dynamic: boolean;
  /** The words an unquoted brace expansion makes of it (`pu{sh,ll}` → `push`, `pull`). */
  alternatives?: string[];
}

/** The simple commands of a line, nested ones included, and whether the reading stopped short. */
export interface ShellReading {
  commands: ShellWord[][];
  /** Nesting went deeper than the reader follows: the line may hold commands it did not read. */
  incomplete: boolean;
}

/** Nesting levels of substitutions and scripts followed before the reading is called incomplete. */
export const MAX_SHELL_DEPTH = 12;

// Unquoted brace-expansion characters are kept as these private-use stand-ins until the word ends,
// so that a quoted `{` stays a plain character.
const BRACE_OPEN = '\uE000';
const BRACE_COMMA = '\uE001';
const BRACE_CLOSE = '\uE002';
const MAX_ALTERNATIVES = 64;

/**
 * The simple commands of a shell line, each a list of words. Separators (`;`, `&`, `|`, `&&`,
 * `||`, newlines, parentheses) end a command; redirections and their targets are left out;
 * comments are skipped. The commands of `$(...)`, backquotes, `<(...)`, heredoc bodies and
 * here-strings follow, read the same way.
 *
 * @example
 * readShell('FOO=1 g"it" push -f 2>/dev/null && echo "$(git status)"').commands.map((c) => c.map((w) => w.text));
 * // [['FOO=1', 'git', 'push', '-f'], ['echo', ''], ['git', 'status']]
 */
export function readShell(line: string, depth = 0): ShellReading {
  if (depth > MAX_SHELL_DEPTH) return { commands: [], incomplete: true };
  return new ShellLexer(line, depth).read();
}

class ShellLexer {
  private pos = 0;
  private words: ShellWord[] = [];
  private text = '';
  private dynamic = false;
  private inWord = false;
  /** What the next word is, when a redirection operator came before it. */
  private nextWord: 'word' | 'target' | 'heredoc' | 'heredoc-strip' | 'herestring' = 'word';
  private heredocs: Array<{ delimiter: string; stripTabs: boolean }> = [];
  private readonly commands: ShellWord[][] = [];
  private readonly nested: ShellWord[][] = [];
  private incomplete = false;

  constructor(
    private readonly src: string,
    private readonly depth: number,
  ) {}

  read(): ShellReading {
    while (this.pos < this.src.length) this.step();
    this.endCommand();
    return { commands: [...this.commands, ...this.nested], incomplete: this.incomplete };
  }

  private step(): void {
    const ch = this.src[this.pos]!;
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      this.endWord();
      this.pos += 1;
    } else if (ch === '\n') {
      this.endCommand();
      this.pos += 1;
      this.readHeredocBodies();
    } else if (ch === '\\') {
      // A backslash before a newline joins the lines; before anything else, keeps it literal.
      const next = this.src[this.pos + 1];
      if (next !== '\n') this.append(next ?? '');
      this.pos += 2;
    } else if (ch === '#' && !this.inWord) {
      while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos += 1;
    } else if (ch === "'") {
      this.append(this.until("'", this.pos + 1));
    } else if (ch === '"') {
      this.readDoubleQuoted();
    } else if (ch === '$') {
      this.readDollar();
    } else if (ch === '`') {
      this.readBackquoted();
    } else if (ch === '<' || ch === '>') {
      this.readRedirection();
    } else if (ch === '&' && this.src[this.pos + 1] === '>') {
      // `&>file`, `&>>file`: both output streams to a file.
      this.endWord();
      this.pos += this.src[this.pos + 2] === '>' ? 3 : 2;
      this.nextWord = 'target';
    } else if (ch === ';' || ch === '&' || ch === '|' || ch === '(' || ch === ')') {
      this.endCommand();
      this.pos += 1;
    } else {
      this.append(ch === '{' ? BRACE_OPEN : ch === ',' ? BRACE_COMMA : ch === '}' ? BRACE_CLOSE : ch);
      this.pos += 1;
    }
  }

  private append(text: string): void {
    this.text += text;
    this.inWord = true;
  }

  /** The text from `start` to the next `quote` (or the end), moving past the quote. */
  private until(quote: string, start: number): string {
    const end = this.src.indexOf(quote, start);
    const stop = end === -1 ? this.src.length : end;
    this.pos = stop + 1;
    return this.src.slice(start, stop);
  }

  /** The body of a `$'...'` string (where `\'` does not close it), moving past its closing quote. */
  private ansiCBody(): string {
    const start = this.pos + 2;
    let at = start;
    while (at < this.src.length && this.src[at] !== "'") at += this.src[at] === '\\' ? 2 : 1;
    this.pos = at + 1;
    return this.src.slice(start, Math.min(at, this.src.length));
  }

  private readDoubleQuoted(): void {
    this.inWord = true;
    this.pos += 1;
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos]!;
      if (ch === '"') {
        this.pos += 1;
        return;
      }
      if (ch === '\\' && '$`"\\\n'.includes(this.src[this.pos + 1] ?? '')) {
        if (this.src[this.pos + 1] !== '\n') this.text += this.src[this.pos + 1];
        this.pos += 2;
      } else if (ch === '$') {
        this.readDollar();
      } else if (ch === '`') {
        this.readBackquoted();
      } else {
        this.text += ch;
        this.pos += 1;
      }
    }
  }

  private readDollar(): void {
    const next = this.src[this.pos + 1];
    if (next === "'") {
      this.append(ansiC(this.ansiCBody()));
    } else if (next === '"') {
      this.pos += 1;
      this.readDoubleQuoted();
    } else if (next === '(') {
      this.markDynamic();
      this.readNested(this.balanced(this.pos + 1, '(', ')'));
    } else if (next === '{') {
      this.markDynamic();
      this.readNested(this.balanced(this.pos + 1, '{', '}'));
    } else if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) {
      this.markDynamic();
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos + 1));
      this.pos += 1 + (name ? name[0].length : 1);
    } else {
      this.append('$');
      this.pos += 1;
    }
  }

  private readBackquoted(): void {
    this.markDynamic();
    let body = '';
    this.pos += 1;
    while (this.pos < this.src.length && this.src[this.pos] !== '`') {
      if (this.src[this.pos] === '\\' && '`$\\'.includes(this.src[this.pos + 1] ?? '')) this.pos += 1;
      body += this.src[this.pos];
      this.pos += 1;
    }
    this.pos += 1;
    this.readNested(body);
  }

  private readRedirection(): void {
    // Digits right before the operator name a file descriptor (`2>&1`), not a word.
    if (/^\d+$/.test(this.text) && !this.dynamic) this.reset();
    else this.endWord();
    const rest = this.src.slice(this.pos);
    if (/^[<>]\(/.test(rest)) {
      // Process substitution: `<(git push)` runs its commands.
      this.markDynamic();
      this.readNested(this.balanced(this.pos + 1, '(', ')'));
      return;
    }
    const operator = /^(<<<|<<-|<<|<>|<&|>&|>>|>\||<|>)/.exec(rest)![0];
    this.pos += operator.length;
    this.nextWord =
      operator === '<<<'
        ? 'herestring'
        : operator === '<<-'
          ? 'heredoc-strip'
          : operator === '<<'
            ? 'heredoc'
            : 'target';
  }

  /** The text between the bracket at `open` and its partner, quotes and nesting respected. */
  private balanced(open: number, left: string, right: string): string {
    let level = 0;
    let index = open;
    while (index < this.src.length) {
      const ch = this.src[index]!;
      if (ch === '\\') index += 1;
      else if (ch === "'" && left === '(') index = this.skipQuote(index, "'");
      else if (ch === '"') index = this.skipQuote(index, '"');
      else if (ch === left) level += 1;
      else if (ch === right && --level === 0) break;
      index += 1;
    }
    this.pos = Math.min(index + 1, this.src.length);
    return this.src.slice(open + 1, Math.min(index, this.src.length));
  }

  /** The index of the quote closing the one at `index` (escapes inside double quotes skipped). */
  private skipQuote(index: number, quote: string): number {
    let at = index + 1;
    while (at < this.src.length && this.src[at] !== quote) at += quote === '"' && this.src[at] === '\\' ? 2 : 1;
    return at;
  }

  private markDynamic(): void {
    this.dynamic = true;
    this.inWord = true;
  }

  private readNested(script: string): void {
    const reading = readShell(script, this.depth + 1);
    this.nested.push(...reading.commands);
    if (reading.incomplete) this.incomplete = true;
  }

  private reset(): void {
    this.text = '';
    this.dynamic = false;
    this.inWord = false;
  }

  private endWord(): void {
    if (!this.inWord) return;
    const word = toWord(this.text, this.dynamic);
    const role = this.nextWord;
    this.nextWord = 'word';
    this.reset();
    if (role === 'word') this.words.push(word);
    else if (role === 'heredoc' || role === 'heredoc-strip') {
      this.heredocs.push({ delimiter: word.text, stripTabs: role === 'heredoc-strip' });
    } else if (role === 'herestring') {
      // `bash <<< "git push"` runs the string; read it as a script whatever takes it.
      this.readNested(word.text);
    }
  }

  private endCommand(): void {
    this.endWord();
    // A redirection left without its target does not swallow the next command's first word.
    this.nextWord = 'word';
    if (this.words.length > 0) this.commands.push(this.words);
    this.words = [];
  }

  /** After a newline: the bodies of the heredocs opened on the line just ended, read as scripts. */
  private readHeredocBodies(): void {
    for (const { delimiter, stripTabs } of this.heredocs.splice(0)) {
      const lines: string[] = [];
      while (this.pos < this.src.length) {
        const end = this.src.indexOf('\n', this.pos);
        const stop = end === -1 ? this.src.length : end;
        const line = this.src.slice(this.pos, stop);
        this.pos = stop + 1;
        if ((stripTabs ? line.replace(/^\t+/, '') : line) === delimiter) break;
        lines.push(line);
      }
      // Whatever reads the body (a shell, or a file it runs later), its commands are read here.
      this.readNested(lines.join('\n'));
    }
  }
}

function unmark(marked: string): string {
  return marked.replaceAll(BRACE_OPEN, '{').replaceAll(BRACE_COMMA, ',').replaceAll(BRACE_CLOSE, '}');
}

function toWord(marked: string, dynamic: boolean): ShellWord {
  const plain = unmark(marked);
  const expanded = marked.includes(BRACE_OPEN) ? expandBraces(marked) : [plain];
  return expanded.length > 1 ? { text: plain, dynamic, alternatives: expanded } : { text: plain, dynamic };
}

/** Bash brace expansion of the marked characters: `a{b,c}d` → `abd`, `acd` (nested groups too). */
function expandBraces(marked: string): string[] {
  const open = marked.indexOf(BRACE_OPEN);
  if (open === -1) return [unmark(marked)];
  let level = 0;
  const commas: number[] = [];
  let close = -1;
  for (let index = open; index < marked.length && close === -1; index++) {
    const ch = marked[index];
    if (ch === BRACE_OPEN) level += 1;
    else if (ch === BRACE_CLOSE && --level === 0) close = index;
    else if (ch === BRACE_COMMA && level === 1) commas.push(index);
  }
  const head = unmark(marked.slice(0, open));
  if (close === -1 || commas.length === 0) {
    // Not a list (`{}`, `{a}`, unclosed): the brace stays literal; expand what follows it.
    return expandBraces(marked.slice(open + 1)).map((tail) => `${head}{${tail}`);
  }
  const bounds = [open, ...commas, close];
  const tails = expandBraces(marked.slice(close + 1));
  const out: string[] = [];
  for (let part = 0; part < bounds.length - 1 && out.length < MAX_ALTERNATIVES; part++) {
    for (const middle of expandBraces(marked.slice(bounds[part]! + 1, bounds[part + 1]))) {
      for (const tail of tails) out.push(`${head}${middle}${tail}`);
    }
  }
  return out.slice(0, MAX_ALTERNATIVES);
}

/** The text of a `$'...'` string: its backslash escapes decoded. */
function ansiC(body: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' };
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)/g, (_, code: string) => {
    if (code.startsWith('x')) return String.fromCharCode(Number.parseInt(code.slice(1), 16));
    if (/^[0-7]+$/.test(code)) return String.fromCharCode(Number.parseInt(code, 8));
    return simple[code] ?? code;
  });
}
