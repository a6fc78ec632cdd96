import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
// The JSON files in core's `schemas/` folder (shipped in the package; the repository's top-level
// `schemas/` links to it) are the one source of truth: the HTTP layer serves these objects and ajv
// validates against the very same objects.
import frontmatterSchema from '../../schemas/frontmatter.json' with { type: 'json' };
import manifestSchema from '../../schemas/kit.json' with { type: 'json' };
import navigationSchema from '../../schemas/navigation.json' with { type: 'json' };
import validateSchema from '../../schemas/validate.json' with { type: 'json' };
import { KitError } from '../errors/kit-error.js';
import { nearestKey } from '../util/nearest-key.js';
import { AJV_OPTIONS, schemaFingerprint } from './compile-options.js';
import { pointerSegment } from './json-text.js';
import type { SchemaName } from './schema-name.js';
import * as precompiled from './validators.generated.js';

export type { SchemaName } from './schema-name.js';

/** Canonical base of every schema `$id`; a server rewrites the origin when serving (see `rebaseSchema`). */
export const SCHEMA_BASE_URL = 'https://kit.dev/schemas/3.x/';

/**
 * The manifest schema's canonical `$id` as shipped in `schemas/kit.json`. A manifest's `$schema`
 * points at the service that serves the schema instead: see {@link manifestSchemaUrl}.
 */
export const MANIFEST_SCHEMA_URL = `${SCHEMA_BASE_URL}kit.json`;

/** Where every Kit server serves the manifest schema, under its base address. */
export const MANIFEST_SCHEMA_PATH = '/schemas/3.x/kit.json';

/**
 * The manifest's `$schema` value for a service at `baseUrl` (`{base_url}/schemas/3.x/kit.json`),
 * written when Kit creates or upgrades a `kit.json`. The served schema's `$id` is the same URL.
 *
 * @example
 * manifestSchemaUrl('https://docs.example.com/') // 'https://docs.example.com/schemas/3.x/kit.json'
 */
export function manifestSchemaUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${MANIFEST_SCHEMA_PATH}`;
}

/** A Kit manifest schema reference of any release line or address (`…/schemas/2.x/larecipe.json`, `…/kit.json`). */
const KIT_MANIFEST_SCHEMA = /^https?:\/\/[^\s]*\/schemas\/(?:(\d+)\.x\/)?(?:kit|larecipe)\.json$/;

/**
 * The `$schema` a manifest should carry after Kit writes it, or null to leave it as it is.
 * Missing, Kit's own old fixed `https://kit.dev/...` address, or a Kit schema of another release
 * line is upgraded to `schemaUrl`; a current one at any address (the author may have pointed it at
 * production), the unversioned served path and a foreign schema are kept.
 *
 * @example
 * upgradedManifestSchema(undefined, 'https://docs.example.com/schemas/3.x/kit.json') // that URL
 * upgradedManifestSchema('https://docs.example.com/schemas/3.x/kit.json', 'http://127.0.0.1:4000/schemas/3.x/kit.json') // null
 */
export function upgradedManifestSchema(current: unknown, schemaUrl: string): string | null {
  if (current === schemaUrl) return null;
  if (typeof current !== 'string' || current.trim() === '' || current === MANIFEST_SCHEMA_URL) return schemaUrl;
  const kit = KIT_MANIFEST_SCHEMA.exec(current.trim());
  if (!kit) return null;
  // The unversioned path always serves the installed schema, so it is current too.
  return kit[1] === undefined || kit[1] === '3' ? null : schemaUrl;
}

/**
 * A copy of `manifest` whose `$schema` is upgraded as {@link upgradedManifestSchema} says, as its
 * first key when it was missing; the same object when nothing changes.
 */
export function withManifestSchema(manifest: Record<string, unknown>, schemaUrl: string): Record<string, unknown> {
  const next = upgradedManifestSchema(manifest.$schema, schemaUrl);
  if (next === null) return manifest;
  if (Object.hasOwn(manifest, '$schema')) return { ...manifest, $schema: next };
  return { $schema: next, ...manifest };
}

/**
 * The JSON Schemas (draft 2020-12) Kit ships, keyed by their served name. `larecipe` is the
 * manifest schema (`kit.json`). Treat them as read-only; `rebaseSchema` gives a copy for serving.
 */
