import { KitError } from '../errors/kit-error.js';
import { dataUrlSize, readAssetDataUrl } from '../files/asset-content.js';
import { fileContentType } from '../files/file-names.js';
import type { DocSet } from '../ports/docset.js';
import { type ReviewCall, reviewAccess } from './review.js';

/** The bytes a drafted file would make live, for a reviewer to look at before publishing. */
export interface DraftFile {
  /** The file's name in the set. */
  name: string;
  bytes: Uint8Array;
  contentType: string;
  /** True when the type is served as a download, never shown inline. */
  download: boolean;
}

/**
 * The file a draft writes (`write_asset` drafted where review is required), for the reviewer: only
 * a caller who may review the set (`reviewAccess`) gets it. Null when `id` is no drafted file
 * write of the set (a page draft, a deletion, an unknown id).
 *
 * @example
 * const file = await draftFile(docSet, '42', { viewer, channel: 'web', source: 'screen' });
 */
export async function draftFile(docSet: DocSet, id: string, call: ReviewCall): Promise<DraftFile | null> {
  const store = await reviewAccess(docSet, call);
  const revision = /^[1-9][0-9]{0,15}$/.test(String(id).trim()) ? await store.revision(String(id).trim()) : null;
  if (revision?.kind !== 'asset' || revision.action === 'delete') return null;
  const stored = readAssetDataUrl(revision.snapshot);
  if (!stored) return null;
  if (stored.bytes.byteLength !== dataUrlSize(revision.snapshot)) {
    throw new KitError('source.error', `The file of draft ${revision.id} is damaged in the revision history.`);
  }
  const { type, download } = fileContentType(revision.path ?? '');
  return { name: revision.path ?? '', bytes: stored.bytes, contentType: type, download };
}
