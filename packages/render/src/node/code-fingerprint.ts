import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashCodeFiles } from '@kit/core/node';

let computed: Promise<string> | null = null;

/**
 * What identifies the rendering code installed here: a SHA-256 over the text of every code file of
 * `@kit/render` and `@kit/core` (source in the workspace, `dist` once published) and the installed
 * version of each library `@kit/render` depends on. Two servers of one release get the same value
 * on any machine; any change of Kit or of a Markdown or highlighting library gives another, so a
 * shared cache store never hands one release's renders to another. Read once per process; where
 * the files cannot be read (a bundled deployment) it rejects, and a doc set then keeps its renders
 * in the process rather than share ones it could not tell apart.
 *
 * @example
 * const renderer = createRenderer({ codeFingerprint: renderCodeFingerprint });
 */
export function renderCodeFingerprint(): Promise<string> {
  computed ??= compute();
  return computed;
}

async function compute(): Promise<string> {
  const hash = createHash('sha256');
  // This file sits in `node/` under the package's code folder (`src` or `dist`).
  const renderCode = dirname(dirname(fileURLToPath(import.meta.url)));
  const coreCode = dirname(fileURLToPath(import.meta.resolve('@kit/core')));
  for (const [name, folder] of [
    ['@kit/render', renderCode],
    ['@kit/core', coreCode],
  ] as const) {
    await hashCodeFiles(hash, name, folder);
  }
  const manifest = JSON.parse(await readFile(join(dirname(renderCode), 'package.json'), 'utf8')) as {
    version?: string;
    dependencies?: Record<string, string>;
  };
  hash.update(`@kit/render@${manifest.version ?? ''}\u0000`);
  for (const dependency of Object.keys(manifest.dependencies ?? {}).sort()) {
    hash.update(`${dependency}@${await installedVersion(dependency)}\u0000`);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * The installed version of a dependency, from the `package.json` above its entry file (read this
 * way because many packages do not export their `package.json`); `?` for one that has no entry,
 * such as a types-only package.
 */
async function installedVersion(name: string): Promise<string> {
  let folder: string;
  try {
    folder = dirname(fileURLToPath(import.meta.resolve(name)));
  } catch {
    return '?';
  }
  for (;;) {
    try {
      const found = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (found.name === name) return found.version ?? '?';
    } catch {
      // No package.json here: look in the folder above.
    }
    const up = dirname(folder);
    if (up === folder) return '?';
    folder = up;
  }
}