export const schemas: Readonly<Record<SchemaName, Readonly<Record<string, unknown>>>> = Object.freeze({
  larecipe: manifestSchema,
  navigation: navigationSchema,
  frontmatter: frontmatterSchema,
  validate: validateSchema,
});

/** Schema names in a stable order, for route tables and listings. */
export const schemaNames: readonly SchemaName[] = ['larecipe', 'navigation', 'frontmatter', 'validate'];

/**
 * A copy of a schema whose `https://kit.dev/schemas/3.x/` URLs point at `baseUrl` instead, so a
 * server can serve schemas whose `$id` matches where they were fetched from.
 *
 * @example
 * rebaseSchema('larecipe', 'https://docs.example.com/schemas/3.x/').$id
 * // 'https://docs.example.com/schemas/3.x/kit.json'
 */
export function rebaseSchema(name: SchemaName, baseUrl: string): Record<string, unknown> {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const text = JSON.stringify(schemas[name]).replaceAll(JSON.stringify(SCHEMA_BASE_URL).slice(1, -1), base);
  return JSON.parse(text) as Record<string, unknown>;
}

/** One schema violation in words: where (JSON Pointer and readable path), what, and the fix. */
export interface SchemaIssue {
  /** JSON Pointer of the offending value, e.g. `/versions/0/status` (`''` is the document). */
  pointer: string;
  /** Readable path, e.g. `versions[0].status`. */
  path: string;
  message: string;
  fix?: string;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/**
 * The validator of one schema, made on first use: the one compiled ahead of time at build
 * (validators.generated.ts) while the schema is still the one it was made from, else compiled here.
 * Most processes only ever need one or two schemas.
 */
function validatorFor(name: SchemaName): ValidateFunction {
  const known = compiled.get(name);
  if (known) return known;
  const validate = precompiledValidator(name) ?? compileValidator(name);
  compiled.set(name, validate);
  return validate;
}

/** The build's validator of a schema, or null when the schema changed after it was generated. */
export function precompiledValidator(name: SchemaName): ValidateFunction | null {
  const fingerprints = precompiled.fingerprints as Partial<Record<SchemaName, string>>;
  const validate = (precompiled as unknown as Partial<Record<SchemaName, ValidateFunction>>)[name];
  if (!validate || fingerprints[name] !== schemaFingerprint(schemas[name])) return null;
  return validate;
}

/**
 * Compiles a schema with ajv now (what a stale or missing precompiled validator falls back to).
 * ajv itself, about a hundred CommonJS files, is loaded here on first use: a process whose
 * precompiled validators are current never loads it, which saves a good part of starting up.
 */
export function compileValidator(name: SchemaName): ValidateFunction {
  if (!ajv) {
    const require = nodeRequire();
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = require('ajv-formats') as typeof import('ajv-formats');
    ajv = new Ajv(AJV_OPTIONS);
    addFormats.default(ajv);
    // VS Code reads `patternErrorMessage`; Kit uses it for its own messages too.
    ajv.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  }
  return ajv.compile(schemas[name]);
}

/**
 * `require` for loading ajv synchronously (validation is synchronous), found through
 * `process.getBuiltinModule` so this module keeps no Node-only import and still loads in browsers,
 * where validators are always the precompiled ones.
 */
function nodeRequire(): (id: string) => unknown {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule;
  const nodeModule = getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  if (!nodeModule) {
    throw new KitError(
      'internal',
      'A schema changed since its validator was compiled ahead of time, and ajv cannot be loaded here to compile it. Run `pnpm --filter @kit/core generate:validators` (the core build does it).',
    );
  }
  return nodeModule.createRequire(import.meta.url);
}

/**
 * Validates `value` against one of Kit's schemas and returns the violations in words (empty
 * when valid). Messages name the key path, what was found and, where Kit can tell, the fix.
 *
 * @example
 * validateAgainstSchema('larecipe', { theme: { radius: 'round' } })
 * // [{ pointer: '/theme/radius', path: 'theme.radius',
 * //    message: '`theme.radius` must be one of "sharp", "soft" (found "round").' }]
 */
export function validateAgainstSchema(name: SchemaName, value: unknown): SchemaIssue[] {
  const validate = validatorFor(name);
  if (validate(value)) return [];
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  const typeFailed = new Set<string>();
  for (const error of validate.errors ?? []) {
    // A value of the wrong type fails its union type and then its branch's type; say it once.
    if (error.keyword === 'type') {
      if (typeFailed.has(error.instancePath)) continue;
      typeFailed.add(error.instancePath);
    }
    const issue = describeError(error);
    if (!issue) continue;
    const key = `${issue.pointer}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** Readable form of a JSON Pointer: `/versions/0/status` → `versions[0].status`. */
export function readablePath(pointer: string): string {
  if (pointer === '') return '';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}

const typeWords: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function typeList(type: unknown): string {
  const types = (Array.isArray(type) ? type : [type]).map((t) => typeWords[String(t)] ?? String(t));
  return types.length > 1 ? `${types.slice(0, -1).join(', ')} or ${types.at(-1)}` : (types[0] ?? 'valid');
}

function describeError(error: ErrorObject): SchemaIssue | undefined {
  // `if` only reports that its then/else branch failed; that branch's own errors say why.
  if (error.keyword === 'if') return undefined;
  // A propertyNames failure is reported once, by the `propertyNames` error itself.
  if (error.propertyName !== undefined && error.keyword !== 'propertyNames') return undefined;
  const pointer = error.instancePath;
  const path = readablePath(pointer);
  const subject = path === '' ? 'The document' : `\`${path}\``;
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;

  switch (error.keyword) {
    case 'type':
      return {
        pointer,
        path,
        message: `${subject} must be ${typeList(params.type)} (found ${describeValue(error.data)}).`,
      };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      const found = error.data;
      const suggestion =
        typeof found === 'string'
          ? nearestKey(
              found,
              allowed.filter((v): v is string => typeof v === 'string'),
            )
          : undefined;
      return {
        pointer,
        path,
        message: `${subject} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')} (found ${describeValue(found)}).`,
        ...(suggestion ? { fix: `Use ${JSON.stringify(suggestion)}.` } : {}),
      };
    }
    case 'required': {
      const missing = String(params.missingProperty);
      const where = path === '' ? 'The document' : `\`${path}\``;
      return {
        pointer,
        path,
        message: `${where} is missing the required key \`${missing}\`.`,
        fix: `Add \`${missing}\`.`,
      };
    }
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((parent.properties as Record<string, unknown>) ?? {});
      const suggestion = nearestKey(key, known);
      const keyPointer = `${pointer}/${pointerSegment(key)}`;
      return {
        pointer: keyPointer,
        path: readablePath(keyPointer),
        message: `${subject} has an unknown key \`${key}\`; allowed keys: ${known.map((k) => `\`${k}\``).join(', ')}.`,
        fix: suggestion ? `Rename \`${key}\` to \`${suggestion}\`.` : `Remove \`${key}\`.`,
      };
    }
    case 'propertyNames': {
      const key = String(params.propertyName);
      const allowed = ((parent.propertyNames as Record<string, unknown>)?.enum as string[]) ?? [];
      const suggestion = nearestKey(key, allowed);
      const keyPointer = `${pointer}/${pointerSegment(key)}`;
      return {
        pointer: keyPointer,
        path: readablePath(keyPointer),
        message: `${subject} has an unknown key \`${key}\`; allowed keys: ${allowed.map((k) => `\`${k}\``).join(', ')}.`,
        fix: suggestion ? `Rename \`${key}\` to \`${suggestion}\`.` : `Remove \`${key}\`.`,
      };
    }
    case 'pattern': {
      const hint =
        typeof parent.patternErrorMessage === 'string' ? parent.patternErrorMessage : `must match ${params.pattern}`;
      return { pointer, path, message: `${subject} ${hint} (found ${describeValue(error.data)}).` };
    }
    case 'minLength':
      return {
        pointer,
        path,
        message:
          params.limit === 1
            ? `${subject} must not be empty.`
            : `${subject} must be at least ${params.limit} characters long.`,
      };
    case 'maxLength':
      return { pointer, path, message: `${subject} must be at most ${params.limit} characters long.` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        pointer,
        path,
        message: `${subject} must be ${params.comparison} ${params.limit} (found ${describeValue(error.data)}).`,
      };
    default:
      return { pointer, path, message: `${subject} ${error.message ?? 'is invalid'}.` };
  }
}
