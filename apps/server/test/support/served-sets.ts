import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { serve } from '@hono/node-server';
import { type KitConfigInput, resolveConfig } from '@kit/core';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import type { Browser } from 'playwright-core';

/** Chromium for the browser tests; they skip without it. */
export const chromiumPath = process.env.KIT_TEST_CHROMIUM;

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches the test Chromium headless. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
}

/** Doc sets written to a temporary folder, loaded as `kit serve` loads them and served on a loopback port. */
export interface ServedSets {
  kit: LoadedKit;
  origin: string;
  root: string;
  close(): Promise<void>;
}

/**
 * Writes `files` (paths relative to a new temporary folder) and serves `sets` from it with the
 * real HTTP app: the shape every browser test of a small set needs.
 */
export async function serveSets(
  name: string,
  files: Record<string, string>,
  sets: NonNullable<KitConfigInput['sets']>,
): Promise<ServedSets> {
  const root = mkdtempSync(join(tmpdir(), `kit-${name}-`));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
  const kit = await loadKit({ config: resolveConfig({ sets }, { env: {}, root }), git: false });
  const app = createKitApp({ kit, cacheDir: null });
  const { origin, close } = await new Promise<{ origin: string; close: () => Promise<void> }>((done) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      done({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      }),
    );
  });
  return {
    kit,
    origin,
    root,
    async close() {
      await close();
      await kit.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
