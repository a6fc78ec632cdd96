import { isKitError } from '../errors/kit-error.js';
import { decodeAssetContent } from '../files/asset-content.js';
import { assetNameRefusal, assetRefusal, isTextAssetName, MAX_ASSET_BYTES } from '../files/asset-rules.js';
import { inlineFileType } from '../files/file-names.js';
import { bytesContentHash } from '../hash/content-hash.js';
import {
  type AuthorToolResult,
  applied,
  checkBasedOn,
  conflicted,
  rejected,
  summarizeValidation,
  unchanged,
} from '../outcomes/outcomes.js';
import type { SourceFileContent } from '../ports/content-source.js';
import type { DocSet } from '../ports/docset.js';
import { contentFolder, fileUrl, type UrlLayout } from '../urls/set-urls.js';
import { type AuthorArguments, type AuthorCall, prepare } from './author-call.js';
import { chainNote, changeRecord, draftNote, isReceipt, written } from './change-record.js';

/** `write_asset` arguments. */
export interface WriteAssetArguments extends AuthorArguments {
  /**
   * Where the file goes, beside the pages of the version and locale (`images/flow.png`, linked from
   * a page as `./images/flow.png`); a leading `/` names it from the set folder instead, beside
   * `kit.json` (`/brand/logo.svg`, `/theme.css`).
   */
  path: string;
  /** The file: standard base64, or a data URL (`data:image/png;base64,...`). */
  content: string;
}

/** `delete_asset` arguments. */
export interface DeleteAssetArguments extends AuthorArguments {
  /** The file's path, as for `write_asset`. */
  path: string;
}

/** {@link writeAssetFile} input: the bytes already in hand (the CLI read them from a file). */
export interface WriteAssetFileArguments extends AuthorArguments {
  path: string;
  bytes: Uint8Array;
  /** The media type the sender declared, checked against the name's. */
  declaredType?: string | null;
}

/**
 * The name a file gets in the set (relative to the set folder) from the path an author gave: beside
 * the pages of `version` and `locale` (`13.x/ar/images/flow.png`), or from the set folder for a
 * path that starts with `/`. A leading `./` is dropped. Not checked here: see `assetNameRefusal`.
 *
 * @example
 * assetNameOf('images/flow.png', layout, '13.x', 'en'); // '13.x/images/flow.png' (a versioned set)
 * assetNameOf('/brand/logo.svg', layout, '13.x', 'en'); // 'brand/logo.svg'
 */
