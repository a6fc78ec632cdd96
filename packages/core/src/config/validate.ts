import type { KitErrorCode } from '../errors/kit-error.js';
import { isPlainObject } from '../util/deep-merge.js';
import { nearestKey } from '../util/nearest-key.js';
import { configSchema, type SchemaNode, setOwnSchema } from './schema.js';

/** One problem with the written config. */
export interface ConfigIssue {
  code: Extract<KitErrorCode, 'config.invalid' | 'config.unknown_key'>;
  /** Dotted key path, e.g. `sets.docs.route.prefix`. */
  path: string;
  message: string;
}

export interface ConfigCheck {
  issues: ConfigIssue[];
  /** Keys written where they have no effect. */
  warnings: string[];
}

/** Groups only the top level has; inside a set they are a mistake worth naming. */
const TOP_LEVEL_ONLY = new Set(
  Object.keys(configSchema.keys).filter((key) => !(key in setOwnSchema) && !isSharedKey(key)),
);

function isSharedKey(key: string): boolean {
  const setNode = configSchema.keys.sets;
  return setNode?.kind === 'map' && setNode.value.kind === 'group' && key in setNode.value.keys;
}

/**
 * Checks a written config against the schema: unknown keys (with the nearest known key suggested),
 * values of the wrong type or range, and keys written in a set where only the top level counts.
 *
 * @example
 * checkConfig({ agents: { llm_txt: true } }).issues[0].message;
 * // "unknown key `agents.llm_txt`; did you mean `agents.llms_txt`?"
 */
export function checkConfig(input: unknown): ConfigCheck {
  const check: ConfigCheck = { issues: [], warnings: [] };
  if (!isPlainObject(input)) {
    check.issues.push({
      code: 'config.invalid',
      path: '',
      message: `the config must be an object (\`export default defineConfig({ ... })\`); got ${describe(input)}`,
    });
    return check;
  }
  walk(configSchema, input, [], check, false);
  return check;
}

function walk(
  node: SchemaNode,
  value: unknown,
  path: string[],
  check: ConfigCheck,
  inSet: boolean,
  warned = false,
): void {
  const dotted = path.join('.');
  // One warning per ignored group: its keys are still checked, but not warned about again.
  const warnHere = inSet && !warned && node.noEffectInSet !== undefined;
  if (warnHere) check.warnings.push(`\`${dotted}\` has no effect in a set: ${node.noEffectInSet}.`);
  warned ||= warnHere;
  if (node.kind === 'leaf') {
    if (!node.accepts(value)) {
      const detail = node.explain?.(value);
      check.issues.push({
        code: 'config.invalid',
        path: dotted,
        message: `\`${dotted}\` must be ${node.expected}; got ${describe(value)}${detail ? `: ${detail}` : ''}`,
      });
    }
    return;
  }
  if (!isPlainObject(value)) {
    const expected =
      node.kind === 'group'
        ? `an object with the keys ${listKeys(Object.keys(node.keys))}`
        : 'an object of named entries';
    check.issues.push({
      code: 'config.invalid',
      path: dotted,
      message: `\`${dotted}\` must be ${expected}; got ${describe(value)}`,
    });
    return;
  }
  if (node.kind === 'map') {
    const inSets = path.length === 1 && path[0] === 'sets';
    if (inSets && Object.keys(value).length === 0) {
      check.issues.push({
        code: 'config.invalid',
        path: dotted,
        message:
          '`sets` declares no set; remove `sets` to serve one set `docs` from `<root>/docs`, or add a set such as `sets: { docs: {} }`',
      });
    }
    for (const [key, item] of Object.entries(value)) {
      if (node.keyPattern && !node.keyPattern.pattern.test(key)) {
        check.issues.push({
          code: 'config.invalid',
          path: `${dotted}.${key}`,
          message: `\`${dotted}.${key}\`: the name \`${key}\` must be ${node.keyPattern.expected}`,
        });
        continue;
      }
      if (item === undefined) continue;
      walk(node.value, item, [...path, key], check, inSets || inSet, warned);
    }
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const child = node.keys[key];
    if (child) {
      walk(child, item, [...path, key], check, inSet, warned);
      continue;
    }
    check.issues.push({
      code: 'config.unknown_key',
      path: [...path, key].join('.'),
      message: unknownKeyMessage(node, path, key, inSet),
    });
  }
}

function unknownKeyMessage(node: SchemaNode & { kind: 'group' }, path: string[], key: string, inSet: boolean): string {
  const full = [...path, key].join('.');
  const setPath = path.slice(0, 2).join('.');
  if (inSet && path.length === 2 && TOP_LEVEL_ONLY.has(key)) {
    return `\`${full}\` is read from the top level only; move it out of \`${setPath}\` to \`${key}\``;
  }
  if (!inSet && path.length === 0 && key in setOwnSchema) {
    return `unknown key \`${key}\`; \`${key}\` belongs to a set: write it as \`sets.docs.${key}\` (or under your set's key)`;
  }
  const suggestion = nearestKey(key, Object.keys(node.keys));
  if (suggestion) return `unknown key \`${full}\`; did you mean \`${[...path, suggestion].join('.')}\`?`;
  const where = path.length ? `\`${path.join('.')}\`` : 'the top level';
  return `unknown key \`${full}\`; the keys ${where} accepts are ${listKeys(Object.keys(node.keys))}`;
}

function listKeys(keys: string[]): string {
  return keys.map((key) => `\`${key}\``).join(', ');
}

/** A short, safe rendering of a wrong value: its text (cut) and its kind. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return `a list (${cut(redactCredentials(safeJson(value)))})`;
  if (typeof value === 'object') return `an object (${cut(redactCredentials(safeJson(value)))})`;
  if (typeof value === 'string') return `${cut(JSON.stringify(redactCredentials(value)))} (a string)`;
  return `${String(value)} (a ${typeof value})`;
}

/** Messages end up in logs and terminals: a URL's user and password never go with them. */
function redactCredentials(text: string): string {
  return text.replace(/:\/\/[^\s/@"]+@/g, '://***@');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function cut(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
