import type { RenderContext } from '@kit/core';
import type { Html, Parents, RootContent } from 'mdast';
import { type ComponentProps, type ComponentRegistry, escapeHtml, parseProps } from '../components/registry.js';
import { parseMarkdown } from '../markdown/parse.js';
import { applyEdits, type Edit } from './edits.js';
import type { PageText, ReportProblem } from './page-text.js';
import { continuationPrefix, indentLines, outdentLines, relocate, valueOffsets } from './positions.js';

/** A PascalCase component found in the tree, wrapping its children when it is paired. */
export interface ComponentNode {
  type: 'kitComponent';
  name: string;
  props: ComponentProps;
  children: RootContent[];
  start: number;
  end: number;
  innerStart: number;
  innerEnd: number;
  html?: string;
  position?: Html['position'];
}

declare module 'mdast' {
  interface RootContentMap {
    kitComponent: ComponentNode;
  }
  interface PhrasingContentMap {
    kitComponent: ComponentNode;
  }
}

// Attributes are whitespace-separated runs of quoted values (which may hold `>` and `/>`) and other
// characters; runs never hold whitespace, so matching stays linear on long or hostile tags.
const ATTRIBUTES = String.raw`((?:\s+(?:"[^"]*"|'[^']*'|[^\s"'>/]|\/(?!>))+)*)`;
const SELF_CLOSING = new RegExp(String.raw`^<([A-Z][A-Za-z0-9]*)${ATTRIBUTES}\s*\/>$`);
const OPENING = new RegExp(String.raw`^<([A-Z][A-Za-z0-9]*)${ATTRIBUTES}\s*>$`);
const WHOLE_BLOCK = new RegExp(String.raw`^<([A-Z][A-Za-z0-9]*)${ATTRIBUTES}\s*>([\s\S]*)<\/\1\s*>$`);
const PASCAL_TAG = /^<\/?([A-Z][A-Za-z0-9]*)[\s/>]/;

/** Whether a raw HTML value (trimmed) starts with a PascalCase tag, opening or closing. */
export function isPascalTag(value: string): boolean {
  return PASCAL_TAG.test(value);
}

/**
 * Turns the PascalCase tag at `parent.children[index]` into a component node in place: a
 * self-closing tag, a whole block with Markdown inside, or an opening tag paired with its closing
 * sibling. A tag that is none of these is reported (unknown, or not closed) and null is returned.
 */
export function wrapOrReport(
  text: PageText,
  components: ComponentRegistry,
  report: ReportProblem,
  parent: Parents,
  index: number,
  node: Html,
): ComponentNode | null {
  const component = wrapComponent(text, parent, index, node);
  if (component) return component;
  const name = (PASCAL_TAG.exec(node.value.trim()) as RegExpExecArray)[1] as string;
  if (!components.get(name)) {
    report(
      'components.unknown',
      `Unknown component <${name}>.`,
      node,
      `Register it with registerComponent('${name}', { html, markdown }), or write it in lower case if it is an HTML tag.`,
    );
  } else {
    report(
      'components.invalid',
      `The component <${name}> is not rendered: its tag is not closed, or a closing tag has no opening tag in the same block, or the tag cannot be read.`,
      node,
      `Write it self-closing (<${name} />) or close it with </${name}> in the same block; leave a blank line after <${name}> and before </${name}> when it holds Markdown.`,
    );
  }
  return null;
}

function wrapComponent(text: PageText, parent: Parents, index: number, node: Html): ComponentNode | null {
  const children = parent.children as RootContent[];
  const range = text.offsets(node);
  if (!range) return null;
  const component =
    selfClosingComponent(node, range) ??
    wholeBlockComponent(text, node, range) ??
    pairedComponent(text, children, index, node, range);
  if (!component) return null;
  if (component.replaces === 1) children[index] = component.node;
  else children.splice(index, component.replaces, component.node);
  return component.node;
}

interface Wrapped {
  node: ComponentNode;
  /** How many siblings, from the opening tag on, the component takes the place of. */
  replaces: number;
}

function selfClosingComponent(node: Html, range: [number, number]): Wrapped | null {
  const selfClosing = SELF_CLOSING.exec(node.value.trim());
  if (!selfClosing) return null;
  return {
    node: {
      type: 'kitComponent',
      name: selfClosing[1] as string,
      props: parseProps(selfClosing[2] ?? ''),
      children: [],
      start: range[0],
      end: range[1],
      innerStart: range[1],
      innerEnd: range[1],
      position: node.position,
    },
    replaces: 1,
  };
}

