import type { LoadedKit, LoadKitOptions } from '@kit/node';
import type { Command } from 'commander';
import type { CliIo } from './io.js';

/** Options every command accepts (`kit --config x validate`, `kit validate --set docs`). */
export interface GlobalOptions {
  config?: string;
  set?: string;
  debug?: boolean;
}

/** What a command is handed: its streams and a way to load the kit the global options name. */
export interface CommandContext {
  io: CliIo;
  /** Exit code the binary ends with once the command returns. */
  exitCode: number;
  /**
   * The words after a command that takes a command line (`kit hook git push --force`), exactly as
   * given: `runCli` keeps them from commander, which would read `--force` as an option.
   */
  commandLine?: readonly string[];
  globals(command: Command): GlobalOptions;
  /** Loads the kit of the working directory, or of `options.cwd` (a folder the command was given). */
  loadKit(command: Command, options?: Omit<LoadKitOptions, 'configFile' | 'env'>): Promise<LoadedKit>;
}

export function createContext(io: CliIo): CommandContext {
  const context: CommandContext = {
    io,
    exitCode: 0,
    globals: (command) => command.optsWithGlobals() as GlobalOptions,
    loadKit: async (command, options = {}) => {
      const globals = context.globals(command);
      // Loaded on first use: `kit --help` and `kit hook` on a non-push command stay quick.
      const { loadKit } = await import('@kit/node');
      return loadKit({
        cwd: io.cwd,
        // The process environment is loadConfig's default, which also lets `.env` fill process.env for the config file.
        ...(io.env !== process.env ? { env: io.env } : {}),
        ...(globals.config !== undefined ? { configFile: globals.config } : {}),
        ...options,
      });
    },
  };
  return context;
}
