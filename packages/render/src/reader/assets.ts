/**
 * Node-only: builds the reader's browser script and stylesheet with esbuild. Imported through the
 * `@kit/render/assets` subpath so the package root stays free of Node and esbuild.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isKitError, KitError } from '@kit/core';
import * as esbuild from 'esbuild';

/** One built file: a content-hashed name (`reader.3f9a1c2b.js`) and its text. */
export interface ReaderAsset {
  name: string;
  body: string;
  contentType: string;
}

export interface ReaderAssets {
  js: ReaderAsset;
  css: ReaderAsset;
}

export interface BuildReaderAssetsOptions {
  /**
   * A browser-safe module exporting `queryClientIndex(serialized, query, limit)`, bundled into the
   * script so the `client` search driver queries its index in the browser (e.g.
   * `{ module: '@kit/search/client' }`). Without it the dialog asks the server search URL.
   */
  clientSearch?: { module: string; resolveDir?: string };
  /** Minify (default true). */
  minify?: boolean;
}

/** Where the client sources live: `client/` beside `src/` and `dist/` (same depth from both). */
export const READER_CLIENT_DIR = fileURLToPath(new URL('../../client/', import.meta.url));

function clientSearchPlugin(option: BuildReaderAssetsOptions['clientSearch']): esbuild.Plugin {
  return {
    name: 'kit-client-search',
    setup(build) {
      build.onResolve({ filter: /^kit:client-search$/ }, async () => {
        if (!option) return { path: `${READER_CLIENT_DIR}no-client-search.ts` };
        const resolved = await build.resolve(option.module, {
          kind: 'import-statement',
          resolveDir: option.resolveDir ?? process.cwd(),
        });
        if (resolved.errors.length) {
          throw new KitError(
            'argument.invalid',
            `The client search module "${option.module}" could not be resolved from ${option.resolveDir ?? process.cwd()}. ` +
              'Install it, or pass clientSearch.resolveDir pointing at a folder that can import it.',
          );
        }
        return { path: resolved.path };
      });
    },
  };
}

function hashName(base: string, ext: string, body: string): string {
  return `${base}.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.${ext}`;
}

/**
 * Builds the reader script (one IIFE file) and stylesheet, named by content hash so they can be
 * served with `Cache-Control: immutable`.
 *
 * @example
 * const { js, css } = await buildReaderAssets({ clientSearch: { module: '@kit/search/client' } });
 * app.get(`/_kit/${js.name}`, (c) => c.body(js.body, 200, { 'content-type': js.contentType }));
 */
export async function buildReaderAssets(options: BuildReaderAssetsOptions = {}): Promise<ReaderAssets> {
  const minify = options.minify ?? true;
  const entry = `${READER_CLIENT_DIR}index.ts`;
  if (!existsSync(entry)) {
    throw new KitError(
      'internal',
      `The reader client sources are missing at ${READER_CLIENT_DIR}. Reinstall @kit/render (its "client" folder ships with the package).`,
    );
  }
  const [script, style] = await Promise.all([
    esbuild.build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      minify,
      legalComments: 'none',
      conditions: ['kit-source', 'browser', 'import', 'default'],
      logLevel: 'silent',
      plugins: [clientSearchPlugin(options.clientSearch)],
    }),
    esbuild.build({
      entryPoints: [`${READER_CLIENT_DIR}styles.css`],
      bundle: true,
      write: false,
      minify,
      target: ['chrome100', 'firefox100', 'safari15'],
      logLevel: 'silent',
    }),
  ]).catch((error: unknown) => {
    // esbuild wraps what a plugin throws; hand the caller the KitError with its fix.
    const detail = (error as { errors?: Array<{ detail?: unknown }> }).errors?.[0]?.detail;
    throw isKitError(detail) ? detail : error;
  });
  const js = script.outputFiles[0]!.text;
  const css = style.outputFiles[0]!.text;
  return {
    js: { name: hashName('reader', 'js', js), body: js, contentType: 'text/javascript; charset=utf-8' },
    css: { name: hashName('reader', 'css', css), body: css, contentType: 'text/css; charset=utf-8' },
  };
}

const cache = new Map<string, Promise<ReaderAssets>>();

/**
 * The built reader assets, built once per process (per `clientSearch` choice) and cached. The
 * HTTP layer serves them and passes their URLs to the layout.
 *
 * @example
 * const assets = await readerAssets();
 * view.assets = { js: `/docs/_kit/${assets.js.name}`, css: `/docs/_kit/${assets.css.name}` };
 */
export function readerAssets(options: BuildReaderAssetsOptions = {}): Promise<ReaderAssets> {
  const key = JSON.stringify([
    options.clientSearch?.module ?? null,
    options.clientSearch?.resolveDir ?? null,
    options.minify ?? true,
  ]);
  let built = cache.get(key);
  if (!built) {
    built = buildReaderAssets(options);
    // A failed build is not cached, so fixing the cause and retrying works.
    built.catch(() => cache.delete(key));
    cache.set(key, built);
  }
  return built;
}

/** A running reader dev server. */
export interface ReaderDevServer {
  /** Base URL to put in `ui.dev_server` / `KIT_UI_DEV`, e.g. `http://127.0.0.1:5174`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Serves `/reader.js` and `/reader.css` from the client sources and rebuilds on every change; a
 * layout whose `assets.devServer` points here loads them and reloads when they change. For working
 * on the reader UI itself.
 *
 * @example
 * const dev = await startReaderDevServer({ port: 5174 });
 * process.env.KIT_UI_DEV = dev.url;
 */
export async function startReaderDevServer(
  options: { port?: number; host?: string } & BuildReaderAssetsOptions = {},
): Promise<ReaderDevServer> {
  const context = await esbuild.context({
    entryPoints: [
      { in: `${READER_CLIENT_DIR}index.ts`, out: 'reader' },
      { in: `${READER_CLIENT_DIR}styles.css`, out: 'reader' },
    ],
    bundle: true,
    outdir: `${READER_CLIENT_DIR}.dev`,
    write: false,
    format: 'iife',
    platform: 'browser',
    sourcemap: 'inline',
    conditions: ['kit-source', 'browser', 'import', 'default'],
    logLevel: 'silent',
    plugins: [clientSearchPlugin(options.clientSearch)],
  });
  await context.watch();
  const served = await context.serve({
    port: options.port ?? 5174,
    host: options.host ?? '127.0.0.1',
    cors: { origin: '*' },
  });
  const host = served.hosts[0] ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${served.port}`,
    stop: () => context.dispose(),
  };
}
