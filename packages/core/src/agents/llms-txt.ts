import type { DocSet, Viewer } from '../ports/docset.js';
import {
  fitsOneFile,
  groupPart,
  groupPartCount,
  indexFiles,
  type LlmsLayout,
  llmsLayout,
  wholeFile,
} from './llms-layout.js';
import type { AgentFile, AgentFileOptions, AgentPageEntry } from './scope.js';

/** What a builder of `llms.txt` or `llms-full.txt` returns: every file of one version and locale. */
export interface AgentFileBundle {
  version: string;
  locale: string;
  /** True when the content was over the limit and the files are split by navigation group. */
  split: boolean;
  /** The limit applied (characters per file). */
  limit: number;
  /** The main file (`…/llms.txt` or `…/llms-full.txt`) first, then group parts, then index continuations. */
  files: AgentFile[];
  /** Each visible page once, in the order the files list it, with the group it is in. */
  pages: Array<AgentPageEntry & { group: string }>;
}

/**
 * Builds `llms.txt` (per llmstxt.org) for one version and locale as a viewer sees it: `# name`,
 * `> summary`, the agent instructions, notes on the version's status and the other versions and
 * languages, then one `##` section per navigation group listing `- [title](.md URL): description`.
 * Over `agents.llms_txt_limit` characters, the file becomes an index linking one file per group
 * (`llms/<group-slug>.txt`, continued in `llms/<group-slug>.2.txt`, ... when a group alone is over
 * the limit), so no file is over the limit and no page is left out.
 *
 * @example
 * const bundle = await buildLlmsTxt(docs, { user: null }, { origin: 'https://example.com', version: '12.x' });
 * bundle.files[0].path; // '/docs/12.x/llms.txt'
 */
export async function buildLlmsTxt(set: DocSet, viewer: Viewer, options: AgentFileOptions): Promise<AgentFileBundle> {
  return bundle(await llmsLayout(set, viewer, options, 'llms'));
}

/**
 * Builds `llms-full.txt` for one version and locale: every page the viewer may see, as agent
 * Markdown, in navigation order, each with a `Source:` line naming its `.md` URL. Over
 * `agents.llms_full_limit` characters it splits by navigation group the same way as
 * {@link buildLlmsTxt} (`llms-full/<group-slug>.txt`); a page larger than a whole file continues in
 * the group's next part.
 *
 * @example
 * const bundle = await buildLlmsFullTxt(docs, { user: null }, { origin: 'https://example.com' });
 */
export async function buildLlmsFullTxt(
  set: DocSet,
  viewer: Viewer,
  options: AgentFileOptions,
): Promise<AgentFileBundle> {
  return bundle(await llmsLayout(set, viewer, options, 'llms-full'));
}

/** Every file of a layout: the main file first, then group parts, then index continuations. */
async function bundle(layout: LlmsLayout): Promise<AgentFileBundle> {
  const { scope, limit } = layout;
  const pages = layout.groups.flatMap((group) => group.pages.map((page) => ({ ...page, group: group.heading })));
  const base = { version: scope.version.id, locale: scope.locale.code, limit, pages };
  if (await fitsOneFile(layout)) return { ...base, split: false, files: [await wholeFile(layout)] };
  const files: AgentFile[] = [];
  for (const group of layout.groups) {
    // Each part is built as serving it alone builds it, reading only its own pages.
    const parts = await groupPartCount(layout, group);
    for (let part = 1; part <= parts; part++) {
      const file = await groupPart(layout, group, part);
      if (file) files.push(file);
    }
  }
  const index = await indexFiles(layout);
  return { ...base, split: true, files: [index[0] as AgentFile, ...files, ...index.slice(1)] };
}

/** Which file of {@link buildLlmsTxtFile} or {@link buildLlmsFullTxtFile} to build. */
export interface AgentFileRequest extends AgentFileOptions {
  /**
   * A file under `llms/` or `llms-full/` of the scope (`the-basics.txt`, `the-basics.2.txt`,
   * `index.2.txt`); none for the main file.
   */
  file?: string;
}

/** One agent file, or null when the scope has no file of that name; `mainPath` lists them all. */
export interface AgentFileLookup {
  mainPath: string;
  file: AgentFile | null;
}

/**
 * One file of {@link buildLlmsTxt}'s bundle, byte for byte, built alone: the main file, a group's
 * part or an index continuation. It reads the listing and only the pages the file holds, so a
 * split file of a large set costs what its own pages cost.
 *
 * @example
 * const { file } = await buildLlmsTxtFile(docs, { user: null }, { origin: 'https://example.com', file: 'the-basics.2.txt' });
 */
export async function buildLlmsTxtFile(
  set: DocSet,
  viewer: Viewer,
  request: AgentFileRequest,
): Promise<AgentFileLookup> {
  return oneFile(await llmsLayout(set, viewer, request, 'llms'), request.file);
}

/**
 * One file of {@link buildLlmsFullTxt}'s bundle, byte for byte, built alone (see
 * {@link buildLlmsTxtFile}). Whether the text splits is decided from page lengths, read once and
 * kept per page by content hash, so a split file reads only the pages of its part.
 *
 * @example
 * const { file } = await buildLlmsFullTxtFile(docs, { user: null }, { origin: 'https://example.com', file: 'the-basics.3.txt' });
 */
export async function buildLlmsFullTxtFile(
  set: DocSet,
  viewer: Viewer,
  request: AgentFileRequest,
): Promise<AgentFileLookup> {
  return oneFile(await llmsLayout(set, viewer, request, 'llms-full'), request.file);
}

const PART_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:\.([1-9][0-9]*))?\.txt$/;

async function oneFile(layout: LlmsLayout, name: string | undefined): Promise<AgentFileLookup> {
  const found = (file: AgentFile | null | undefined) => ({ mainPath: layout.mainPath, file: file ?? null });
  if (name === undefined) {
    return found((await fitsOneFile(layout)) ? await wholeFile(layout) : (await indexFiles(layout))[0]);
  }
  const match = PART_FILE.exec(name);
  // Part 1 is `<slug>.txt`, never `<slug>.1.txt`; the index's part 1 is the main file.
  if (!match || match[2] === '1') return found(null);
  const slug = match[1] as string;
  const part = match[2] ? Number(match[2]) : 1;
  const group = layout.groups.find((candidate) => candidate.slug === slug);
  if (slug === 'index' ? part === 1 : !group) return found(null);
  if (await fitsOneFile(layout)) return found(null);
  if (!group) return found((await indexFiles(layout))[part - 1]);
  return found(await groupPart(layout, group, part));
}
