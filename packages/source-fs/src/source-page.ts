import type { NormalizedManifest, ParsedPageFile, Provenance, SourcePage } from '@kit/core';
import type { LastChange } from './git.js';
import type { PageFileRef } from './source-state.js';

/**
 * The `SourcePage` of a parsed page file: a fresh copy (callers may change it), with an edit link
 * when the manifest names a repository and provenance from its last commit when it has one.
 */
export function toSourcePage(
  manifest: NormalizedManifest,
  ref: PageFileRef,
  version: string,
  locale: string,
  parsed: ParsedPageFile,
  change: LastChange | undefined,
): SourcePage {
  const links = repositoryLinks(manifest);
  const provenance: Provenance | undefined =
    change && manifest.provenance
      ? {
          author: change.author,
          date: isoDate(change.date),
          commit: change.commit,
          ...(links ? { commitUrl: `${links.base}/commit/${change.commit}` } : {}),
        }
      : undefined;
  return {
    path: ref.path,
    version,
    locale,
    frontmatter: structuredClone(parsed.frontmatter),
    body: parsed.body,
    title: parsed.title ?? ref.path.slice(ref.path.lastIndexOf('/') + 1),
    ...(parsed.description === undefined ? {} : { description: parsed.description }),
    contentHash: parsed.contentHash,
    bodyLine: parsed.bodyLine,
    file: ref.file,
    ...(links ? { editUrl: links.edit(ref.file) } : {}),
    // Only a commit dates a change: a file's time is when it was checked out or copied, so a fresh
    // clone would mark every page as just updated. Without git history a page has no update date.
    ...(change ? { updatedAt: isoDate(change.date) } : {}),
    ...(provenance ? { provenance } : {}),
    visibility: parsed.visibility,
    problems: parsed.problems.map((problem) => ({ ...problem })),
  };
}

function isoDate(date: string): string {
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toISOString();
}

/** Edit and commit links from the manifest's `repository`, or null when it names no http(s) repository. */
function repositoryLinks(manifest: NormalizedManifest): { base: string; edit(file: string): string } | null {
  const repository = manifest.repository;
  const base = (repository?.docsUrl ?? repository?.url)?.replace(/\/+$/, '');
  if (!repository || !base || !/^https?:\/\//i.test(base)) return null;
  const docsPath = repository.docsPath.replace(/^\/+|\/+$/g, '');
  const prefix = `${base}/edit/${repository.branch}${docsPath && docsPath !== '.' ? `/${encodePath(docsPath)}` : ''}`;
  return { base, edit: (file) => `${prefix}/${encodePath(file)}` };
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
