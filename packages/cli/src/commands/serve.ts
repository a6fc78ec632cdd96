import type { AddressInfo } from 'node:net';
import { KitError, warmKit } from '@kit/core';
import { mcpEndpointPath, normalizePrefix } from '@kit/core/internal';
import type { LoadedKit } from '@kit/node';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { warmErrorsTo } from '../warm-errors.js';
import { projectOptions } from './project-options.js';

export function registerServe(program: Command, context: CommandContext): void {
  program
    .command('serve')
    .description(
      'Serve every doc set (pages, .md twins, llms.txt, MCP endpoint, search) with live reload while you edit. Prints the URLs of the site, the MCP endpoint and llms.txt. When no set is mounted at the root, / redirects to the default set. Outside a project (no kit.config.*, no docs/ folder) it stops and says how to start one.',
    )
    .argument(
      '[folder]',
      'the project folder (with kit.config.ts or docs/), or a folder of Markdown pages to serve as they are (default: the working directory, which must be a project)',
    )
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '4000')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--no-watch', 'do not watch the docs for changes (no live reload)')
    .action(
      async (folder: string | undefined, options: { port: string; host: string; watch: boolean }, command: Command) => {
        const port = Number(options.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) {
          throw new KitError(
            'argument.invalid',
            `--port must be a whole number from 0 to 65535 (got "${options.port}").`,
          );
        }
        // Before anything loads: outside a project the command stops at once with the fix.
        const project = projectOptions(context, command, 'serve', folder);
        const [
          { serve },
          { createKitApp, keptPagesFirst, loopbackAllowedHosts },
          { Hono },
          { createLiveReload, LIVE_RELOAD_SCRIPT },
          { validatorFor },
          { openRateLimitStore },
        ] = await Promise.all([
          import('@hono/node-server'),
          import('@kit/http-hono'),
          import('hono'),
          import('../serve/live-reload.js'),
          import('../validate/validate.js'),
          import('@kit/node'),
        ]);
        const kit = await context.loadKit(command, {
          watch: options.watch,
          renderPool: true,
          ...project,
        });
        // Keys written where they have no effect: said once here, and listed by kit validate as config.ignored.
        for (const warning of kit.config.warnings ?? []) writeLine(context.io.stderr, `kit: warning: ${warning}`);
        const host =
          options.host === '0.0.0.0' || options.host === '::'
            ? 'localhost'
            : options.host.includes(':')
              ? `[${options.host}]`
              : options.host;
        // On a loopback address (the default) the MCP endpoint answers loopback names only: a page on a
        // rebinding domain that resolves to 127.0.0.1 sends its own Host and is refused.
        const allowedHosts = loopbackAllowedHosts(options.host, `http://${host}`);
        // Several `kit serve` processes (or one beside the reference server) share one count per caller.
        const rateLimitStore = await openRateLimitStore(kit.config, context.io.env);
        const live = options.watch ? createLiveReload(kit) : null;
        const app = new Hono();
        if (live) app.route('/', live.app);
        // With no set at the domain root, `/` would answer 404: send the reader to the default set.
        const home = homePath(kit);
        if (home !== null) app.get('/', (c) => c.redirect(home, 302));
        const kitApp = createKitApp({
          kit,
          validate: validatorFor(kit),
          ...(allowedHosts ? { allowedHosts } : {}),
          ...(rateLimitStore ? { rateLimitStore } : {}),
          ...(live ? { injectHtml: LIVE_RELOAD_SCRIPT } : {}),
        });
        app.route('/', kitApp);
        // The app adds routes of its own beside Kit's pages, nothing to them.
        const fetch = keptPagesFirst(kitApp, (request, env?: unknown) => app.fetch(request, env));

        const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
          const started = serve({ fetch, port, hostname: options.host }, () => resolve(started));
          started.once('error', (error: NodeJS.ErrnoException) =>
            reject(
              error.code === 'EADDRINUSE'
                ? new KitError(
                    'argument.invalid',
                    `Port ${port} on ${options.host} is in use. Pick another with --port, or stop the other server.`,
                  )
                : error,
            ),
          );
        });
        // Code grammars and every version's search index load behind the first requests, not during
        // them; with the disk cache a restart reads the sections back instead of rendering.
        let stopping = false;
        const warming = warmKit(kit, { stopped: () => stopping, onError: warmErrorsTo(context.io.stderr) });
        const address = server.address() as AddressInfo;
        const origin = `http://${host}:${address.port}`;
        const out = context.io.stdout;
        writeLine(
          out,
          `Kit is serving ${kit.sets.size} doc set${kit.sets.size === 1 ? '' : 's'}${live ? ' with live reload' : ''}:`,
        );
        for (const set of kit.sets.values()) {
          const prefix = normalizePrefix(set.config.route.prefix);
          const base = `${origin}${prefix}`;
          writeLine(out, `  ${set.key}`);
          writeLine(out, `    site      ${base}${prefix === '' ? '/' : ''}`);
          if (set.config.mcp.web.enabled)
            writeLine(out, `    mcp       ${origin}${mcpEndpointPath(prefix, set.config.mcp.web.path)}`);
          if (set.config.agents.llms_txt) writeLine(out, `    llms.txt  ${base}/llms.txt`);
        }
        writeLine(out, 'Press Ctrl+C to stop.');

        await new Promise<void>((resolve) => {
          const stop = () => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            resolve();
          };
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        stopping = true;
        live?.close();
        const closing = new Promise<void>((resolve) => server.close(() => resolve()));
        // Open live-reload streams would hold the server open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        await closing;
        // As in kit mcp: the warm-up step under way ends before the databases close under it.
        await warming.catch(() => {});
        await kit.close();
        await rateLimitStore?.close();
      },
    );
}

/** Where `/` sends a reader: the default set's home, unless some set is mounted at the root itself. */
function homePath(kit: LoadedKit): string | null {
  const prefixes = [...kit.sets.values()].map((set) => normalizePrefix(set.config.route.prefix));
  if (prefixes.includes('')) return null;
  return normalizePrefix(kit.set().config.route.prefix);
}
