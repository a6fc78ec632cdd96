import { KitError } from '@kit/core';

/** The address `kit serve` listens on by default: the service's base address on a developer's machine. */
export const LOCAL_SERVE_ORIGIN = 'http://127.0.0.1:4000';

/**
 * The origin an option or variable names, without a trailing slash. URLs are the origin followed
 * by a site path, so anything but an http(s) scheme and host (and port) would make them wrong.
 *
 * @example
 * parseOrigin('https://docs.example.com/', '--origin') // 'https://docs.example.com'
 */
export function parseOrigin(value: string, source = '--origin'): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  const plain = url !== null && url.pathname === '/' && url.search === '' && url.hash === '';
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !plain ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new KitError(
      'argument.invalid',
      `${source} must be an absolute http or https origin such as https://docs.example.com, with no path (got "${value}").`,
    );
  }
  return url.origin;
}

/**
 * The service's base address for a manifest's `$schema` (`{base_url}/schemas/3.x/kit.json`):
 * `--origin`, else `KIT_URL` (the public address the reference server also reads), else the
 * address `kit serve` listens on by default, which serves the schema while it runs.
 */
export function schemaOrigin(origin: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  if (origin !== undefined) return origin;
  const fromEnv = env.KIT_URL?.trim();
  if (fromEnv) return parseOrigin(fromEnv, 'KIT_URL');
  return LOCAL_SERVE_ORIGIN;
}
