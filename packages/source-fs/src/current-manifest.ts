import { normalizeManifest, parseManifestText } from '@kit/core';
import { MANIFEST_FILE, setLayout } from './layout.js';
import type { SetFolder } from './set-folder.js';
import type { ManifestState, SourceState } from './source-state.js';

/**
 * Gives the set's manifest and layout as they are on disk now: read again only when `kit.json`
 * changed (by size and mtime), and not even checked while the watch vouches for the last read.
 * A new manifest drops every folder listing, since versions and locales may have changed.
 *
 * @example
 * const currentManifest = createManifestReader(folder, state, 'docs');
 * const { layout } = await currentManifest();
 */
export function createManifestReader(
  folder: SetFolder,
  state: SourceState,
  setKey: string,
): () => Promise<ManifestState> {
  return async () => {
    const known = state.manifest;
    if (known && state.isFresh(known.checkedAt)) return known;
    const checkedAt = state.checkStamp();
    // A kit.json that links out of the set folder is as good as missing, like any other file.
    const absolute = await folder.resolveInside(MANIFEST_FILE);
    const fingerprint = (absolute && (await folder.fingerprintOf(absolute, MANIFEST_FILE))) ?? 'missing';
    if (state.manifest && state.manifest.fingerprint === fingerprint) {
      state.manifest.checkedAt = checkedAt;
      return state.manifest;
    }
    const text = absolute && fingerprint !== 'missing' ? await folder.disk.readText(absolute, MANIFEST_FILE) : null;
    // Manifest problems are the manifest's to report (kit validate parses readManifest() itself).
    const { manifest } = text === null ? normalizeManifest(undefined, setKey) : parseManifestText(text, setKey);
    // Versions and locales may have changed, and with them every folder listing.
    if (state.manifest) state.listings.clear();
    state.manifest = {
      fingerprint,
      text,
      manifest,
      layout: setLayout(manifest),
      ...(checkedAt !== undefined ? { checkedAt } : {}),
    };
    return state.manifest;
  };
}
