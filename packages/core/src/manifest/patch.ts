import { KitError } from '../errors/kit-error.js';
import { type SchemaIssue, validateAgainstSchema, withManifestSchema } from '../schemas/registry.js';
import { serializeManifest } from './document.js';
import { applyMergePatch } from './merge-patch.js';

/**
 * Top-level keys `update_manifest` may change: presentation and structure only. Of `agents`,
 * only `agents.llmsTxt.description` (the agent description).
 */
export const PATCHABLE_MANIFEST_KEYS = [
  'name',
  'description',
  'theme',
  'versions',
  'locales',
  'navbar',
  'redirects',
  'agents.llmsTxt.description',
] as const;

const patchableTopLevel = new Set(['name', 'description', 'theme', 'versions', 'locales', 'navbar', 'redirects']);

/** Manifest keys an author edits in kit.json itself rather than through update_manifest. */
const handEditedKeys = new Set([
  '$schema',
  'logo',
  'favicon',
  'repository',
  'landing',
  'footer',
  'credit',
  'assets',
  'inserts',
  'provenance',
  'pageActions',
  'strings',
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function forbidden(key: string): string {
  const allowed = PATCHABLE_MANIFEST_KEYS.map((k) => `\`${k}\``).join(', ');
  if (key === 'integrations' || key.startsWith('integrations.')) {
    return `\`${key}\` cannot be changed by update_manifest: analytics integrations belong in kit.config.ts (sets.<key>.integrations.analytics), which is the only place a database set reads them. update_manifest changes ${allowed}.`;
  }
  if (key.startsWith('agents')) {
    return `\`${key}\` cannot be changed by update_manifest: of \`agents\` only \`agents.llmsTxt.description\` may be patched; agent instructions are edited in kit.json and agent file switches belong in kit.config.ts (agents.*). update_manifest changes ${allowed}.`;
  }
  if (handEditedKeys.has(key)) {
    return `\`${key}\` cannot be changed by update_manifest; edit it in kit.json directly. update_manifest changes ${allowed}.`;
  }
  return `\`${key}\` cannot be changed by update_manifest: routes, drivers, AI settings and secrets belong in kit.config.ts, never in the manifest. update_manifest changes ${allowed}.`;
}

function checkAllowed(patch: Record<string, unknown>): void {
  const refused: string[] = [];
  for (const key of Object.keys(patch)) {
    if (patchableTopLevel.has(key)) continue;
    if (key !== 'agents') {
      refused.push(key);
      continue;
    }
    const agents = patch.agents;
    if (!isObject(agents)) {
      refused.push('agents');
      continue;
    }
    for (const agentKey of Object.keys(agents)) {
      const llmsTxt = agents[agentKey];
      if (agentKey !== 'llmsTxt' || !isObject(llmsTxt)) {
        refused.push(`agents.${agentKey}`);
        continue;
      }
      for (const llmsKey of Object.keys(llmsTxt)) {
        if (llmsKey !== 'description') refused.push(`agents.llmsTxt.${llmsKey}`);
      }
    }
  }
  if (refused.length > 0) {
    const intro =
      refused.length > 1
        ? `The patch changes keys update_manifest may not change: ${refused.map((k) => `\`${k}\``).join(', ')}. `
        : '';
    throw new KitError('manifest.patch_forbidden', intro + forbidden(refused[0]!), { details: { keys: refused } });
  }
}

function issueKey(issue: SchemaIssue): string {
  return `${issue.pointer}\u0000${issue.message}`;
}

/**
 * Applies an `update_manifest` merge patch (RFC 7396) to the raw manifest and returns the new raw
 * manifest; nothing is changed in place. Only the keys in {@link PATCHABLE_MANIFEST_KEYS} may be
 * patched; any other key throws `manifest.patch_forbidden` naming it. A result with schema errors
 * the manifest did not already have throws `manifest.invalid` listing them. Unknown top-level
 * keys and key order survive (write with `serializeManifest`). With `options.schemaUrl` (the
 * service's `{base_url}/schemas/3.x/kit.json`) a manifest the patch creates starts from
 * `{ "$schema": schemaUrl }`, and one it changes gets its `$schema` upgraded
 * (`withManifestSchema`): missing or outdated becomes `schemaUrl`.
 *
 * @example
 * applyManifestPatch({ name: 'Acme', theme: { radius: 'soft' } }, { theme: { radius: null, accent: '#0f766e' } })
 * // { manifest: { name: 'Acme', theme: { accent: '#0f766e' } }, changed: true }
 */
export function applyManifestPatch(
  rawManifest: Record<string, unknown> | null | undefined,
  patch: unknown,
  options: { schemaUrl?: string | undefined } = {},
): { manifest: Record<string, unknown>; changed: boolean } {
  if (!isObject(patch)) {
    throw new KitError(
      'argument.invalid',
      'The manifest patch must be a JSON object (a merge patch: keys replace, null removes, objects merge), e.g. {"name": "Acme Docs"}.',
    );
  }
  checkAllowed(patch);
  const base: Record<string, unknown> = isObject(rawManifest)
    ? rawManifest
    : options.schemaUrl !== undefined
      ? { $schema: options.schemaUrl }
      : {};
  let result = applyMergePatch(base, patch) as Record<string, unknown>;
  // Only a write upgrades `$schema`: a patch that changes nothing still writes nothing.
  if (options.schemaUrl !== undefined && serializeManifest(base) !== serializeManifest(result)) {
    result = withManifestSchema(result, options.schemaUrl);
  }
  const before = new Set(validateAgainstSchema('larecipe', base).map(issueKey));
  const introduced = validateAgainstSchema('larecipe', result).filter((issue) => !before.has(issueKey(issue)));
  if (introduced.length > 0) {
    const list = introduced.map((issue) => issue.message + (issue.fix ? ` ${issue.fix}` : '')).join(' ');
    throw new KitError('manifest.invalid', `The patch would make kit.json invalid, so nothing was changed: ${list}`, {
      details: { issues: introduced },
    });
  }
  return { manifest: result, changed: serializeManifest(base) !== serializeManifest(result) };
}
