#!/usr/bin/env node
// Launcher of the `kit` command. An installed package runs its built `dist/`. Inside Kit's own
// repository before a build there is no `dist/`: the TypeScript sources run instead, through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { runFromSource } = await import('./from-source.js');
  runFromSource(process.cwd());
}
