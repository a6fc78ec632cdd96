import { type AssetRule, assetRefusal, type ContentSource, MAX_ASSET_BYTES } from '@kit/core';

/** A file an import left out, and why. */
export interface ImportSkip {
  /** The file's name in the source, relative to its set folder. */
  name: string;
  /** The file rule that refused it, or `asset.unreadable` when the source could not read it. */
  rule: AssetRule | 'asset.unreadable';
  reason: string;
}

/**
 * The files beside a source's pages that an import copies, read whole, and the ones it leaves
 * out with the reason. In a versioned set only the folders of the imported versions (`imported`)
 * are looked at, plus the files the manifest names beside it (`named`: logo, favicon), as no other
 * file outside a version folder is ever served; an unversioned set's folder is its pages' folder.
 * `except` names files copied already (the manifest's stylesheets).
 */
export async function readSourceFiles(
  source: ContentSource,
  scope: {
    versioned: boolean;
    imported: readonly string[];
    named: ReadonlySet<string>;
    except: ReadonlySet<string>;
  },
): Promise<{ accepted: Array<{ name: string; bytes: Uint8Array }>; skipped: ImportSkip[] }> {
  const accepted: Array<{ name: string; bytes: Uint8Array }> = [];
  const skipped: ImportSkip[] = [];
  if (!source.listFiles) return { accepted, skipped };
  for (const name of await source.listFiles()) {
    if (scope.except.has(name)) continue;
    if (scope.versioned && !scope.imported.includes(name.split('/')[0]!) && !scope.named.has(name)) continue;
    const file = await source.openFile(name);
    if (!file) {
      skipped.push({ name, rule: 'asset.unreadable', reason: `The source lists "${name}" but could not open it.` });
      continue;
    }
    if (file.size > MAX_ASSET_BYTES) {
      skipped.push({
        name,
        rule: 'asset.size',
        reason: `The file "${name}" is ${file.size} bytes; files are at most ${MAX_ASSET_BYTES} bytes (10 MiB).`,
      });
      continue;
    }
    const opened = await file.open();
    const bytes = opened instanceof Uint8Array ? opened : new Uint8Array(await new Response(opened).arrayBuffer());
    const refusal = assetRefusal({ name, bytes });
    if (refusal) skipped.push({ name, rule: refusal.rule, reason: refusal.message });
    else accepted.push({ name, bytes });
  }
  return { accepted, skipped };
}
