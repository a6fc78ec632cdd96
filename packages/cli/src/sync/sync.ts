import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SyncDocsWriter, SyncPage, SyncPageOutcome, SyncStop } from '@kit/ai';
import { type AuthorRevision, type KitEnv, KitError, normalizeForHash, type SourceProblem } from '@kit/core';
import { checkBasedOn } from '@kit/core/internal';
import type { LoadedKit } from '@kit/node';
import { affectedPages, changeDiff } from '../affected/affected.js';
import { CLI_VERSION } from '../version.js';
import { dryRunDocs, localDocs, type ProposedChange, type RemoteDocs, remoteDocs } from './docs.js';

/** The command that installs what `kit sync` needs, with its default provider (kept equal to `SYNC_INSTALL_COMMAND` of @kit/ai, which may be the missing package). */
export const SYNC_INSTALL = 'npm install --save-dev @kit/ai ai @ai-sdk/openai';

/** The flags of one sync run: what `kit sync` is given, and what a queued run carries as JSON. */
export interface SyncFlags {
  /** Only this set's pages. */
  set?: string;
  /** Commit, branch or tag to compare with (default: the default branch). */
  base?: string;
  /** Default `HEAD` (plus uncommitted work). */
  head?: string;
  /** Overrides `ai.sync.provider`. */
  provider?: string;
  /** Overrides `ai.sync.model`. */
  model?: string;
  /** Overrides `ai.sync.max_pages`. */
  maxPages?: number;
  /** Overrides `ai.sync.max_steps`. */
  maxSteps?: number;
  /** Propose the changes as a diff and write nothing. */
  dryRun?: boolean;
  /** A production set's web MCP endpoint to read and write the pages through. */
  remote?: string;
}

/** Options of one sync run: its flags, and where and how it runs. */
export interface SyncOptions extends SyncFlags {
  /** The project folder (where kit.config.* or docs/ is). */
  cwd: string;
  /** Config file to load instead of the one found in `cwd`. */
  configFile?: string;
  /** Environment: config variables and provider credentials. Default `process.env` (filled from `.env`). */
  env?: KitEnv;
  /** Cancels the run; what was written stays, and the result says so. */
  signal?: AbortSignal;
}

/** A page of a run, as the result names it: the agent's page without the files that matched it. */
export type SyncResultPage = Omit<SyncPage, 'matched'>;

/** What `kit sync --json` prints, and what a queued run records. */
export interface SyncResult {
  base: string;
  head: string;
  dry_run: boolean;
  /** The MCP endpoint of a `--remote` run, else null. */
  remote: string | null;
  provider: string | null;
  model: string | null;
  /** Steps (model calls) the run took. */
  steps: number;
  /** Why the run stopped before the agent finished (a limit, a provider failure), else null. */
  stopped: SyncStop | null;
  /** Pages changed (`published`, `drafted`) or, in a dry run, `proposed`, with the revision each write created. */
  changed: Array<
    SyncResultPage & { outcome: 'published' | 'drafted' | 'proposed'; message: string; revision: AuthorRevision | null }
  >;
  /** Pages still stale after the run, and why. */
  stale: Array<
    SyncResultPage & {
      /** `max_pages`, `max_steps`, `timeout`, `provider_failed`, `aborted`, `conflicted`, `rejected`, `unchanged`, `not_changed`, `unreadable`. */
      reason: string;
      message: string;
    }
  >;
  /** Validation of the changed pages after the change (each page's own checks, not the whole version). */
  validation: { errors: number; warnings: number; issues: Array<SourceProblem & { set: string; page: string }> };
  /** The proposed changes as a unified diff (dry runs), else null. */
  diff: string | null;
  /** The agent's closing summary. */
  summary: string;
}

type AiPackage = typeof import('@kit/ai');

/**
 * Loads the optional AI package. Without it (or without the AI SDK it needs) the run stops with
 * the install steps, before anything else is done.
 */
