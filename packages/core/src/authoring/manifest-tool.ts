import { KitError } from '../errors/kit-error.js';
import { contentHash, normalizeForHash } from '../hash/content-hash.js';
import { serializeManifest } from '../manifest/document.js';
import { applyManifestPatch } from '../manifest/patch.js';
import { type AuthorToolResult, applied, checkBasedOn, rejected, unchanged } from '../outcomes/outcomes.js';
import type { DocSet } from '../ports/docset.js';
import { createUrlLayout } from '../urls/set-urls.js';
import { type AuthorCall, prepare } from './author-call.js';
import { chainNote, changeRecord, draftNote, isReceipt, written } from './change-record.js';
import { addedSecret, describeFinding } from './secrets.js';
import { validationAfter, validationNote } from './validation-after.js';

/** `update_manifest` arguments: a JSON merge patch (RFC 7386). */
export interface UpdateManifestArguments {
  patch: unknown;
  summary?: string;
  based_on?: string;
}

/**
 * `update_manifest`: a JSON merge patch (RFC 7386) on `kit.json`, limited to presentation and
 * structure (`PATCHABLE_MANIFEST_KEYS`); anything else is `rejected` with where it belongs.
 */
export async function updateManifestTool(
  docSet: DocSet,
  input: UpdateManifestArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, draft } = await prepare(docSet, call, {});
  const file = await docSet.source.readManifest();
  const currentHash = file ? contentHash(normalizeForHash(file.text)) : null;
  const stale = checkBasedOn(input.based_on, currentHash, 'manifest (kit.json)');
  if (stale) return stale;

  let raw: Record<string, unknown> | null = null;
  if (file) {
    try {
      const parsed: unknown = JSON.parse(file.text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      raw = parsed as Record<string, unknown>;
    } catch {
      return rejected(
        `${file.file ?? 'kit.json'} is not a JSON object, so a patch cannot be applied safely. Fix the file by hand first (kit validate shows where).`,
      );
    }
  }
  let result: { manifest: Record<string, unknown>; changed: boolean };
  try {
    result = applyManifestPatch(raw, input.patch, { schemaUrl: call.manifestSchemaUrl });
  } catch (error) {
    if (error instanceof KitError) return rejected(`Nothing was written: ${error.message}`);
    throw error;
  }
  const text = serializeManifest(result.manifest);
  const secret = addedSecret(text, file?.text ?? null);
  if (secret)
    return rejected(
      `Nothing was written: the manifest would hold ${describeFinding(secret)}. Secrets belong in the environment file, never in kit.json: remove it from the patch.`,
    );
  const nextHash = contentHash(text);
  if (!result.changed || nextHash === currentHash) {
    return unchanged('The manifest already holds exactly this; nothing was written.', currentHash ?? nextHash);
  }
  const outcome = await written(
    () => writer.writeManifest(text, currentHash, changeRecord(call, 'update_manifest', input.summary, draft)),
    async () => {
      const now = await docSet.source.readManifest();
      return now ? contentHash(normalizeForHash(now.text)) : null;
    },
  );
  if (!isReceipt(outcome)) return outcome;
  const layout = createUrlLayout(docSet.config.route.prefix, await docSet.manifest());
  const validation = await validationAfter(
    docSet,
    call,
    layout.defaultVersion,
    (issue) => issue.file === (file?.file ?? 'kit.json') || /^(manifest|redirects|assets)\./.test(issue.rule),
    [],
    outcome,
    [],
  );
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted a change to' : 'Updated'} the manifest (kit.json).${draftNote(outcome)}${chainNote(outcome)}${validationNote(validation)}`,
    revision: outcome.revision,
    validation,
    docs_migration: outcome.docs_migration,
  });
}
