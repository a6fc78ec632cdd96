import type { SourceFile, SourceProblem } from '@kit/core';
import { problemsOf, readEvery } from './file-reads.js';
import { MANIFEST_FILE } from './layout.js';
import type { PageLister } from './page-listing.js';
import type { PageReader } from './page-reader.js';
import { missingRootProblem, missingVersionFolderProblem } from './problems.js';
import type { SetFolder } from './set-folder.js';
import type { ManifestState, SourceState } from './source-state.js';

/** What {@link scanProblems} reads the set through. */
export interface ProblemScan {
  folder: SetFolder;
  state: SourceState;
  setKey: string;
  currentManifest(): Promise<ManifestState>;
  pages: PageLister;
  readPage: PageReader;
  readNavigation(version: string, locale: string): Promise<SourceFile | null>;
  listSkills(): Promise<unknown>;
}

/**
 * Every problem of a repository set, for `kit validate`: the set folder, the watch, missing version
 * folders, and each file of every version and locale read as a reader would (walked afresh, not
 * from a kept listing), so validation names every file a reader would miss.
 */
export async function scanProblems(scan: ProblemScan): Promise<SourceProblem[]> {
  const { folder, setKey } = scan;
  const base = await folder.realRoot();
  if (!base) return [missingRootProblem(folder.root)];
  const state = await scan.currentManifest();
  const problems: SourceProblem[] = scan.state.watchProblem ? [scan.state.watchProblem] : [];
  for (const version of state.layout.versions) {
    const pageFolder = state.layout.pageFolder(version, state.layout.locales[0] ?? 'en');
    if (pageFolder && state.manifest.versioned && !(await folder.resolveInside(pageFolder))) {
      problems.push(missingVersionFolderProblem(version, MANIFEST_FILE));
    }
    for (const locale of state.layout.locales) {
      const listing = await scan.pages.walk(state.layout, version, locale);
      problems.push(...listing.problems);
      // Each file read as a page is, so validation names every file a reader would miss.
      await readEvery(setKey, listing.files, (ref) => scan.readPage(state, ref, version, locale, null)).catch(
        (error: unknown) => problems.push(...problemsOf(error)),
      );
      await scan.readNavigation(version, locale).catch((error: unknown) => problems.push(...problemsOf(error)));
    }
  }
  await scan.listSkills().catch((error: unknown) => problems.push(...problemsOf(error)));
  return problems;
}
