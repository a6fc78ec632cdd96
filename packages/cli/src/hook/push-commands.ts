import { MAX_SHELL_DEPTH, readShell, type ShellWord } from './shell-lexer.js';

/**
 * What {@link findPushCommand} found: the push command a line runs, a part of the line it could
 * not read (so it may push: the check runs), or nothing.
 */
export type PushFinding = { push: string } | { unreadable: string } | null;

/** Leading words that are shell syntax, not the command: `if git push; then`, `{ git push; }`. */
const SHELL_KEYWORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time', 'coproc']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * Programs that run a script given as an argument (`bash -c 'git push'`, `eval "git push"`,
 * `su -c`, `watch 'git push'`): their arguments are read as command lines too.
 */
const SCRIPT_RUNNERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'yash',
  'fish',
  'su',
  'script',
  'flock',
  'watch',
  'parallel',
  'eval',
]);

/** Subcommand aliases of the push tools themselves: `gh pr new` is `gh pr create`. */
const SUBCOMMAND_ALIASES: Record<string, Record<string, string[]>> = {
  gh: { create: ['new'] },
  glab: { create: ['new'] },
};

/**
 * Finds the push command (one of `pushCommands`, e.g. `git push`) a shell command runs, however it
 * is spelled: anywhere in a command list or pipeline, behind wrappers and variable assignments
 * (`FOO=1 sudo -E git push`), with options between the words (`git -C app --no-pager push -f`),
 * quoted or escaped (`g"it" pu\sh`), through a path (`/usr/bin/git push`), inside a substitution,
 * a heredoc or a script another shell runs (`bash -lc 'git push'`), by a tool's own alias (`gh pr new`).
 * A command given as several words (`kit hook git push --force`) is read both as those words and
 * as one line. What cannot be read for sure (a script in a variable) is reported as unreadable.
 *
 * @example
 * findPushCommand('npm test && git -C app push --force', ['git push']); // { push: 'git push' }
 * findPushCommand('git commit -m "git push later"', ['git push']); // null
 */
export function findPushCommand(command: string | readonly string[], pushCommands: readonly string[]): PushFinding {
  const wanted = pushCommands.map((push) => push.trim().split(/\s+/).filter(Boolean)).filter((words) => words.length);
  if (wanted.length === 0) return null;
  if (typeof command !== 'string') {
    const direct = inCommand(
      command.map((text) => ({ text, dynamic: false })),
      wanted,
      0,
    );
    if (direct) return direct;
  }
  return inLine(typeof command === 'string' ? command : command.join(' '), wanted, 0);
}

function inLine(line: string, wanted: string[][], depth: number): PushFinding {
  const reading = readShell(line, depth);
  for (const words of reading.commands) {
    const found = inCommand(words, wanted, depth);
    if (found) return found;
  }
  return reading.incomplete
    ? { unreadable: `the command nests substitutions or scripts more than ${MAX_SHELL_DEPTH} levels deep` }
    : null;
}

/** The push command one simple command runs, looked for at every word (wrappers are many). */
function inCommand(words: readonly ShellWord[], wanted: string[][], depth: number): PushFinding {
  const program = programIndex(words);
  for (let index = program; index < words.length; index++) {
    for (const push of wanted) {
      if (matchesAt(words, index, push, index === program)) return { push: push.join(' ') };
    }
    if (!candidates(words[index]!).some((text) => SCRIPT_RUNNERS.has(baseName(text)))) continue;
    const found = inScripts(words.slice(index), wanted, depth);
    if (found) return found;
  }
  return null;
}

/** The scripts a script runner's arguments hold (`eval` joins them into one). */
function inScripts(words: readonly ShellWord[], wanted: string[][], depth: number): PushFinding {
  const runner = baseName(words[0]!.text);
  const args = words.slice(1).filter((word) => !isOption(word));
  const dynamic = args.find((word) => word.dynamic);
  if (dynamic) return { unreadable: `${runner} runs a script the command line does not show` };
  const scripts = runner === 'eval' ? [args.map((word) => word.text).join(' ')] : args.map((word) => word.text);
  for (const script of scripts) {
    const found = inLine(script, wanted, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Where the command itself starts: after variable assignments and shell keywords. */
function programIndex(words: readonly ShellWord[]): number {
  let index = 0;
  while (index < words.length) {
    const { text, dynamic } = words[index]!;
    if (SHELL_KEYWORDS.has(text) && !dynamic) index += 1;
    else if (ASSIGNMENT.test(text)) index += 1;
    else break;
  }
  return index;
}

/**
 * Whether the words from `start` run `push`: its first word names the program (by any path; a
 * word whose value the line does not show may stand for it where a command starts), and its
 * other words follow in order with only options, an option's value, or unknown words between.
 */
function matchesAt(words: readonly ShellWord[], start: number, push: string[], atProgram: boolean): boolean {
  const first = words[start]!;
  const [program, second] = push as [string, string | undefined];
  if (isProgram(first, program) || (atProgram && first.dynamic)) {
    return followedBy(words, start + 1, push.slice(1), program);
  }
  // git's dashed form: `git-push` is `git push`.
  if (second !== undefined && isProgram(first, `${program}-${second}`)) {
    return followedBy(words, start + 1, push.slice(2), program);
  }
  return false;
}

function followedBy(words: readonly ShellWord[], from: number, rest: string[], program: string): boolean {
  if (rest.length === 0) return true;
  let mayBeValue = false;
  for (let index = from; index < words.length; index++) {
    const word = words[index]!;
    if (word.dynamic) {
      // `$FLAGS`: may be the word wanted, options, or nothing at all.
      if (followedBy(words, index + 1, rest.slice(1), program)) return true;
      mayBeValue = true;
      continue;
    }
    if (isOption(word)) {
      mayBeValue = true;
      continue;
    }
    if (isWord(word, rest[0]!, program) && followedBy(words, index + 1, rest.slice(1), program)) return true;
    // `git -C app push`: a word right after an option may be that option's value.
    if (!mayBeValue) return false;
    mayBeValue = false;
  }
  return false;
}

function candidates(word: ShellWord): string[] {
  return word.alternatives ?? [word.text];
}

function isOption(word: ShellWord): boolean {
  return word.text.length > 1 && word.text.startsWith('-');
}

function isProgram(word: ShellWord, name: string): boolean {
  return candidates(word).some((text) => baseName(text) === name);
}

function isWord(word: ShellWord, expected: string, program: string): boolean {
  const aliases = SUBCOMMAND_ALIASES[program]?.[expected] ?? [];
  return candidates(word).some((text) => text === expected || aliases.includes(text));
}

/** `/usr/bin/git` and `git.exe` name `git`. */
function baseName(text: string): string {
  return text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1).replace(/\.exe$/i, '');
}
