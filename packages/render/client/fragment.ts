import { userContentFragment } from '../src/reader/client-logic.js';

function hasTarget(id: string): boolean {
  return document.getElementById(id) !== null || document.querySelector(`a[name="${CSS.escape(id)}"]`) !== null;
}

/**
 * Sends `#x` to `#user-content-x` on sanitized pages, on load and whenever the hash changes, so
 * links written against the plain heading id (other pages, search results, bookmarks) still land.
 * `location.replace` keeps the back button on the page the reader came from and lets `:target` apply.
 */
export function initFragmentAlias(): void {
  const follow = () => {
    const target = userContentFragment(location.hash, hasTarget);
    if (target !== null) location.replace(`#${encodeURIComponent(target)}`);
  };
  window.addEventListener('hashchange', follow);
  follow();
}
