import type { Element, Nodes as HastNodes, Root as HastRoot } from 'hast';
import { isSafeUrl } from '../links/links.js';
import { dropFilteredElements } from './tagfilter.js';

/** The prefix database pages put before every id and name, as GitHub does, so ids cannot clobber globals. */
export const USER_ID_PREFIX = 'user-content-';

const URL_PROPERTIES = new Set([
  'href',
  'src',
  'action',
  'formAction',
  'cite',
  'poster',
  'background',
  'longDesc',
  'xLinkHref',
  'ping',
  'srcSet',
  'data',
  'codeBase',
  'manifest',
  'icon',
]);

const DROPPED_ELEMENTS = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'frame',
  'frameset',
  'base',
  'meta',
  'link',
  'form',
  'noscript',
  'template',
  'title',
  'textarea',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
  'svg',
  'math',
]);

function prefixed(value: string): string {
  return value.startsWith(USER_ID_PREFIX) ? value : `${USER_ID_PREFIX}${value}`;
}

function cleanElement(element: Element): void {
  const properties = element.properties;
  for (const key of Object.keys(properties)) {
    const value = properties[key];
    if (/^on/i.test(key) || key === 'style' || key === 'srcDoc') {
      delete properties[key];
    } else if (URL_PROPERTIES.has(key)) {
      const urls = Array.isArray(value) ? value.map(String) : [String(value)];
      if (urls.some((url) => !isSafeUrl(url))) delete properties[key];
      else if (key === 'href' && typeof value === 'string' && value.startsWith('#') && value.length > 1) {
        properties[key] = `#${prefixed(decodeURIComponentSafe(value.slice(1)))}`;
      }
    } else if (key === 'id' || key === 'name') {
      properties[key] = prefixed(String(value));
    } else if (key === 'ariaDescribedBy' || key === 'ariaLabelledBy') {
      const ids = Array.isArray(value) ? value.map(String) : String(value).split(/\s+/);
      properties[key] = ids.map(prefixed);
    }
  }
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Makes rendered HTML safe for content nobody reviewed (database sets): no `on*` handlers, no
 * `style`, no script-capable elements, no `javascript:`/`data:`/`vbscript:` URLs, and every id and
 * name prefixed with `user-content-` (fragment links follow) so page ids cannot clobber globals.
 * Elements in `trusted` (highlighted code Kit produced itself) are left as they are.
 * Raw HTML left in the tree (component output) is parsed with `parseFragment` (hast-util-from-html,
 * which the renderer loads only for pages it sanitizes) and cleaned the same way.
 */
export function sanitizeTree(
  tree: HastRoot,
  trusted: WeakSet<object>,
  parseFragment: (html: string) => HastNodes[],
): void {
  const walk = (node: HastNodes, parent: { children: HastNodes[] } | null, index: number): number => {
    if (trusted.has(node)) return index + 1;
    if (node.type === 'element') {
      if (DROPPED_ELEMENTS.has(node.tagName.toLowerCase()) && parent) {
        parent.children.splice(index, 1);
        return index;
      }
      cleanElement(node);
    } else if (node.type === 'raw' && parent) {
      const parsed = parseFragment(node.value);
      parent.children.splice(index, 1, ...parsed);
      return index;
    }
    if ('children' in node) {
      const container = node as { children: HastNodes[] };
      let i = 0;
      while (i < container.children.length) i = walk(container.children[i] as HastNodes, container, i);
    }
    return index + 1;
  };
  walk(tree, null, 0);
}

/** Drops tagfiltered elements from raw HTML left in a hast tree (allowed raw HTML of repository pages). */
export function filterRawNodes(tree: HastRoot): void {
  const walk = (node: HastNodes) => {
    if (node.type === 'raw') node.value = dropFilteredElements(node.value).html;
    else if ('children' in node) for (const child of node.children) walk(child as HastNodes);
  };
  walk(tree);
}
