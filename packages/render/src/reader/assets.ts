/**
 * Node-only: builds the reader's browser script and stylesheet with esbuild. Imported through the
 * `@kit/render/assets` subpath so the package root stays free of Node and esbuild.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isKitError, KitError } from '@kit/core';
import { writeFileAtomically } from '@kit/core/node';
import type * as Esbuild from 'esbuild';
import { BUNDLED_ARABIC_FAMILY } from './theme.js';

/** One built file: a content-hashed name (`reader.3f9a1c2b.js`) and its text. */
export interface ReaderAsset {
  name: string;
  body: string;
  contentType: string;
}

/** A built script and the source files that went into it, for checking what a browser downloads. */
export interface ReaderScript extends ReaderAsset {
  /** The source modules bundled into this file (absolute paths), sorted. */
  modules: string[];
}

/** A font file the stylesheet's `@font-face` rules name, served beside it (`noto-sans-arabic.3f9a1c2b.woff2`). */
export interface ReaderFont {
  name: string;
  body: Uint8Array;
  contentType: string;
}

export interface ReaderAssets {
  /** The script every page loads (an ES module), with what it imports statically. */
  js: ReaderScript;
  css: ReaderAsset;
  /**
   * Font files the stylesheet declares: the bundled Arabic font. A browser fetches one only for a
   * page whose text has characters in its `unicode-range` that the fonts before it in the stack
   * lack, so pages without Arabic never download it.
   */
  fonts: ReaderFont[];
  /**
   * Parts of the script a page fetches only when a reader first needs them (the client search
   * engine, fetched on the first search), served beside `js` under their own names.
   */
  chunks: ReaderScript[];
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
  /**
   * A folder to keep the built files in between runs (a server passes `<project>/.kit/cache`),
   * with the content hash of every source file that went into them: a restart whose sources are
   * unchanged reads them back instead of starting esbuild.
   */
  cacheDir?: string;
}

/** Where the client sources live: `client/` beside `src/` and `dist/` (same depth from both). */
export const READER_CLIENT_DIR = fileURLToPath(new URL('../../client/', import.meta.url));

/**
 * Fills the script's `kit:client-search` slot: a loader that imports the client search module on
 * first use (its own chunk, so pages of server-search sets never download it), or no loader.
 */
function clientSearchPlugin(option: BuildReaderAssetsOptions['clientSearch']): Esbuild.Plugin {
  return {
    name: 'kit-client-search',
    setup(build) {
      build.onResolve({ filter: /^kit:client-search$/ }, async () => {
        if (!option) return { path: 'none', namespace: 'kit-client-search' };
        const resolved = await build.resolve(option.module, {
          kind: 'dynamic-import',
          resolveDir: option.resolveDir ?? process.cwd(),
        });
        if (resolved.errors.length) {
          throw new KitError(
            'argument.invalid',
            `The client search module "${option.module}" could not be resolved from ${option.resolveDir ?? process.cwd()}. ` +
              'Install it, or pass clientSearch.resolveDir pointing at a folder that can import it.',
          );
        }
        return { path: resolved.path, namespace: 'kit-client-search' };
      });
      build.onLoad({ filter: /.*/, namespace: 'kit-client-search' }, (args) => ({
        contents:
          args.path === 'none'
            ? 'export const loadClientSearch = undefined;'
            : `export const loadClientSearch = () => import(${JSON.stringify(args.path)});`,
        resolveDir: READER_CLIENT_DIR,
        loader: 'js',
      }));
    },
  };
}

/**
 * The bundled Arabic font: Noto Sans Arabic (SIL Open Font License 1.1) from
 * `@fontsource-variable/noto-sans-arabic`, its Arabic subset as one variable woff2 (weights 100 to
 * 900). Its family name is Kit's own, so an installed "Noto Sans Arabic" of another version never
 * stands in for it; the theme's font stack names it right after the sans font (`theme.ts`).
 */
export const BUNDLED_ARABIC_FONT = {
  family: BUNDLED_ARABIC_FAMILY,
  module: '@fontsource-variable/noto-sans-arabic/files/noto-sans-arabic-arabic-wght-normal.woff2',
  // Arabic script blocks only. The font's own list also names joiners, marks and hyphens
  // (U+200C-200E, U+2010-2011) that Latin pages and emoji sequences use: they would fetch the
  // font for pages without a word of Arabic.
  unicodeRange:
    'U+0600-06FF, U+0750-077F, U+0870-088E, U+0890-0891, U+0897-08E1, U+08E3-08FF, U+FB50-FDFF, U+FE70-FE74, U+FE76-FEFC, U+10E60-10E7E, U+1EE00-1EEFF',
} as const;

