import type { Command } from 'commander';

const notes = new WeakMap<Command, string>();

/**
 * Adds text shown after a command's `--help` and kept for the generated reference page, so both
 * come from the command's own definition.
 */
export function addNotes(command: Command, text: string): Command {
  notes.set(command, text.trim());
  return command.addHelpText('after', `\n${text.trim()}`);
}

/** The notes of a command, or an empty string. */
export function notesOf(command: Command): string {
  return notes.get(command) ?? '';
}