function wholeBlockComponent(text: PageText, node: Html, range: [number, number]): Wrapped | null {
  const whole = WHOLE_BLOCK.exec(node.value.trim());
  if (!whole) return null;
  const inner = whole[3] as string;
  const at = node.value.indexOf(inner, (whole[1] as string).length + 1);
  const innerTree = parseMarkdown(inner);
  // The inner tree is parsed on its own; moving its positions onto the page lets its links,
  // `{{version}}` and includes be edited into the agent twin like any other node's.
  const map = valueOffsets(text.source, range[0], range[1], node.value);
  relocate(innerTree.children, map && ((offset) => map(at + offset)), text.locate);
  const innerStart = map ? map(at) : range[0] + at;
  return {
    node: {
      type: 'kitComponent',
      name: whole[1] as string,
      props: parseProps(whole[2] ?? ''),
      children: innerTree.children,
      start: range[0],
      end: range[1],
      innerStart,
      innerEnd: map ? map(at + inner.length) : innerStart + inner.length,
      position: node.position,
    },
    replaces: 1,
  };
}

function pairedComponent(
  text: PageText,
  children: RootContent[],
  index: number,
  node: Html,
  range: [number, number],
): Wrapped | null {
  const opening = OPENING.exec(node.value.trim());
  if (!opening) return null;
  const name = opening[1] as string;
  const closeAt = children.findIndex(
    (sibling, at) => at > index && sibling.type === 'html' && new RegExp(`^</${name}\\s*>$`).test(sibling.value.trim()),
  );
  if (closeAt === -1) return null;
  const closing = children[closeAt] as Html;
  const closingRange = text.offsets(closing);
  if (!closingRange) return null;
  return {
    node: {
      type: 'kitComponent',
      name,
      props: parseProps(opening[2] ?? ''),
      children: children.slice(index + 1, closeAt),
      start: range[0],
      end: closingRange[1],
      innerStart: range[1],
      innerEnd: closingRange[0],
      position: {
        start: (node.position as NonNullable<Html['position']>).start,
        end: (closing.position as NonNullable<Html['position']>).end,
      },
    },
    replaces: closeAt - index + 1,
  };
}

/** What rendering components needs: the page, where to report and edit, and how to write children as HTML. */
export interface ComponentRenderDeps {
  text: PageText;
  context: RenderContext;
  pagePath: string;
  components: ComponentRegistry;
  report: ReportProblem;
  edits: Edit[];
  nodesToHtml: (nodes: RootContent[]) => Promise<string>;
}

/**
 * Renders every component node, innermost first (the order the scan found them): its HTML goes on
 * the node, its Markdown into the agent twin. An unknown component is reported and shown as written.
 */
export async function renderComponents(componentNodes: ComponentNode[], deps: ComponentRenderDeps): Promise<void> {
  for (const component of componentNodes) {
    const definition = deps.components.get(component.name);
    if (!definition) await renderUnknown(component, deps);
    else await renderKnown(component, definition, deps);
  }
}

async function renderUnknown(component: ComponentNode, deps: ComponentRenderDeps): Promise<void> {
  const { source } = deps.text;
  deps.report(
    'components.unknown',
    `Unknown component <${component.name}>.`,
    component,
    `Register it with registerComponent('${component.name}', { html, markdown }), or write it in lower case if it is an HTML tag.`,
  );
  component.html = escapeHtml(source.slice(component.start, component.innerStart));
  const closing = source.slice(component.innerEnd, component.end);
  const inner = await deps.nodesToHtml(component.children);
  component.html = `${component.html}${inner}${escapeHtml(closing)}`;
}

type ComponentDefinition = NonNullable<ReturnType<ComponentRegistry['get']>>;

async function renderKnown(
  component: ComponentNode,
  definition: ComponentDefinition,
  deps: ComponentRenderDeps,
): Promise<void> {
  const { source } = deps.text;
  const { edits } = deps;
  const report = (found: { rule: string; message: string; fix?: string }) =>
    deps.report(found.rule, found.message, component, found.fix);
  const base = { render: deps.context, pagePath: deps.pagePath, report };
  const hasChildren = component.children.length > 0;
  // A block component in a list item or quote: its children lose the container prefix for the
  // component, and its Markdown gets it back on every line.
  const prefix = continuationPrefix(source, component.start) ?? '';
  const [html, markdown] = await Promise.all([
    definition.html(
      component.props,
      hasChildren ? { ...base, children: await deps.nodesToHtml(component.children) } : base,
    ),
    definition.markdown(
      component.props,
      hasChildren
        ? {
            ...base,
            children: outdentLines(applyEdits(source, edits, component.innerStart, component.innerEnd), prefix).trim(),
          }
        : base,
    ),
  ]);
  component.html = html;
  edits.push({ start: component.start, end: component.end, text: indentLines(markdown, prefix) });
  // What a self-closing component says is part of the page for search, as its agent Markdown.
  if (!hasChildren && markdown.trim() !== '') component.children = parseMarkdown(markdown).children;
}
