import { isServableFileName } from '../../files/file-names.js';
import { INSERT_POINTS, normalizeManifest, parseManifestText } from '../../manifest/normalize.js';
import type { NormalizedManifest, SourceProblem } from '../../model/types.js';
import type { DocSet } from '../../ports/docset.js';
import { parseJsonText } from '../../schemas/json-text.js';
import { lineOf } from '../line-of.js';
import type { AddIssue } from '../report.js';

/** The manifest as validation read it: normalized, with its file name and text for line numbers. */
export interface CheckedManifest {
  manifest: NormalizedManifest;
  /** The manifest's file name (`kit.json` when the set has none). */
  name: string;
  /** The manifest's text; undefined when the set has no manifest. */
  text: string | undefined;
}

/**
 * The manifest rules (`manifest.schema`, `manifest.integrations`, `assets.missing` for stylesheets,
 * logo and favicon, `components.unknown` for inserts), then the problems the source itself reports.
 * The manifest is parsed again from its text so problems carry lines, whatever the set cached.
 */
export async function checkManifest(
  docSet: DocSet,
  components: readonly string[] | undefined,
  add: AddIssue,
): Promise<CheckedManifest> {
  const source = docSet.source;
  const manifestFile = await source.readManifest();
  const name = manifestFile?.file ?? 'kit.json';
  const parsed =
    manifestFile === null
      ? normalizeManifest(undefined, docSet.key)
      : parseManifestText(manifestFile.text, docSet.key, name);
  const checked: CheckedManifest = { manifest: parsed.manifest, name, text: manifestFile?.text };
  for (const problem of parsed.problems) add(problem);
  if (manifestFile !== null && source.kind === 'database') checkIntegrations(manifestFile.text, name, add);
  await checkStylesheets(docSet, checked, add);
  await checkBrandFiles(docSet, checked, add);
  if (components) checkInserts(checked.manifest, components, checked.text, name, add);
  if (source.problems) for (const problem of await source.problems()) add(problem);
  return checked;
}

/** `assets.missing` for a stylesheet of `assets.css` that is not beside the manifest. */
async function checkStylesheets(docSet: DocSet, { manifest, name, text }: CheckedManifest, add: AddIssue) {
  for (const css of manifest.assets.css) {
    if ((await docSet.source.readAsset(css)) === null) {
      add({
        rule: 'assets.missing',
        severity: 'error',
        message: `The stylesheet "${css}" named in assets.css does not exist next to ${name}.`,
        file: name,
        ...lineOf(text, JSON.stringify(css)),
        fix: `Add the file ${css} beside ${name}, or remove it from assets.css.`,
      });
    }
  }
}

/** `assets.missing` for a logo or favicon that names no file Kit serves beside the manifest. */
async function checkBrandFiles(docSet: DocSet, { manifest, name: manifestName, text }: CheckedManifest, add: AddIssue) {
  const brandFiles = [manifest.logo?.light, manifest.logo?.dark, manifest.favicon].filter(
    (name, index, all): name is string => typeof name === 'string' && all.indexOf(name) === index,
  );
  for (const name of brandFiles) {
    if (/^[a-z][a-z\d+.-]*:/i.test(name) || name.startsWith('/')) continue; // a URL, used as written
    if (isServableFileName(name) && (await docSet.source.openFile(name)) !== null) continue;
    const key = name === manifest.favicon ? 'favicon' : 'logo';
    add({
      rule: 'assets.missing',
      severity: 'error',
      message: `The ${key} "${name}" named in ${manifestName} is not a file next to it${isServableFileName(name) ? '' : ' that Kit serves (dotfiles, Markdown and secret-looking names never are)'}, so pages show no ${key}.`,
      file: manifestName,
      ...lineOf(text, JSON.stringify(name)),
      fix: `Add the file ${name} beside ${manifestName}, or point ${key} at an existing file or an https URL.`,
    });
  }
}

/** `manifest.integrations`: a database set reads analytics from configuration only. */
function checkIntegrations(text: string, file: string, add: (problem: SourceProblem) => void): void {
  const parsed = parseJsonText(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return;
  const integrations = (parsed.value as Record<string, unknown>).integrations;
  if (integrations === undefined || integrations === null) return;
  if (typeof integrations === 'object' && Object.keys(integrations).length === 0) return;
  add({
    rule: 'manifest.integrations',
    severity: 'warning',
    message: `${file} has integrations, but this is a database set: it ignores integrations in the manifest.`,
    file,
    ...lineOf(text, '"integrations"'),
    fix: 'Move them to sets.<key>.integrations.analytics in kit.config.ts and remove integrations from the manifest.',
  });
}

/**
 * `components.unknown` for the manifest's `inserts`: the renderer leaves a component nobody
 * registered out of every page, so each such name is reported on the manifest.
 */
function checkInserts(
  manifest: NormalizedManifest,
  known: readonly string[],
  text: string | undefined,
  file: string,
  add: (problem: SourceProblem) => void,
): void {
  const registered = new Set(known);
  for (const point of INSERT_POINTS) {
    for (const name of manifest.inserts[point] ?? []) {
      if (registered.has(name)) continue;
      add({
        rule: 'components.unknown',
        severity: 'warning',
        message: `Insert point "${point}" lists the component "${name}", which is not registered, so it is left out of every page.`,
        file,
        ...lineOf(text, JSON.stringify(name), ['"inserts"', JSON.stringify(point)]),
        fix: `Register it with registerComponent('${name}', { html, markdown }) in kit.config.ts, or remove it from inserts.${point} in ${file}.`,
      });
    }
  }
}
