#!/usr/bin/env node
// Launcher of the `kit` command: runs the built CLI (build it with `pnpm --filter @kit/cli build`).
import '../dist/bin.js';