async function bundledFonts(): Promise<{ fonts: ReaderFont[]; css: string; inputs: string[] }> {
  const file = createRequire(import.meta.url).resolve(BUNDLED_ARABIC_FONT.module);
  const body = new Uint8Array(await readFile(file));
  const name = `noto-sans-arabic.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.woff2`;
  // The URL is relative to the stylesheet, which is served from the same folder.
  const css =
    `@font-face{font-family:"${BUNDLED_ARABIC_FONT.family}";font-style:normal;font-weight:100 900;` +
    `font-display:swap;src:url(${name}) format("woff2");unicode-range:${BUNDLED_ARABIC_FONT.unicodeRange}}\n`;
  return { fonts: [{ name, body, contentType: FONT_TYPE }], css, inputs: [file] };
}

function hashName(base: string, ext: string, body: string): string {
  return `${base}.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.${ext}`;
}

/**
 * Builds the reader script and stylesheet, named by content hash so they can be served with
 * `Cache-Control: immutable`. The script is an ES module; what only some readers use (the client
 * search engine) is split into chunks it imports on first use.
 *
 * @example
 * const { js, css, chunks } = await buildReaderAssets({ clientSearch: { module: '@kit/search/client' } });
 * for (const file of [js, css, ...chunks]) app.get(`/_kit/${file.name}`, (c) => c.body(file.body, 200, { 'content-type': file.contentType }));
 */
export async function buildReaderAssets(options: BuildReaderAssetsOptions = {}): Promise<ReaderAssets> {
  return (await build(options)).assets;
}

/** Where esbuild would write the script's files: never written, but chunk imports are relative to it. */
const OUT_DIR = `${READER_CLIENT_DIR}.build`;

/** The build and the source files that went into it (absolute paths), for the cache. */
async function build(options: BuildReaderAssetsOptions): Promise<{ assets: ReaderAssets; inputs: string[] }> {
  const esbuild = await import('esbuild');
  const minify = options.minify ?? true;
  const entry = `${READER_CLIENT_DIR}index.ts`;
  if (!existsSync(entry)) {
    throw new KitError(
      'internal',
      `The reader client sources are missing at ${READER_CLIENT_DIR}. Reinstall @kit/render (its "client" folder ships with the package).`,
    );
  }
  const [script, style, bundled] = await Promise.all([
    esbuild.build({
      entryPoints: [{ in: entry, out: 'reader' }],
      bundle: true,
      write: false,
      format: 'esm',
      splitting: true,
      outdir: OUT_DIR,
      // The entry is renamed by content hash below; chunks keep esbuild's hash, which the entry's
      // imports name (so a changed chunk changes the entry, and with it the entry's name).
      chunkNames: 'reader-[hash]',
      platform: 'browser',
      target: ['chrome100', 'firefox100', 'safari15'],
      minify,
      legalComments: 'none',
      conditions: ['kit-source', 'browser', 'import', 'default'],
      logLevel: 'silent',
      metafile: true,
      plugins: [clientSearchPlugin(options.clientSearch)],
    }),
    esbuild.build({
      entryPoints: [`${READER_CLIENT_DIR}styles.css`],
      bundle: true,
      write: false,
      minify,
      target: ['chrome100', 'firefox100', 'safari15'],
      logLevel: 'silent',
      metafile: true,
    }),
    bundledFonts(),
  ]).catch((error: unknown) => {
    // esbuild wraps what a plugin throws; hand the caller the KitError with its fix.
    const detail = (error as { errors?: Array<{ detail?: unknown }> }).errors?.[0]?.detail;
    throw isKitError(detail) ? detail : error;
  });
  // Metafile paths are relative to esbuild's working folder, the process's current one.
  const sourceFiles = (paths: string[]) =>
    paths.filter((path) => !path.startsWith('kit-client-search:')).map((path) => resolve(path));
  const scripts: ReaderScript[] = [];
  let main: ReaderScript | undefined;
  for (const file of script.outputFiles) {
    const output = script.metafile.outputs[relative(process.cwd(), file.path).split(sep).join('/')];
    if (!output) continue; // a source map or another file esbuild reports no inputs for
    const built: ReaderScript = {
      name: basename(file.path),
      body: file.text,
      contentType: JS_TYPE,
      modules: sourceFiles(Object.keys(output.inputs)).sort(),
    };
    // A chunk loaded by import() counts as an entry point too: the page's script is the one named `reader`.
    if (built.name === 'reader.js') main = built;
    else scripts.push(built);
  }
  if (!main) throw new KitError('internal', 'esbuild produced no reader script entry; report this as a bug in Kit.');
  const css = bundled.css + style.outputFiles[0]!.text;
  const inputs = [
    ...sourceFiles([...Object.keys(script.metafile.inputs), ...Object.keys(style.metafile.inputs)]),
    ...bundled.inputs,
  ];
  return {
    assets: {
      js: { ...main, name: hashName('reader', 'js', main.body) },
      css: { name: hashName('reader', 'css', css), body: css, contentType: CSS_TYPE },
      chunks: scripts.sort((a, b) => a.name.localeCompare(b.name)),
      fonts: bundled.fonts,
    },
    inputs: [...new Set(inputs)].sort(),
  };
}

