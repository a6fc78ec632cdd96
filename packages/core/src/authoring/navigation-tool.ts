import { KitError } from '../errors/kit-error.js';
import { contentHash, normalizeForHash } from '../hash/content-hash.js';
import type { NavigationFile } from '../model/types.js';
import { deriveNavigation } from '../navigation/derive.js';
import { parseNavigation } from '../navigation/parse.js';
import { applyNavigationPatch } from '../navigation/patch.js';
import { type AuthorToolResult, applied, checkBasedOn, rejected, unchanged } from '../outcomes/outcomes.js';
import type { DocSet } from '../ports/docset.js';
import { validateAgainstSchema } from '../schemas/registry.js';
import { type AuthorArguments, type AuthorCall, prepare } from './author-call.js';
import { chainNote, changeRecord, draftNote, isReceipt, written } from './change-record.js';
import { addedSecret, describeFinding } from './secrets.js';
import { validationAfter, validationNote } from './validation-after.js';

/** `update_navigation` arguments: a whole `tree`, a `patch` applied in order, or both (the patch applies to the tree). */
export interface UpdateNavigationArguments extends AuthorArguments {
  tree?: unknown;
  patch?: unknown;
}

/**
 * `update_navigation`: replaces the navigation file of one version and locale with `tree`, and/or
 * applies `patch` operations in order (to `tree` when given, else to the current file; a version
 * without one starts from the navigation derived from its folders). A patch that fails or would
 * make the file invalid is `rejected` and nothing is written.
 */
export async function updateNavigationTool(
  docSet: DocSet,
  input: UpdateNavigationArguments,
  call: AuthorCall,
): Promise<AuthorToolResult> {
  const { writer, version, locale, draft } = await prepare(docSet, call, input);
  if (input.tree === undefined && input.patch === undefined) {
    return rejected(
      'Pass `tree` (the whole navigation file: {"groups": [...]} or {"tabs": [...]}) or `patch` (a list of operations), or both.',
    );
  }
  const file = await docSet.source.readNavigation(version, locale);
  const currentHash = file ? contentHash(normalizeForHash(file.text)) : null;
  const stale = checkBasedOn(input.based_on, currentHash, `navigation of ${version}/${locale}`);
  if (stale) return stale;

  let start: NavigationFile;
  if (input.tree !== undefined) {
    const issues = validateAgainstSchema('navigation', input.tree);
    if (issues.length > 0) {
      return rejected(
        `Nothing was written: \`tree\` is not a valid navigation file. ${issues.map((issue) => issue.message).join(' ')}`,
      );
    }
    start = input.tree as NavigationFile;
  } else if (file) {
    const parsed = parseNavigation(file.text, file.file);
    if (!parsed.navigation || parsed.problems.some((problem) => problem.severity === 'error')) {
      return rejected(
        `The navigation file of ${version}/${locale} has errors, so a patch cannot be applied safely: ${parsed.problems.map((problem) => problem.message).join(' ')} Pass the whole corrected file as \`tree\` instead.`,
      );
    }
    start = JSON.parse(file.text) as NavigationFile;
  } else {
    start = deriveNavigation(await docSet.source.listPages(version, locale));
  }

  let next: NavigationFile;
  try {
    next = input.patch === undefined ? start : applyNavigationPatch(start, input.patch as unknown[]);
  } catch (error) {
    if (error instanceof KitError) return rejected(`Nothing was written: ${error.message}`);
    throw error;
  }
  const text = `${JSON.stringify(next, null, 2)}\n`;
  const secret = addedSecret(text, file?.text ?? null);
  if (secret) {
    return rejected(
      `Nothing was written: the navigation holds ${describeFinding(secret)}. Secrets never belong in docs: remove it or use a placeholder.`,
    );
  }
  const nextHash = contentHash(text);
  if (nextHash === currentHash) {
    return unchanged(
      `The navigation of ${version}/${locale} already holds exactly this; nothing was written.`,
      nextHash,
    );
  }
  const outcome = await written(
    () =>
      writer.writeNavigation(
        { version, locale },
        text,
        currentHash,
        changeRecord(call, 'update_navigation', input.summary, draft),
      ),
    async () => {
      const now = await docSet.source.readNavigation(version, locale);
      return now ? contentHash(normalizeForHash(now.text)) : null;
    },
  );
  if (!isReceipt(outcome)) return outcome;
  const validation = await validationAfter(
    docSet,
    call,
    version,
    (issue) =>
      issue.rule.startsWith('navigation.') &&
      issue.version === version &&
      (issue.locale === undefined || issue.locale === locale),
    [],
    outcome,
    [],
  );
  return applied({
    outcome: outcome.outcome,
    message: `${outcome.outcome === 'drafted' ? 'Drafted a change to' : 'Updated'} the navigation of ${version}/${locale}.${draftNote(outcome)}${chainNote(outcome)}${validationNote(validation)}`,
    revision: outcome.revision,
    validation,
    docs_migration: outcome.docs_migration,
  });
}
