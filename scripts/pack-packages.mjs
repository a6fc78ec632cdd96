#!/usr/bin/env node
// Packs every @kit/* package into installable tarballs, for using Kit in another project before (or
// instead of) the npm registry: `pnpm pack:packages <folder>` builds the packages, writes one
// `.tgz` per package into <folder> (default ./kit-packages, from where the command was typed) and a
// `pnpm-overrides.json` that lets pnpm take the tarballs' dependencies on each other from the same
// folder. `pnpm pack` applies each package's publishConfig (exports pointing at dist/), exactly as
// publishing would.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const typedIn = process.env.INIT_CWD || process.cwd();
const destination = resolve(typedIn, process.argv[2] ?? 'kit-packages');
const pnpm = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
const run = (args, cwd) => {
  const [command, ...first] = pnpm;
  return execFileSync(command, [...first, ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
};

const packages = readdirSync(join(repoRoot, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(repoRoot, 'packages', entry.name))
  .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true);

// KIT_PACK_BUILT=1 says the packages were just built (the test suite builds before it runs): a
// second build would rewrite dist/ while other tests read it.
if (process.env.KIT_PACK_BUILT === '1' && packages.every(({ folder }) => existsSync(join(folder, 'dist')))) {
  process.stdout.write(`Packing ${packages.length} packages as built...\n`);
} else {
  process.stdout.write(`Building ${packages.length} packages...\n`);
  const filters = packages.map(({ manifest }) => `--filter=${manifest.name}`);
  run(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...filters], repoRoot);
}

mkdirSync(destination, { recursive: true });
const overrides = {};
for (const { folder, manifest } of packages) {
  const output = run(['pack', '--json', '--pack-destination', destination], folder);
  const packed = JSON.parse(output);
  const file = resolve(destination, packed.filename);
  overrides[manifest.name] = `file:${file}`;
  process.stdout.write(`packed   ${file}\n`);
}
writeFileSync(join(destination, 'pnpm-overrides.json'), `${JSON.stringify(overrides, null, 2)}\n`);
process.stdout.write(
  `\nIn your project:\n  npm install -D ${destination}/*.tgz\n  npx kit init\n` +
    `With pnpm, first: npm pkg set --json "pnpm.overrides=$(cat ${destination}/pnpm-overrides.json)"\n`,
);
