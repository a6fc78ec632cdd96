import { KitError, type RenderContext } from '@kit/core';

/** Attribute values as written on a component tag; a bare attribute is `true`. */
export type ComponentProps = Record<string, string | true>;

/** What a component is told about where it renders. */
export interface ComponentContext {
  /** The render context of the page (absent for insert points rendered outside a page). */
  render?: RenderContext;
  /** Path of the page the component appears on, if any. */
  pagePath?: string;
  /** Paired components (`<Tabs>...</Tabs>`): the inner content, rendered as HTML or Markdown. */
  children?: string;
  /**
   * Reports a problem with this use of the component (`kit validate` lists it with the page's file
   * and line). Absent where nothing collects problems, e.g. at insert points.
   */
  report?(problem: { rule: string; message: string; fix?: string }): void;
}

/** How one PascalCase component renders for readers (HTML) and for agents (Markdown). */
export interface ComponentDefinition {
  /** HTML for the reader page. The output is trusted; escape props you put in it. */
  html(props: ComponentProps, context: ComponentContext): string | Promise<string>;
  /** Plain Markdown for the agent twin: what the component says, without markup. */
  markdown(props: ComponentProps, context: ComponentContext): string | Promise<string>;
}

export interface ComponentRegistry {
  register(name: string, definition: ComponentDefinition): void;
  get(name: string): ComponentDefinition | undefined;
  names(): string[];
  /**
   * How many times `register` has run: a different number means pages may render differently
   * now. Renderers compare it on every render to drop renders made before, so it must be cheap.
   */
  generation(): number;
}

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;

/**
 * A set of components a renderer resolves. Give one to `createRenderer({ components })` to keep
 * components of different applications apart; `registerComponent` fills the default registry.
 */
export function createComponentRegistry(): ComponentRegistry {
  const definitions = new Map<string, ComponentDefinition>();
  let generation = 0;
  return {
    register(name, definition) {
      if (!PASCAL_CASE.test(name)) {
        throw new KitError(
          'argument.invalid',
          `Component name "${name}" is not PascalCase. Name components like "ApiBadge" so Markdown can tell them from HTML tags.`,
        );
      }
      if (typeof definition?.html !== 'function' || typeof definition.markdown !== 'function') {
        throw new KitError(
          'argument.invalid',
          `Component "${name}" needs both an html(props, context) and a markdown(props, context) function.`,
        );
      }
      definitions.set(name, definition);
      generation += 1;
    },
    get: (name) => definitions.get(name),
    names: () => [...definitions.keys()].sort(),
    generation: () => generation,
  };
}

const DEFAULT_REGISTRY_KEY = Symbol.for('kit.render.defaultComponents');

/**
 * The registry used by renderers created without their own `components` option. It lives on
 * `globalThis` because a `kit.config.ts` is loaded through tsx in a module namespace of its own:
 * the `@kit/render` it imports is another instance than the CLI's or the server's, and components
 * it registers must still reach their renderers.
 */
export const defaultComponents: ComponentRegistry = processComponentRegistry();

function processComponentRegistry(): ComponentRegistry {
  const shared = globalThis as Record<symbol, ComponentRegistry | undefined>;
  const registry = shared[DEFAULT_REGISTRY_KEY] ?? createComponentRegistry();
  shared[DEFAULT_REGISTRY_KEY] = registry;
  return registry;
}

/**
 * Registers a PascalCase component for every renderer that uses the default registry.
 *
 * @example
 * registerComponent('Badge', {
 *   html: (props) => `<span class="badge">${escapeHtml(String(props.text ?? ''))}</span>`,
 *   markdown: (props) => `**${props.text ?? ''}**`,
 * });
 */
export function registerComponent(name: string, definition: ComponentDefinition): void {
  defaultComponents.register(name, definition);
}

const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|\{([^}]*)\}|([^\s"'=<>`]+)))?/g;

/** Reads the attributes of a component tag (`title="x" open count={3}`). */
export function parseProps(attributes: string): ComponentProps {
  const props: ComponentProps = {};
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const name = match[1] as string;
    const value = match[2] ?? match[3] ?? match[4] ?? match[5];
    props[name] = value === undefined ? true : decodeEntities(value);
  }
  return props;
}

function decodeEntities(value: string): string {
  return value.replace(/&(quot|amp|lt|gt|#39);/g, (_, name: string) =>
    name === 'quot' ? '"' : name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : "'",
  );
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}
