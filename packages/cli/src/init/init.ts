import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { readManifestDocument, serializeManifest } from '@kit/core';
import { manifestSchemaUrl, withManifestSchema } from '@kit/core/internal';
import { findConfigFile, loadConfig } from '@kit/core/node';
import { schemaOrigin } from '../origin.js';

export interface InitResult {
  /** Project-relative paths written. */
  created: string[];
  /** Project-relative paths that existed and were left alone. */
  kept: string[];
  /** Project-relative paths of existing manifests whose `$schema` was added or upgraded. */
  upgraded: string[];
}

export interface InitOptions {
  /** The service's base address for the manifest's `$schema`, from `--origin`. */
  origin?: string;
  /** Where `KIT_URL` is read when there is no `origin`. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Starts a Kit project in `cwd`: `kit.config.ts`, and in the default set's folder `kit.json`
 * (with `$schema`), `index.md` and `navigation.json`. Never overwrites a file: an existing config
 * is kept and read to find where the set lives. The one change made to an existing file is the
 * upgrade of an existing `kit.json`'s missing or outdated `$schema` (`withManifestSchema`);
 * nothing else in it changes. `$schema` is `{base_url}/schemas/3.x/kit.json`, the base address
 * being `options.origin`, else `KIT_URL`, else `kit serve`'s local address.
 *
 * @example
 * const { created, kept } = await initProject('/path/to/project', { origin: 'https://docs.example.com' });
 */
export async function initProject(cwd: string, options: InitOptions = {}): Promise<InitResult> {
  const root = resolve(cwd);
  const created: string[] = [];
  const kept: string[] = [];
  const upgraded: string[] = [];
  const write = async (path: string, text: string) => {
    const shown = relative(root, path) || path;
    if (existsSync(path)) {
      kept.push(shown);
      return;
    }
    await mkdir(dirname(path), { recursive: true });
    // `wx` refuses to replace a file that appeared since the check.
    try {
      await writeFile(path, text, { flag: 'wx' });
      created.push(shown);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      kept.push(shown);
    }
  };

  const existingConfig = findConfigFile(root);
  let docsFolder = join(root, 'docs');
  if (existingConfig) {
    kept.push(relative(root, existingConfig));
    const config = await loadConfig({ cwd: root });
    const set = config.sets[config.default] ?? Object.values(config.sets)[0];
    if (set && set.source.driver === 'repository') docsFolder = set.source.path;
  } else {
    await write(join(root, 'kit.config.ts'), CONFIG_TEMPLATE);
  }

  // Read after the config: loading it lets the project's .env fill KIT_URL.
  const schemaUrl = manifestSchemaUrl(schemaOrigin(options.origin, options.env ?? process.env));
  const manifestPath = join(docsFolder, 'kit.json');
  if (await upgradeSchema(manifestPath, schemaUrl)) upgraded.push(relative(root, manifestPath));
  const name = await projectName(root);
  await write(
    manifestPath,
    `${JSON.stringify(
      {
        $schema: schemaUrl,
        name,
        description: `Documentation for ${name}.`,
      },
      null,
      2,
    )}\n`,
  );
  await write(join(docsFolder, 'index.md'), indexPage(name, relative(root, docsFolder).split('\\').join('/') || '.'));
  await write(
    join(docsFolder, 'navigation.json'),
    `${JSON.stringify({ groups: [{ label: 'Getting Started', pages: ['index'] }] }, null, 2)}\n`,
  );
  // An upgraded manifest is reported once, as updated.
  return { created, kept: kept.filter((path) => !upgraded.includes(path)), upgraded };
}

/** A type-only import: the file loads even where `@kit/core` is not installed next to it. */
const CONFIG_TEMPLATE = `import type { KitConfigInput } from '@kit/core';

/**
 * Kit configuration. Every key is optional; see the configuration reference for defaults.
 * The docs set reads Markdown from ./docs and is served under /docs.
 */
export default {
  sets: {
    docs: {
      source: { driver: 'repository', path: 'docs' },
    },
  },
} satisfies KitConfigInput;
`;

/** The landing page; `folder` is the docs folder relative to the project root, as the reader edits it. */
function indexPage(name: string, folder: string): string {
  return `---
title: Introduction
description: What ${name} is and where to start.
---

# Introduction

Welcome to the ${name} documentation. Edit this page in \`${folder}/index.md\`, add pages next to it,
and list them in \`${folder}/navigation.json\`.

Run \`npx kit serve\` to read the docs in a browser and \`npx kit validate\` to check them.
`;
}

async function projectName(root: string): Promise<string> {
  try {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name?: unknown };
    if (typeof pkg.name === 'string' && pkg.name.trim() !== '') return pkg.name.replace(/^@[^/]+\//, '');
  } catch {
    // No package.json: the folder name will do.
  }
  return basename(root) || 'Docs';
}

/**
 * Adds or upgrades the `$schema` of an existing manifest in place, keeping every other key, its
 * order and value. A file that is not a JSON object is left for `kit validate` to report.
 */
async function upgradeSchema(path: string, schemaUrl: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const document = readManifestDocument(text);
  if (document.raw === null) return false;
  const next = withManifestSchema(document.raw, schemaUrl);
  if (next === document.raw) return false;
  const order = document.keyOrder.includes('$schema') ? document.keyOrder : ['$schema', ...document.keyOrder];
  await writeFile(path, serializeManifest(next, order));
  return true;
}
