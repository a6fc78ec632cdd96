import type { InsertPoint, RenderContext, SourceProblem } from '@kit/core';
import { INSERT_POINTS } from '@kit/core/internal';
import { type ComponentRegistry, defaultComponents } from './registry.js';

/** The insert points of the manifest, in page order (the manifest rules own the list). */
export { INSERT_POINTS };

export interface InsertOptions {
  /** The manifest's `inserts`: insert point → component names. */
  inserts: Partial<Record<InsertPoint, string[]>>;
  /** The page's frontmatter; its `inserts` key opts out (`false`, or `{ "footer": false }`). */
  frontmatter?: Record<string, unknown>;
  context?: RenderContext;
  pagePath?: string;
  components?: ComponentRegistry;
}

/** True when the page's `inserts` frontmatter turns the insert point off. */
export function insertDisabled(frontmatter: Record<string, unknown> | undefined, point: InsertPoint): boolean {
  const value = frontmatter?.inserts;
  if (value === false) return true;
  if (Array.isArray(value)) return false;
  if (value && typeof value === 'object') {
    const entry = (value as Record<string, unknown>)[point];
    return entry === false || (Array.isArray(entry) && entry.length === 0);
  }
  return false;
}

/**
 * Renders the components the manifest places at one insert point, unless the page opts out in
 * its `inserts` frontmatter. Unknown component names are left out and reported (`components.unknown`).
 *
 * @example
 * const { html } = await renderInsert('article.after', { inserts: manifest.inserts, frontmatter: page.frontmatter });
 */
export async function renderInsert(
  point: InsertPoint,
  options: InsertOptions,
): Promise<{ html: string; markdown: string; problems: SourceProblem[] }> {
  const names = options.inserts[point] ?? [];
  const problems: SourceProblem[] = [];
  if (names.length === 0 || insertDisabled(options.frontmatter, point)) return { html: '', markdown: '', problems };
  const registry = options.components ?? defaultComponents;
  const html: string[] = [];
  const markdown: string[] = [];
  for (const name of names) {
    const component = registry.get(name);
    if (!component) {
      problems.push({
        rule: 'components.unknown',
        severity: 'warning',
        message: `Insert point "${point}" lists the component "${name}", which is not registered.`,
        fix: `Register it with registerComponent('${name}', { html, markdown }) or remove it from inserts.${point} in kit.json.`,
      });
      continue;
    }
    const context = {
      ...(options.context ? { render: options.context } : {}),
      ...(options.pagePath ? { pagePath: options.pagePath } : {}),
    };
    html.push(await component.html({}, context));
    markdown.push(await component.markdown({}, context));
  }
  return { html: html.join(''), markdown: markdown.filter(Boolean).join('\n\n'), problems };
}
