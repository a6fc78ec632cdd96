// Writes apps/site/reference/cli.md from the command definitions: `pnpm --filter @kit/cli gen:docs`.
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext } from '../context.js';
import { processIo } from '../io.js';
import { createProgram } from '../program.js';
import { CLI_REFERENCE_PAGE, renderCliReference } from './reference.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const target = join(repoRoot, CLI_REFERENCE_PAGE);
await writeFile(target, renderCliReference(createProgram(createContext(processIo()))));
process.stdout.write(`wrote ${CLI_REFERENCE_PAGE}\n`);
