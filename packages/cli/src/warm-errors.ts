import type { Writable } from 'node:stream';
import type { WarmKitOptions } from '@kit/core';
import { writeLine } from './io.js';

/**
 * The `onError` of `warmKit` for a `kit` server: one line on stderr per version that could not be
 * prepared, with the error's own message (a file the server cannot read is named there), so a
 * set that cannot be served whole says so as the server starts, not only in a failed request.
 *
 * @example
 * void warmKit(kit, { onError: warmErrorsTo(context.io.stderr) });
 */
export function warmErrorsTo(stderr: Writable): NonNullable<WarmKitOptions['onError']> {
  return (error, { set, version, locale }) => {
    const scope = version ? ` (${[version, locale].filter(Boolean).join(', ')})` : '';
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
    writeLine(stderr, `kit: preparing the "${set}" docs${scope} failed: ${message}`);
  };
}
