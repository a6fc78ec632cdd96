import { processIo } from './io.js';
import { runCli } from './run.js';

/** Entry point of the `kit` binary: runs the command line and exits with its code. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const code = await runCli(argv, processIo());
  // Let stdout drain (a piped --json report) before leaving.
  process.exitCode = code;
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}

await main();
