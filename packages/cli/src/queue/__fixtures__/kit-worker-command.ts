// `kit worker` as the binary runs it, with a sync handler of the test's own (the lead wires the
// real one, runSyncJob, in program.ts): the command's option parsing, config loading, signal
// handling and output, in a process a test can signal.
import { isKitError } from '@kit/core';
import { createContext } from '../../context.js';
import { processIo, writeLine } from '../../io.js';
import { createProgram } from '../../program.js';

const io = processIo();
const context = createContext(io);
const runMs = Number(process.env.FIXTURE_RUN_MS ?? '100');
try {
  await createProgram(context, {
    sync: async (payload, { signal }) => {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, runMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
      return { summary: `synced ${payload.set ?? 'the default set'} in ${payload.cwd}` };
    },
  }).parseAsync(process.argv.slice(2), { from: 'user' });
  process.exitCode = context.exitCode;
} catch (error) {
  writeLine(io.stderr, `kit: ${error instanceof Error ? error.message : String(error)}${isKitError(error) ? '' : ' (not a KitError)'}`);
  process.exitCode = 1;
}
