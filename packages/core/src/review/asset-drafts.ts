import { dataUrlSize } from '../files/asset-content.js';
import { fileContentType } from '../files/file-names.js';
import type { DocSet } from '../ports/docset.js';
import type { RevisionEntry } from '../ports/review-store.js';
import { unifiedDiff } from './diff.js';
import type { DraftView } from './draft-view.js';

/** One line saying what a file is: `images/flow.png: image/png, 12345 bytes, sha256:…`. */
function fileLine(name: string, size: number | null, hash: string): string {
  return `${name}: ${fileContentType(name).type}, ${size === null ? 'unknown size' : `${size} bytes`}, ${hash}\n`;
}

/**
 * A drafted change to a file of the set (`write_asset`, `delete_asset`) as a reviewer sees it. A
 * file has no text to compare, so `before` and `after` are one line each naming its type, size and
 * hash, and `diff` is the diff of those lines; the review screen shows the file itself beside them.
 */
export async function assetDraftView(
  docSet: DocSet,
  id: string,
  main: RevisionEntry,
  status: DraftView['status'],
): Promise<DraftView> {
  const name = main.path ?? '';
  const live = await docSet.source.openFile(name);
  const before = live ? fileLine(name, live.size, live.contentHash) : null;
  const after = main.action === 'delete' ? null : fileLine(name, dataUrlSize(main.snapshot), main.contentHash);
  const stale = (live?.contentHash ?? null) !== main.basedOn;
  return {
    id,
    kind: 'asset',
    action: main.action,
    version: null,
    locale: null,
    path: name,
    author: main.author,
    summary: main.summary,
    created_at: main.createdAt,
    based_on: main.basedOn,
    current_hash: live?.contentHash ?? null,
    stale: status === 'draft' ? stale : false,
    before,
    after,
    diff: unifiedDiff(before, after, { from: `a/${name}`, to: `b/${name}` }),
    status,
  };
}
