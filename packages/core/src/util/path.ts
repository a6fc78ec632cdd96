/**
 * Path helpers that need no `node:path`, so the root entry of `@kit/core` stays free of Node-only
 * imports. Paths come out with `/` separators; a Windows drive prefix (`C:/`) is kept.
 */

/** True for `/x`, `C:\x`, `C:/x` and `\\server\share`. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\\\') || /^[A-Za-z]:[\\/]/.test(path);
}

/**
 * Resolves `path` against `root` (unless it is absolute) and removes `.` and `..` segments.
 *
 * @example
 * resolvePath('/app', 'docs/../guides'); // '/app/guides'
 */
export function resolvePath(root: string, path: string): string {
  const joined = isAbsolutePath(path) ? path : `${root.replace(/[\\/]+$/, '')}/${path}`;
  return normalizePath(joined);
}

function normalizePath(path: string): string {
  const unified = path.replace(/\\/g, '/');
  const drive = /^[A-Za-z]:/.test(unified) ? unified.slice(0, 2) : '';
  const rest = unified.slice(drive.length);
  const segments: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `${drive}/${segments.join('/')}`;
}
