import { isKitError } from '@kit/core';
import { CommanderError } from 'commander';
import { splitCommandLine } from './command-line-args.js';
import { createContext } from './context.js';
import { type CliIo, processIo, writeLine } from './io.js';
import { CLI_VERSION, createProgram } from './program.js';

/**
 * Runs the `kit` command with `argv` (without the node and script entries) and returns the exit
 * code. Errors become one readable line on stderr (`kit: ...`) with exit code 1; `--debug` adds
 * the stack trace. Only the binary calls `process.exit`.
 *
 * @example
 * const code = await runCli(['validate', '--json'], { ...processIo(), cwd: '/path/to/project' });
 */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    writeLine(io.stdout, CLI_VERSION);
    return 0;
  }
  const context = createContext(io);
  const program = createProgram(context);
  const split = splitCommandLine(program, argv);
  if (split) context.commandLine = split.words;
  try {
    await program.parseAsync(split ? split.head : argv, { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help/version text).
      return error.exitCode === 0 ? 0 : 1;
    }
    const debug = argv.includes('--debug');
    const message = error instanceof Error ? error.message : String(error);
    const hint = debug || isKitError(error) ? '' : ' (run again with --debug for the stack trace)';
    writeLine(io.stderr, `kit: ${oneLine(message)}${hint}`);
    if (debug && error instanceof Error && error.stack) writeLine(io.stderr, error.stack);
    return 1;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
