import type { SourceProblem } from '@kit/core';
import { showPagePath } from '@kit/core/internal';

/** A Markdown file skipped because its path breaks the page-path rule (`refused` says how). */
export function pagePathFileProblem(file: string, refused: string): SourceProblem {
  return {
    rule: 'source.page_path',
    severity: 'warning',
    message: `The file ${showPagePath(file)} is not read as a page: its path breaks the page-path rule (${refused}).`,
    file,
    fix: 'Rename the file (and its folders) with letters, digits, "-" and "_", e.g. "guides/setup.md".',
  };
}

/** A link skipped because it leads outside the set folder or nowhere. */
export function symlinkProblem(file: string): SourceProblem {
  return {
    rule: 'source.symlink',
    severity: 'warning',
    message: `The symbolic link ${file} leads outside the set folder (or nowhere) and is ignored.`,
    file,
    fix: 'Copy the file into the set folder, or point the link at a file inside it.',
  };
}

/** Watching the set folder (or the repository's HEAD) failed: changes show up later, not at once. */
export function watchProblem(root: string, error: unknown): SourceProblem {
  return {
    rule: 'source.watch',
    severity: 'warning',
    message: `Watching ${root} failed (${error instanceof Error ? error.message : String(error)}); changes show up on the next request instead of at once.`,
    fix: 'On Linux, raise fs.inotify.max_user_watches, or turn watching off.',
  };
}

/** The set folder itself cannot be read. */
export function missingRootProblem(root: string): SourceProblem {
  return {
    rule: 'source.read',
    severity: 'error',
    message: `The set folder ${root} does not exist or cannot be read.`,
    fix: 'Create the folder, or point `source.path` of the set at the folder holding kit.json.',
  };
}

/** A version the manifest declares has no folder. */
export function missingVersionFolderProblem(version: string, manifestFile: string): SourceProblem {
  return {
    rule: 'source.missing_folder',
    severity: 'warning',
    message: `The manifest declares version ${version}, but the set folder has no ${version}/ folder, so it has no pages.`,
    file: manifestFile,
    fix: `Create the folder ${version}/ next to kit.json, or remove the version from \`versions\`.`,
  };
}

/** True for a file or folder that could not be read (as opposed to one skipped by a rule). */
export function isReadProblem(problem: SourceProblem): boolean {
  return problem.rule === 'source.read';
}