export async function loadSyncAi(load: () => Promise<AiPackage> = () => import('@kit/ai')): Promise<AiPackage> {
  try {
    return await load();
  } catch (error) {
    // A loader may wrap the module error (a bundler, a test runner's mock): look through its causes.
    let cause: unknown = error;
    while (cause && !isMissingModule(cause)) cause = (cause as { cause?: unknown }).cause;
    if (!cause) throw error;
    const { message } = cause as { message?: unknown };
    const missing = /['"]((?:@[\w.-]+\/)?[\w.-]+)['"]/.exec(String(message))?.[1] ?? '@kit/ai';
    throw new KitError(
      'config.invalid',
      `kit sync needs the optional AI package, and ${missing} is not installed. Install it with a provider as development dependencies:\n\n  ${SYNC_INSTALL}\n\nFor another provider install @ai-sdk/anthropic or @ai-sdk/openai-compatible instead of @ai-sdk/openai and set ai.sync.provider (or KIT_AI_PROVIDER). Then set the provider's key (OPENAI_API_KEY, ANTHROPIC_API_KEY) and run kit sync again.`,
      { cause: error },
    );
  }
}

function isMissingModule(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** A flag overriding a whole-number `ai.sync` limit: absent, or a whole number of at least 1. */
export function positive(value: number | undefined, flag: string, key: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) {
    throw new KitError('argument.invalid', `${flag} must be a whole number of at least 1 (it overrides ${key}).`);
  }
  return value;
}

/**
 * One sync run: finds the pages the change made stale (the rules of `kit affected`), gives the
 * docs agent the diff (denied files withheld), the pages and read access to the code, lets it
 * change the pages through the author tools with `based_on`, and reports per page what happened,
 * with the validation of the changed pages. Within `ai.sync.max_pages`, `max_steps` and `timeout`.
 *
 * @example
 * const result = await runSync({ cwd: process.cwd(), dryRun: true });
 * console.log(result.diff);
 */
export async function runSync(options: SyncOptions): Promise<SyncResult> {
  const ai = await loadSyncAi();
  const maxPagesFlag = positive(options.maxPages, '--max-pages', 'ai.sync.max_pages');
  const maxStepsFlag = positive(options.maxSteps, '--max-steps', 'ai.sync.max_steps');
  const { loadKit } = await import('@kit/node');
  const kit: LoadedKit = await loadKit({
    cwd: options.cwd,
    git: false,
    ...(options.env ? { env: options.env } : {}),
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.dryRun || options.remote ? {} : { docsMigrations: {} }),
  });
  let remote: RemoteDocs | undefined;
  try {
    const env = options.env ?? process.env;
    const settings = kit.config.ai.sync;
    const provider = options.provider ?? settings.provider;
    const modelName = options.model ?? settings.model;
    const problems = await ai.askSetupProblems({ provider, model: modelName }, env, 'ai.sync');
    if (problems.length > 0) {
      throw new KitError(
        'config.invalid',
        `kit sync cannot call the AI provider: ${problems.join(' ')} Set ai.sync.provider and ai.sync.model (or pass --provider and --model) and the provider's key in the environment.`,
      );
    }
    const maxPages = maxPagesFlag ?? settings.max_pages;
    const maxSteps = maxStepsFlag ?? settings.max_steps;
    const deny = ai.syncDenyRules(settings.deny);
    const set = options.remote ? (options.set ?? kit.config.default) : options.set;
    const range = {
      kit,
      env,
      ...(options.base !== undefined ? { base: options.base } : {}),
      ...(options.head !== undefined ? { head: options.head } : {}),
    };
    const affected = await affectedPages({ ...range, ...(set !== undefined ? { set } : {}) });
    const stalePages: SyncPage[] = affected.pages
      .filter((page) => page.status === 'stale')
      .map(({ set, version, locale, path, title, file, matched }) => ({
        set,
        version,
        locale,
        path,
        title,
        matched,
        ...(file !== undefined ? { file } : {}),
      }));
    const result: SyncResult = {
      base: affected.base,
      head: affected.head,
      dry_run: options.dryRun === true,
      remote: options.remote ?? null,
      provider: null,
      model: null,
      steps: 0,
      stopped: null,
      changed: [],
      stale: [],
      validation: { errors: 0, warnings: 0, issues: [] },
      diff: options.dryRun ? '' : null,
      summary: '',
    };
    if (stalePages.length === 0) return result;

    const taken = stalePages.slice(0, maxPages);
    for (const page of stalePages.slice(maxPages)) {
      result.stale.push({
        ...named(page),
        reason: 'max_pages',
        message: `${stalePages.length} pages are stale and one run changes at most ${maxPages} (ai.sync.max_pages, --max-pages); run kit sync again for this one.`,
      });
    }

    let docs: SyncDocsWriter;
    let proposals: Map<string, ProposedChange> | undefined;
    if (options.remote) {
      remote = await remoteDocs(options.remote, settings.remote_token, CLI_VERSION);
      if (options.dryRun) {
        const recorder = recordingDocs(remote);
        proposals = recorder.proposals;
        docs = recorder;
      } else docs = remote;
    } else if (options.dryRun) {
      const recorder = dryRunDocs(kit);
      proposals = recorder.proposals;
      docs = recorder;
    } else docs = localDocs(kit);

    const { text } = await changeDiff(range);
    const [choice] = ai.providerChain({ provider, model: modelName }, 'ai.sync');
    const model = await ai.loadModel(choice!, env);
    const run = await ai.runSyncAgent({
      model,
      pages: taken,
      changed: affected.changed,
      diff: ai.redactDiff(text, deny),
      docs,
      code: ai.createFsCodeReader(kit.config.root, deny),
      maxSteps,
      timeoutMs: settings.timeout * 1000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    result.provider = run.provider;
    result.model = run.model;
    result.steps = run.steps;
    result.stopped = run.stopped;
    result.summary = run.summary;
    addOutcomes(result, run.pages);
    if (proposals) result.diff = await unifiedDiff([...proposals.values()]);
    return result;
  } finally {
    await remote?.close().catch(() => undefined);
    await kit.close();
  }
}

function named({ matched: _matched, ...page }: SyncPage): SyncResultPage {
  return page;
}

function addOutcomes(result: SyncResult, outcomes: SyncPageOutcome[]): void {
  const left: SyncResult['stale'] = [];
  for (const entry of outcomes) {
    if (entry.status === 'stale') {
      left.push({ ...named(entry.page), reason: entry.reason, message: entry.message });
      continue;
    }
    const { outcome, message, revision, validation } = entry.result;
    result.changed.push({
      ...named(entry.page),
      outcome: outcome as 'published' | 'drafted' | 'proposed',
      message,
      revision,
    });
    for (const issue of validation?.issues ?? []) {
      result.validation.issues.push({ ...issue, set: entry.page.set, page: entry.page.path });
      if (issue.severity === 'error') result.validation.errors += 1;
      else if (issue.severity === 'warning') result.validation.warnings += 1;
    }
  }
  result.stale.unshift(...left);
}

/**
 * A dry run over any docs writer (a remote endpoint): reads through it, checks `based_on` against a
 * fresh read, and records the proposed body instead of writing.
 */
function recordingDocs(reader: SyncDocsWriter): SyncDocsWriter & { proposals: Map<string, ProposedChange> } {
  const proposals = new Map<string, ProposedChange>();
  return {
    proposals,
    read: (page) => reader.read(page),
    async write(page, change) {
      const current = await reader.read(page);
      const stale = checkBasedOn(change.basedOn, current?.contentHash ?? null, `page "${page.path}"`);
      if (stale) return { outcome: 'conflicted', message: stale.message, revision: null, validation: null };
      proposals.set(`${page.set}\u0000${page.version}\u0000${page.locale}\u0000${page.path}`, {
        page,
        label: `${page.set}/${page.version}/${page.locale}/${page.path}.md`,
        before: current?.text ?? '',
        after: normalizeForHash(change.body),
      });
      return {
        outcome: 'proposed',
        message: `Proposed a change to page "${page.path}"; nothing was written (--dry-run).`,
        revision: null,
        validation: null,
      };
    },
  };
}

/** The proposed changes as one unified diff (`git diff --no-index` of each page's before and after). */
async function unifiedDiff(changes: ProposedChange[]): Promise<string> {
  if (changes.length === 0) return '';
  const dir = await mkdtemp(join(tmpdir(), 'kit-sync-diff-'));
  try {
    const parts: string[] = [];
    for (const change of changes) {
      const label = change.label.replace(/^\/+/, '');
      for (const [side, text] of [
        ['a', change.before],
        ['b', change.after],
      ] as const) {
        await mkdir(dirname(join(dir, side, label)), { recursive: true });
        await writeFile(join(dir, side, label), text);
      }
      parts.push(
        await new Promise<string>((resolve, reject) => {
          execFile(
            'git',
            ['diff', '--no-index', '--no-color', '--no-prefix', '--no-ext-diff', `a/${label}`, `b/${label}`],
            { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
            (error, stdout, stderr) => {
              // Exit code 1 means the files differ: the diff is on stdout.
              if (error && (error as { code?: unknown }).code !== 1) reject(new Error(stderr.trim() || error.message));
              else resolve(stdout);
            },
          );
        }),
      );
    }
    return parts.join('');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