export function assetNameOf(
  path: string,
  layout: Pick<UrlLayout, 'versioned' | 'defaultLocale'>,
  version: string,
  locale: string,
): string {
  const given = typeof path === 'string' ? path.trim().replace(/^\.\//, '') : '';
  if (given.startsWith('/')) return given.slice(1);
  const folder = contentFolder(layout, version, locale);
  return folder === '' ? given : `${folder}/${given}`;
}

/** The whole of a file a source opened, or null when it is larger than any file a set accepts. */
async function bytesOf(file: SourceFileContent): Promise<Uint8Array | null> {
  if (file.size > MAX_ASSET_BYTES) return null;
  const body = await file.open();
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** How a page links the file, or how a file beside the manifest is used. */
function linkHint(
  name: string,
  input: { path: string },
  layout: UrlLayout,
  scope: { version: string; locale: string },
): string {
  const folder = contentFolder(layout, scope.version, scope.locale);
  if (input.path.trim().startsWith('/') && !(folder === '' || name.startsWith(`${folder}/`))) {
    return ' It sits beside kit.json: name it there (logo, favicon, assets.css) with update_manifest, or link it from a page by a path relative to the page.';
  }
  const relative = folder === '' ? name : name.slice(folder.length + 1);
  const image = inlineFileType(name)?.startsWith('image/') ? '!' : '';
  return ` It is served at ${fileUrl(layout, { ...scope, path: relative })}; link it from a page of ${scope.version}${layout.locales.length > 1 ? `/${scope.locale}` : ''} as ${image}[...](${fileUrl(layout, { ...scope, path: relative })}), or relative to the page (./${relative} from a page at the top of the version).`;
}

/**
 * `write_asset`: adds or replaces one file of the set (an image, a PDF, a stylesheet) from base64
 * or a data URL. The same rules as {@link writeAssetFile}.
 *
 * @example
 * await writeAssetTool(docSet, { path: 'images/flow.png', content: 'data:image/png;base64,iVBOR...' }, call);
 */
export async function writeAssetTool(
  docSet: DocSet,
  input: WriteAssetArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  let decoded: ReturnType<typeof decodeAssetContent>;
  try {
    decoded = decodeAssetContent(input.content);
  } catch (error) {
    if (isKitError(error, 'argument.invalid')) return rejected(`Nothing was written: ${error.message}`);
    throw error;
  }
  return writeAssetFile(docSet, { ...input, bytes: decoded.bytes, declaredType: decoded.declaredType }, call);
}

/**
 * Adds or replaces one file of the set: access and review as for every author tool (a web change
 * where review is required is a draft until a person publishes it), then the file rules of
 * `assetRefusal` (name, size, type, active content, secrets), each refusal `rejected` with nothing
 * written; a stale `based_on` (the hash of the file's bytes) is `conflicted`, the same bytes are
 * `unchanged`. `kit assets add` calls it with the bytes of a file.
 */
export async function writeAssetFile(
  docSet: DocSet,
  input: WriteAssetFileArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, layout, version, locale, draft } = await prepare(docSet, call, input);
  const writeAsset = writer.writeAsset?.bind(writer);
  if (!writeAsset) return rejected(`The set "${docSet.key}" has a content source that cannot store files.`);
  const name = assetNameOf(input.path, layout, version, locale);
  const badName = assetNameRefusal(name);
  if (badName) return rejected(`Nothing was written: ${badName.message}`);
  const current = await docSet.source.openFile(name);
  const currentHash = current?.contentHash ?? null;
  const stale = checkBasedOn(input.based_on, currentHash, `file "${name}"`);
  if (stale) return stale;
  const previous = current && isTextAssetName(name) ? await bytesOf(current) : null;
  const refusal = assetRefusal({ name, bytes: input.bytes, declaredType: input.declaredType ?? null, previous });
  if (refusal) return rejected(`Nothing was written: ${refusal.message}`);
  const hash = bytesContentHash(input.bytes);
  if (hash === currentHash)
    return unchanged(`The file "${name}" already holds exactly these bytes; nothing was written.`, hash);

  const outcome = await written(
    () => writeAsset(name, input.bytes, currentHash, changeRecord(call, 'write_asset', input.summary, draft)),
    async () => (await docSet.source.openFile(name))?.contentHash ?? null,
  );
  if (!isReceipt(outcome)) return outcome;
  const verb = outcome.outcome === 'drafted' ? 'Drafted' : current ? 'Replaced' : 'Added';
  return applied({
    outcome: outcome.outcome,
    message: `${verb} the file "${name}" (${inlineFileType(name)}, ${sizeText(input.bytes.byteLength)}).${draftNote(outcome)}${linkHint(name, input, layout, { version, locale })}${chainNote(outcome)}`,
    revision: outcome.revision,
    validation: summarizeValidation([]),
    docs_migration: outcome.docs_migration,
  });
}

/**
 * `delete_asset`: removes one file of the set, named as for `write_asset`. No file there is
 * `rejected` (`conflicted` when `based_on` says the caller saw one); a stale `based_on` is
 * `conflicted`. Pages that link the file are the caller's to fix afterwards.
 */
export async function deleteAssetTool(
  docSet: DocSet,
  input: DeleteAssetArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, layout, version, locale, draft } = await prepare(docSet, call, input);
  const deleteAsset = writer.deleteAsset?.bind(writer);
  if (!deleteAsset) return rejected(`The set "${docSet.key}" has a content source that cannot store files.`);
  const name = assetNameOf(input.path, layout, version, locale);
  const badName = assetNameRefusal(name);
  if (badName) return rejected(badName.message);
  const current = await docSet.source.openFile(name);
  if (!current) {
    if (input.based_on)
      return conflicted(`The file "${name}" no longer exists; it was removed after you saw it.`, null);
    return rejected(
      `No file "${name}" to delete. A path names a file beside the pages of the version and locale (default: the default ones); start it with "/" to name it from the set folder.`,
    );
  }
  const stale = checkBasedOn(input.based_on, current.contentHash, `file "${name}"`);
  if (stale) return stale;
  const outcome = await written(
    () => deleteAsset(name, current.contentHash, changeRecord(call, 'delete_asset', input.summary, draft)),
    async () => (await docSet.source.openFile(name))?.contentHash ?? null,
  );
  if (!isReceipt(outcome)) return outcome;
  const follow =
    outcome.outcome === 'drafted'
      ? ''
      : ' Pages that link it now show a broken link or image: validate_docs lists them.';
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted the deletion of' : 'Deleted'} the file "${name}".${draftNote(outcome)}${follow}`,
    revision: outcome.revision,
    validation: summarizeValidation([]),
    docs_migration: outcome.docs_migration,
  });
}
