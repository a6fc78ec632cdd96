import type { Command } from 'commander';

const takesCommandLine = new WeakSet<Command>();

/**
 * Marks a subcommand whose arguments are a command line to read as given (`kit hook git push
 * --force`): neither its options nor `kit`'s are parsed among them, so no word of the checked
 * command can be taken for an option (`--force`, `-h`, `--config`).
 */
export function argumentsAreCommandLine(command: Command): Command {
  takesCommandLine.add(command);
  return command;
}

/**
 * Splits `kit [kit's options] <command> <words...>` when `<command>` was marked by
 * {@link argumentsAreCommandLine}: `head` is what commander parses, `words` the command line after
 * it (one leading `--` dropped). Null for any other command line, and for `<command> --help` alone.
 *
 * @example
 * splitCommandLine(program, ['--config', 'kit.config.ts', 'hook', 'git', 'push', '-f']);
 * // { head: ['--config', 'kit.config.ts', 'hook'], words: ['git', 'push', '-f'] }
 */
export function splitCommandLine(
  program: Command,
  argv: readonly string[],
): { head: string[]; words: string[] } | null {
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index]!;
    if (arg.startsWith('-')) {
      const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
      const option = program.options.find((known) => known.long === name || known.short === name);
      if (!option) return null;
      index += (option.required || option.optional) && !arg.includes('=') ? 2 : 1;
      continue;
    }
    const command = program.commands.find((known) => known.name() === arg || known.aliases().includes(arg));
    if (!command || !takesCommandLine.has(command)) return null;
    const words = argv.slice(index + 1);
    if (words.length === 1 && (words[0] === '--help' || words[0] === '-h')) return null;
    return { head: argv.slice(0, index + 1), words: words[0] === '--' ? words.slice(1) : words };
  }
  return null;
}
