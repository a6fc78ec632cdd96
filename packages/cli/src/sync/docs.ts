import type { SyncDocsWriter, SyncPage, SyncPageChange, SyncPageText, SyncWriteResult } from '@kit/ai';
import {
  type AuthorToolResult,
  type ContentWriter,
  composePageFile,
  type DocSet,
  type Kit,
  KitError,
  type ValidationIssue,
} from '@kit/core';
import { type AuthorCall, withoutContentHashLine, writePageTool } from '@kit/core/internal';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { validatorFor } from '../validate/validate.js';

/** Who the revisions of a sync run name as their author. */
export const SYNC_AUTHOR = 'agent:kit-sync';

/** A change a dry run would make: the page file before and after. */
export interface ProposedChange {
  page: SyncPage;
  /** Where the diff says the change is: the page's file, else `set/version/locale/path.md`. */
  label: string;
  before: string;
  after: string;
}

function pageLabel(page: SyncPage): string {
  return page.file ?? `${page.set}/${page.version}/${page.locale}/${page.path}.md`;
}

function readLocal(docSet: DocSet, page: SyncPage): Promise<SyncPageText | null> {
  return docSet.source
    .getPage(page.version, page.locale, page.path)
    .then((found) =>
      found ? { text: composePageFile(found.frontmatter, found.body), contentHash: found.contentHash } : null,
    );
}

function writeArguments(page: SyncPage, change: SyncPageChange) {
  return {
    path: page.path,
    version: page.version,
    locale: page.locale,
    body: change.body,
    based_on: change.basedOn,
    ...(change.frontmatter ? { frontmatter: change.frontmatter } : {}),
    ...(change.summary ? { summary: change.summary } : {}),
  };
}

function asWriteResult(result: AuthorToolResult): SyncWriteResult {
  return {
    outcome: result.outcome,
    message: result.message,
    revision: result.revision,
    validation: result.validation,
  };
}

/**
 * Pages of the local kit, written through core's `write_page` rules on the local channel (files in
 * the working tree on a repository set; the local database plus the branch's docs migration on a
 * database set), each write validated on the touched page only.
 */
export function localDocs(kit: Kit): SyncDocsWriter {
  const validate = validatorFor(kit);
  const call: AuthorCall = {
    viewer: { user: null, local: true },
    channel: 'local',
    author: SYNC_AUTHOR,
    validate: async (input) => (await validate(input)) as unknown as { issues: readonly ValidationIssue[] },
  };
  return {
    read: (page) => readLocal(kit.set(page.set), page),
    write: async (page, change) =>
      asWriteResult(await writePageTool(kit.set(page.set), writeArguments(page, change), call)),
  };
}

/**
 * A dry run over the local kit: every write goes through the same `write_page` rules (paths,
 * frontmatter, secrets, `based_on`), but into a writer that records the page file it would have
 * written instead of writing it. `proposals` holds the last proposal per page.
 */
export function dryRunDocs(kit: Kit): SyncDocsWriter & { proposals: Map<string, ProposedChange> } {
  const proposals = new Map<string, ProposedChange>();
  const call: AuthorCall = { viewer: { user: null, local: true }, channel: 'local', author: SYNC_AUTHOR };
  return {
    proposals,
    read: (page) => readLocal(kit.set(page.set), page),
    async write(page, change) {
      const docSet = kit.set(page.set);
      const before = await readLocal(docSet, page);
      let proposed: string | undefined;
      const recorder: ContentWriter = {
        async writePage(_address, text) {
          proposed = text;
          return { outcome: 'published', revision: { content_hash: 'dry-run' }, docs_migration: null };
        },
        movePage: refuseInDryRun,
        deletePage: refuseInDryRun,
        writeNavigation: refuseInDryRun,
        writeManifest: refuseInDryRun,
      };
      const result = await writePageTool(recording(docSet, recorder), writeArguments(page, change), call);
      if (proposed === undefined) return asWriteResult(result);
      proposals.set(`${page.set}\u0000${page.version}\u0000${page.locale}\u0000${page.path}`, {
        page,
        label: pageLabel(page),
        before: before?.text ?? '',
        after: proposed,
      });
      return {
        outcome: 'proposed',
        message: `Proposed a change to page "${page.path}"; nothing was written (--dry-run).`,
        revision: null,
        validation: result.validation,
      };
    },
  };
}