const JS_TYPE = 'text/javascript; charset=utf-8';
const CSS_TYPE = 'text/css; charset=utf-8';
const FONT_TYPE = 'font/woff2';
const ASSET_CACHE_VERSION = 3;

interface AssetCacheFile {
  version: number;
  esbuild: string;
  /** Every source file of the build, with the SHA-256 of its content. */
  inputs: Record<string, string>;
  js: { name: string; body: string; modules: string[] };
  css: { name: string; body: string };
  chunks: Array<{ name: string; body: string; modules: string[] }>;
  /** Font files, their bytes in base64. */
  fonts: Array<{ name: string; base64: string }>;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The installed esbuild's version, read from its package.json (no need to load esbuild itself). */
async function esbuildVersion(): Promise<string> {
  const file = createRequire(import.meta.url).resolve('esbuild/package.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

/** The cached build when every recorded source file still has the content it was built from. */
async function readCachedBuild(file: string): Promise<ReaderAssets | null> {
  try {
    const cached = JSON.parse(await readFile(file, 'utf8')) as AssetCacheFile;
    if (cached.version !== ASSET_CACHE_VERSION || cached.esbuild !== (await esbuildVersion())) return null;
    const entries = Object.entries(cached.inputs);
    if (entries.length === 0) return null;
    const current = await Promise.all(entries.map(([path]) => readFile(path).then(sha256)));
    if (entries.some(([, hash], index) => current[index] !== hash)) return null;
    return {
      js: { ...cached.js, contentType: JS_TYPE },
      css: { ...cached.css, contentType: CSS_TYPE },
      chunks: cached.chunks.map((chunk) => ({ ...chunk, contentType: JS_TYPE })),
      fonts: cached.fonts.map((font) => ({
        name: font.name,
        body: new Uint8Array(Buffer.from(font.base64, 'base64')),
        contentType: FONT_TYPE,
      })),
    };
  } catch {
    return null;
  }
}

async function writeCachedBuild(file: string, assets: ReaderAssets, inputs: string[]): Promise<void> {
  const hashes = await Promise.all(inputs.map((path) => readFile(path).then(sha256)));
  const record: AssetCacheFile = {
    version: ASSET_CACHE_VERSION,
    esbuild: await esbuildVersion(),
    inputs: Object.fromEntries(inputs.map((path, index) => [path, hashes[index]!])),
    js: { name: assets.js.name, body: assets.js.body, modules: assets.js.modules },
    css: { name: assets.css.name, body: assets.css.body },
    chunks: assets.chunks.map(({ name, body, modules }) => ({ name, body, modules })),
    fonts: assets.fonts.map(({ name, body }) => ({ name, base64: Buffer.from(body).toString('base64') })),
  };
  await writeFileAtomically(file, JSON.stringify(record));
}

/** The build, from `cacheDir` when its sources are unchanged, else built (and kept there). */
async function cachedBuild(options: BuildReaderAssetsOptions, key: string): Promise<ReaderAssets> {
  if (!options.cacheDir) return (await build(options)).assets;
  const file = join(options.cacheDir, 'reader-assets', `${sha256(`${READER_CLIENT_DIR}\0${key}`).slice(0, 24)}.json`);
  const cached = await readCachedBuild(file);
  if (cached) return cached;
  const { assets, inputs } = await build(options);
  // A cache that cannot be written only means building again next time.
  await writeCachedBuild(file, assets, inputs).catch(() => undefined);
  return assets;
}

const cache = new Map<string, Promise<ReaderAssets>>();

/**
 * The built reader assets, built once per process (per `clientSearch` choice) and cached; with
 * `cacheDir`, also kept on disk for the next run. The HTTP layer serves them and passes their URLs
 * to the layout.
 *
 * @example
 * const assets = await readerAssets({ cacheDir: '.kit/cache' });
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
    built = cachedBuild(options, key);
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
  const esbuild = await import('esbuild');
  const context = await esbuild.context({
    entryPoints: [
      { in: `${READER_CLIENT_DIR}index.ts`, out: 'reader' },
      { in: `${READER_CLIENT_DIR}styles.css`, out: 'reader' },
    ],
    bundle: true,
    outdir: `${READER_CLIENT_DIR}.dev`,
    write: false,
    format: 'esm',
    splitting: true,
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
