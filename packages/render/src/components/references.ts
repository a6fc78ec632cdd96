import {
  type ColumnReference,
  configDefaults,
  defaultReferences,
  type EventReference,
  type ModelReference,
  type ReferenceSettings,
  type RouteReference,
  type SchemaField,
} from '@kit/core';
import {
  lookupEvent,
  lookupModel,
  lookupRoute,
  type ReferenceLookup,
  type ReferenceRegistry,
} from '@kit/core/internal';
import {
  type ComponentContext,
  type ComponentDefinition,
  type ComponentProps,
  type ComponentRegistry,
  createComponentRegistry,
  escapeHtml,
} from './registry.js';

const INPUT_CAPTIONS: Record<RouteReference['inputs'][number]['target'], string> = {
  query: 'Query parameters',
  json: 'JSON body',
  form: 'Form body',
  header: 'Headers',
  cookie: 'Cookies',
};

function text(props: ComponentProps, key: string): string | undefined {
  const value = props[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function settingsOf(context: ComponentContext): ReferenceSettings {
  return context.render?.references ?? configDefaults.references;
}

/** A Markdown table cell: one line, pipes escaped. */
function cell(value: string): string {
  return value.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

function code(value: string): string {
  const ticks = value.includes('`') ? '``' : '`';
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${value}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

interface Table {
  caption: string;
  head: string[];
  /** Cells as [html, markdown]. */
  rows: Array<Array<[string, string]>>;
}

function htmlTable(table: Table): string {
  const head = table.head.map((name) => `<th>${escapeHtml(name)}</th>`).join('');
  const rows = table.rows.map((row) => `<tr>${row.map(([html]) => `<td>${html}</td>`).join('')}</tr>`).join('');
  return `<p class="kit-reference-caption">${escapeHtml(table.caption)}</p><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function markdownTable(table: Table): string {
  return [
    `${table.caption}:`,
    '',
    `| ${table.head.join(' | ')} |`,
    `| ${table.head.map(() => '---').join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.map(([, markdown]) => cell(markdown)).join(' | ')} |`),
  ].join('\n');
}

function both(value: string, asCode = false): [string, string] {
  return asCode ? [`<code>${escapeHtml(value)}</code>`, code(value)] : [escapeHtml(value), value];
}

function fieldTable(caption: string, fields: SchemaField[]): Table {
  return {
    caption,
    head: ['Name', 'Type', 'Required', 'Description'],
    rows: fields.map((field) => [
      both(field.name, true),
      both(field.type, true),
      both(field.required ? 'yes' : 'no'),
      both(
        [field.description ?? '', field.default !== undefined ? `Default: ${field.default}.` : '']
          .filter(Boolean)
          .join(' '),
      ),
    ]),
  };
}

/** What a reference renders to: a title line, notes under it, and its tables. */
interface Described {
  kind: string;
  titleHtml: string;
  titleMarkdown: string;
  notes: Array<[string, string]>;
  description?: string;
  tables: Table[];
}

function describedHtml(described: Described): string {
  const notes = described.notes.map(([html]) => `<p class="kit-reference-meta">${html}</p>`).join('');
  const description = described.description
    ? `<p class="kit-reference-description">${escapeHtml(described.description)}</p>`
    : '';
  return `<div class="kit-reference kit-reference-${described.kind}"><p class="kit-reference-title">${described.titleHtml}</p>${notes}${description}${described.tables.map(htmlTable).join('')}</div>`;
}

function describedMarkdown(described: Described): string {
  return [
    described.titleMarkdown,
    ...described.notes.map(([, markdown]) => markdown),
    ...(described.description ? [described.description] : []),
    ...described.tables.map(markdownTable),
  ].join('\n\n');
}

function describeRoute(route: RouteReference): Described {
  const notes: Array<[string, string]> = [];
  if (route.name) notes.push([`Route name: <code>${escapeHtml(route.name)}</code>`, `Route name: ${code(route.name)}`]);
  notes.push(
    route.middleware.length > 0
      ? [
          `Middleware: ${route.middleware.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}`,
          `Middleware: ${route.middleware.map(code).join(', ')}`,
        ]
      : ['Middleware: none', 'Middleware: none'],
  );
  const tables: Table[] = [];
  if (route.parameters.length > 0) tables.push(fieldTable('Path parameters', route.parameters));
  for (const input of route.inputs) {
    if (input.fields.length > 0) tables.push(fieldTable(INPUT_CAPTIONS[input.target], input.fields));
  }
  return {
    kind: 'route',
    titleHtml: `<span class="kit-method" data-method="${escapeHtml(route.method)}">${escapeHtml(route.method)}</span> <code>${escapeHtml(route.path)}</code>`,
    titleMarkdown: `**${route.method}** ${code(route.path)}`,
    notes,
    ...(route.description ? { description: route.description } : {}),
    tables,
  };
}

function columnKey(model: ModelReference, column: ColumnReference): string {
  const keys: string[] = [];
  if (column.primaryKey || model.primaryKey.includes(column.name)) keys.push('primary');
  if (column.unique) keys.push('unique');
  for (const foreign of model.foreignKeys) {
    const at = foreign.columns.indexOf(column.name);
    if (at !== -1) keys.push(`→ ${foreign.table}.${foreign.references[at] ?? foreign.references[0] ?? ''}`);
  }
  return keys.join(', ');
}

function describeModel(model: ModelReference): Described {
  const qualified = model.schema ? `${model.schema}.${model.name}` : model.name;
  const notes: Array<[string, string]> = [];
  if (model.primaryKey.length > 1) {
    notes.push([
      `Primary key: ${model.primaryKey.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}`,
      `Primary key: ${model.primaryKey.map(code).join(', ')}`,
    ]);
  }
  const tables: Table[] = [
    {
      caption: 'Columns',
      head: ['Column', 'Type', 'Nullable', 'Default', 'Key'],
      rows: model.columns.map((column) => [
        both(column.name, true),
        both(column.type, true),
        both(column.nullable ? 'yes' : 'no'),
        column.default === null ? both('') : both(column.default, true),
        both(columnKey(model, column)),
      ]),
    },
  ];
  if (model.relations.length > 0) {
    tables.push({
      caption: 'Relations',
      head: ['Relation', 'Kind', 'Table'],
      rows: model.relations.map((relation) => [
        both(relation.name, true),
        both(relation.kind === 'one' ? 'one' : 'many'),
        both(relation.table, true),
      ]),
    });
  }
  if (model.indexes.length > 0) {
    tables.push({
      caption: 'Indexes',
      head: ['Index', 'Columns', 'Unique'],
      rows: model.indexes.map((index) => [
        both(index.name, true),
        both(index.columns.join(', ')),
        both(index.unique ? 'yes' : 'no'),
      ]),
    });
  }
  return {
    kind: 'model',
    titleHtml: `Table <code>${escapeHtml(qualified)}</code>`,
    titleMarkdown: `**Table** ${code(qualified)}`,
    notes,
    ...(model.description ? { description: model.description } : {}),
    tables,
  };
}

function describeEvent(event: EventReference): Described {
  return {
    kind: 'event',
    titleHtml: `Event <code>${escapeHtml(event.name)}</code>`,
    titleMarkdown: `**Event** ${code(event.name)}`,
    notes: event.fields.length === 0 ? [['Payload: no fields', 'Payload: no fields']] : [],
    ...(event.description ? { description: event.description } : {}),
    tables: event.fields.length > 0 ? [fieldTable('Payload', event.fields)] : [],
  };
}

function tagOf(name: string, props: ComponentProps): string {
  const attributes = Object.entries(props)
    .map(([key, value]) => (value === true ? key : `${key}="${value}"`))
    .join(' ');
  return `<${name}${attributes ? ` ${attributes}` : ''} />`;
}

function referenceComponent<T>(
  name: string,
  lookup: (props: ComponentProps, settings: ReferenceSettings) => ReferenceLookup<T>,
  describe: (found: T) => Described,
): ComponentDefinition {
  const resolve = (props: ComponentProps, context: ComponentContext, report: boolean) => {
    let outcome: ReferenceLookup<T>;
    try {
      outcome = lookup(props, settingsOf(context));
    } catch (error) {
      outcome = {
        problem: {
          rule: 'references.unknown',
          message: `${tagOf(name, props)} could not be resolved: ${(error as Error).message}`,
          fix: 'Check what the application registers with registerReferences() in kit.config.ts.',
          suggestions: [],
        },
      };
    }
    if (outcome.problem && report) {
      context.report?.({ rule: outcome.problem.rule, message: outcome.problem.message, fix: outcome.problem.fix });
    }
    return outcome;
  };
  return {
    html(props, context) {
      const outcome = resolve(props, context, true);
      if (outcome.problem) {
        const heading = outcome.problem.rule === 'references.denied' ? 'Reference not allowed' : 'Reference not found';
        return `<div class="kit-reference kit-reference-missing" role="note"><p class="kit-reference-title">${escapeHtml(heading)}: <code>${escapeHtml(tagOf(name, props))}</code></p><p class="kit-reference-meta">${escapeHtml(outcome.problem.message)} ${escapeHtml(outcome.problem.fix)}</p></div>`;
      }
      return describedHtml(describe(outcome.found as T));
    },
    markdown(props, context) {
      // html() reported the problem already: both run for every tag.
      const outcome = resolve(props, context, false);
      if (outcome.problem) {
        const heading = outcome.problem.rule === 'references.denied' ? 'Reference not allowed' : 'Reference not found';
        // The message quotes the tag; escaped, so the twin holds no tag a Markdown reader would parse.
        return `> **${heading}:** ${code(tagOf(name, props))}. ${outcome.problem.message.replace(/[<>]/g, '\\$&')}`;
      }
      return describedMarkdown(describe(outcome.found as T));
    },
  };
}

/**
 * `<Route>`, `<Model>` and `<Event>`: components every renderer knows (a component registered
 * under the same name wins). They describe what `references` holds, within the `references.*`
 * settings of the render context, and render a notice where a reference cannot be resolved.
 *
 * @example
 * const builtIns = referenceComponents(defaultReferences);
 * await builtIns.get('Route')?.markdown({ name: 'users.show' }, { render: context });
 */
export function referenceComponents(references: ReferenceRegistry = defaultReferences): ComponentRegistry {
  const registry = createComponentRegistry();
  const catalog = () => references.catalog();
  registry.register(
    'Route',
    referenceComponent(
      'Route',
      (props, settings) =>
        lookupRoute(
          catalog(),
          {
            ...(text(props, 'name') ? { name: text(props, 'name') } : {}),
            ...(text(props, 'path') ? { path: text(props, 'path') } : {}),
            ...(text(props, 'method') ? { method: text(props, 'method') } : {}),
          },
          settings,
        ),
      describeRoute,
    ),
  );
  registry.register(
    'Model',
    referenceComponent(
      'Model',
      (props, settings) => lookupModel(catalog(), text(props, 'name') ? { name: text(props, 'name') } : {}, settings),
      describeModel,
    ),
  );
  registry.register(
    'Event',
    referenceComponent(
      'Event',
      (props, settings) => lookupEvent(catalog(), text(props, 'name') ? { name: text(props, 'name') } : {}, settings),
      describeEvent,
    ),
  );
  return registry;
}
