import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  contentHash,
  createRenderContext,
  createUrlLayout,
  normalizeManifest,
  type RenderContextInput,
  registerReferences,
  type SourcePage,
} from '@kit/core';
import { createNodeRenderer } from '@kit/render/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempProject, writeFiles } from '../__fixtures__/project.js';
import { createRenderPool } from './render-pool.js';

const context: RenderContextInput = {
  set: 'docs',
  config: { html_input: 'escape', snippets: { root: null } },
  sourceKind: 'repository',
  layout: createUrlLayout('docs', normalizeManifest({ name: 'Fixture' }, 'docs').manifest),
  version: 'current',
  locale: 'en',
  origin: 'https://docs.example.com',
  highlight: false,
};

const body = '# Events\n\n<Event name="OrderShipped" />\n';
const page: SourcePage = {
  path: 'events',
  version: 'current',
  locale: 'en',
  file: 'events.md',
  frontmatter: {},
  body,
  bodyLine: 1,
  contentHash: contentHash(body),
  title: 'Events',
  visibility: 'public',
  problems: [],
};

const event = (description: string) =>
  `{ name: 'events.OrderShipped', description: ${JSON.stringify(description)}, fields: [{ name: 'orderId', type: 'integer', required: true }] }`;

describe('render workers and the reference catalog', () => {
  let project: { dir: string; cleanup: () => Promise<void> };
  const coreFrom = pathToFileURL(join(repoRoot, 'packages/core/src/index.ts')).href;

  beforeAll(async () => {
    project = await tempProject('kit-pool-references-');
    await writeFiles(project.dir, {
      'kit.config.mjs': `import { registerReferences } from ${JSON.stringify(coreFrom)};
registerReferences({ events: [${event('Left the warehouse.')}] });
export default {};
`,
      'stale.config.mjs': `import { registerReferences } from ${JSON.stringify(coreFrom)};
registerReferences({ events: [${event('What an older build said.')}] });
export default {};
`,
    });
  });
  afterAll(async () => {
    await project?.cleanup();
  });

  it('has the workers load the references the config registers, with no component registered', async () => {
    // What loading that config did on this thread.
    registerReferences({
      events: [
        {
          name: 'events.OrderShipped',
          description: 'Left the warehouse.',
          fields: [{ name: 'orderId', type: 'integer', required: true }],
        },
      ],
    });
    const renderer = createNodeRenderer();
    const pool = createRenderPool({
      workers: 1,
      renderer,
      configFile: join(project.dir, 'kit.config.mjs'),
      startAt: 0,
    });
    try {
      const pooled = await pool.renderPage(page, context);
      expect(pooled.problems).toEqual([]);
      expect(pooled.markdown).toContain('Left the warehouse.');
      expect(pooled.markdown).toContain('| `orderId` | `integer` | yes |  |');
      expect(pooled).toEqual({ ...(await renderer.render(page, createRenderContext(context))), html: '' });
    } finally {
      await pool.close();
    }
  });

  it('renders on the calling thread when the workers would load another catalog', async () => {
    const renderer = createNodeRenderer();
    const pool = createRenderPool({
      workers: 1,
      renderer,
      configFile: join(project.dir, 'stale.config.mjs'),
      startAt: 0,
    });
    try {
      const pooled = await pool.renderPage(page, context);
      expect(pooled.markdown).toContain('Left the warehouse.');
      expect(pooled.markdown).not.toContain('older build');
    } finally {
      await pool.close();
    }
  });
});