async function refuseInDryRun(): Promise<never> {
  throw new KitError('argument.invalid', 'A dry run writes nothing.');
}

/** The set, with its source's writer swapped for one that records instead of writing. */
function recording(docSet: DocSet, writer: ContentWriter): DocSet {
  const source = new Proxy(docSet.source, {
    get: (target, key) => (key === 'writer' ? writer : Reflect.get(target, key, target)),
  });
  return new Proxy(docSet, {
    get: (target, key) => (key === 'source' ? source : Reflect.get(target, key, target)),
  });
}

/** A connection to a set's web MCP endpoint, whose author tools a remote run writes through. */
export interface RemoteDocs extends SyncDocsWriter {
  close(): Promise<void>;
}

/**
 * Pages of a production set, read and written through its web MCP endpoint (a real MCP client over
 * Streamable HTTP) with `token` as the bearer token: the endpoint's `read_page` and `write_page`,
 * so its rules apply (the `manageKit` gate, `mcp.web.author_tools`, `review`: drafts under
 * `required`). Refuses to start when the endpoint does not offer `write_page` to that token.
 *
 * @example
 * const docs = await remoteDocs('https://docs.example.com/docs/mcp', process.env.KIT_SYNC_TOKEN!);
 */
export async function remoteDocs(url: string, token: string | null, version: string): Promise<RemoteDocs> {
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch {
    throw new KitError(
      'argument.invalid',
      `--remote "${url}" is not a URL. Pass the set's MCP endpoint, such as https://docs.example.com/docs/mcp.`,
    );
  }
  if (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:') {
    throw new KitError('argument.invalid', `--remote must be an http(s) URL of a set's MCP endpoint; got "${url}".`);
  }
  if (!token) {
    throw new KitError(
      'argument.invalid',
      'kit sync --remote needs a token: set KIT_SYNC_TOKEN (ai.sync.remote_token) to a token the endpoint maps to a user its manageKit gate allows.',
    );
  }
  const client = new Client({ name: 'kit-sync', version });
  const transport = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new KitError(
      'source.error',
      `Cannot reach the MCP endpoint ${endpoint.href}: ${(error as Error).message.split('\n')[0]}. Check --remote and KIT_SYNC_TOKEN.`,
      { cause: error },
    );
  }
  const { tools } = await client.listTools();
  if (!tools.some((tool) => tool.name === 'write_page')) {
    await client.close();
    throw new KitError(
      'access.denied',
      `The MCP endpoint ${endpoint.href} does not offer write_page to this token: the set needs mcp.web.author_tools on, a database source, and KIT_SYNC_TOKEN must map to a user its manageKit gate allows.`,
    );
  }
  const text = (result: Record<string, unknown>) =>
    ((result.content ?? []) as Array<{ type: string; text?: string }>)
      .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
      .join('\n');
  return {
    async read(page) {
      const result = await client.callTool({
        name: 'read_page',
        arguments: { path: page.path, version: page.version, locale: page.locale },
      });
      const hash = (result._meta as { content_hash?: unknown } | undefined)?.content_hash;
      if (result.isError || typeof hash !== 'string') return null;
      return { text: withoutContentHashLine(text(result), hash), contentHash: hash };
    },
    async write(page, change) {
      const result = await client.callTool({ name: 'write_page', arguments: writeArguments(page, change) });
      if (result.isError || !result.structuredContent) {
        return { outcome: 'rejected', message: text(result), revision: null, validation: null };
      }
      return asWriteResult(result.structuredContent as unknown as AuthorToolResult);
    },
    close: () => client.close(),
  };
}
