import { spawn } from 'node:child_process';

/**
 * Runs an ES module `script` in a Node process of its own (TypeScript through tsx, workspace
 * sources through the `kit-source` condition) and resolves with the JSON of the last line it
 * printed: what a second server process saw, or how long it took to exit.
 */
export function runInChildProcess(script: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=kit-source', '--import', 'tsx', '--input-type=module', '-e', script],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error(`The child printed no result: ${out}`));
      }
    });
  });
}
