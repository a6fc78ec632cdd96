import type { Readable, Writable } from 'node:stream';
import type { Kit, Viewer } from '@kit/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { AffectedPages, ValidateDocs } from './context.js';
import { createMcpServer } from './server.js';

export interface StdioServerOptions {
  /** The `kit validate --json` check; without it `validate_docs` is not offered. */
  validate?: ValidateDocs;
  /** The `kit affected --json` check; without it `affected_pages` is not offered. */
  affected?: AffectedPages;
  /** Absolute origin of the deployed site, to make result URLs absolute. */
  origin?: string;
  /** Base address for the manifest `$schema` `update_manifest` writes. Default: `origin`. */
  schemaOrigin?: string;
  /** Default: the local operator, `{ user: null, local: true }`, who may see every set and version. */
  viewer?: Viewer;
  /** Default: `process.stdin` / `process.stdout`. Nothing but protocol messages may be written to `stdout`. */
  stdin?: Readable;
  stdout?: Writable;
}

export interface StdioServerHandle {
  server: McpServer;
  /** Resolves when the client hangs up (stdin ends) or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the local MCP server (`kit mcp`) on stdin/stdout: every set, every tool, the `set`
 * argument on each tool. Resolves once the server listens.
 *
 * @example
 * const { closed } = await runStdioServer(kit, { validate });
 * await closed;
 */
export async function runStdioServer(kit: Kit, options: StdioServerOptions = {}): Promise<StdioServerHandle> {
  const stdin = options.stdin ?? process.stdin;
  const server = await createMcpServer({
    kit,
    scope: { kind: 'local' },
    viewer: options.viewer ?? { user: null, local: true },
    validate: options.validate,
    affected: options.affected,
    origin: options.origin,
    ...(options.schemaOrigin !== undefined ? { schemaOrigin: options.schemaOrigin } : {}),
    transport: 'stdio',
  });
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const close = async () => {
    stdin.off('end', onEnd);
    await server.close();
    markClosed();
  };
  const onEnd = () => void close();
  transport.onclose = markClosed;
  stdin.once('end', onEnd);
  await server.connect(transport);
  return { server, closed, close };
}
