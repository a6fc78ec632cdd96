import { describe, expect, it, vi } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProjects } from '../__fixtures__/kit-binary.js';

// As on a machine where the optional AI package was never installed: importing it fails the way
// Node fails for a missing package.
vi.mock('@kit/ai', () => {
  throw Object.assign(
    new Error("Cannot find package '@kit/ai' imported from /app/node_modules/@kit/cli/dist/sync/sync.js"),
    {
      code: 'ERR_MODULE_NOT_FOUND',
    },
  );
});

const project = tempProjects('kit-sync-no-ai-');

describe('kit sync without the optional AI package', () => {
  it('exits non-zero with the install steps, before reading the project', async () => {
    const dir = await project({ 'docs/index.md': '# Home\n' });
    const run = await runKitHere(['sync'], { cwd: dir, env: {} });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('kit sync needs the optional AI package, and @kit/ai is not installed.');
    expect(run.stderr).toContain('npm install --save-dev @kit/ai ai @ai-sdk/openai');
  });
});
