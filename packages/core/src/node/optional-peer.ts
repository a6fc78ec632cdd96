import { KitError } from '../errors/kit-error.js';

/**
 * Loads an optional peer dependency (a database driver, ioredis) and turns "not installed" into an
 * error that names the package and how to install it. `load` is the package's own `import()`, so
 * the peer resolves from the package that declares it, as a package manager installs it.
 *
 * @example
 * const { Redis } = await loadOptionalPeer(() => import('ioredis'), 'ioredis', 'The redis cache store');
 */
export async function loadOptionalPeer<T>(load: () => Promise<T>, peer: string, purpose: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, peer)) throw error;
    throw new KitError(
      'config.invalid',
      `${purpose} needs the package ${peer}, which is not installed. Add it to your project (npm install ${peer}, or pnpm add ${peer}) and start again.`,
      { cause: error },
    );
  }
}

function isMissingPackage(error: unknown, peer: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${peer}'`) || message.includes(`"${peer}"`));
}
