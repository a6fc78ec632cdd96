import { readFileSync } from 'node:fs';

/**
 * The version printed by `kit --version` and `kit -v`: the installed `@kit/cli` package's own
 * (`package.json` sits one folder above both `src/` and `dist/`). Its own module, so commands can
 * name the version without importing the program that registers them.
 */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
