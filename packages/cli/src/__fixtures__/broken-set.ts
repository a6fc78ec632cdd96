/**
 * A project whose docs break every rule `kit validate` checks on a repository set, once each, next to
 * links that must pass (`{{version}}` links, `<a name>` anchors, `.md` twins, relative links).
 */
export const BROKEN_SET_RULES = [
  'assets.missing',
  'components.unknown',
  'frontmatter.schema',
  'links.anchor',
  'links.broken',
  'links.unsafe',
  'manifest.schema',
  'markdown.size',
  'navigation.missing_page',
  'navigation.orphan',
  'navigation.schema',
  'redirects.loop',
  'redirects.shadowed',
  'search.budget',
  'snippets.missing',
];

// Distinct words make a browser index that does not compress below 1 KB.
const manyWords = Array.from({ length: 900 }, (_, index) => `term${(index * 7919).toString(36)}x${index}`).join(' ');

export const brokenSetFiles: Record<string, string> = {
  'kit.config.mjs': `export default {
  sets: { docs: { html_input: 'allow', search: { budget_kb: 1 }, agents: { markdown_budget: 4000 } } },
};
`,
  'docs/kit.json': `${JSON.stringify(
    {
      $schema: 'https://kit.dev/schemas/3.x/kit.json',
      name: 'Fixture',
      descripton: 'A misspelled key.',
      theme: { radius: 'round' },
      versions: ['2.x', '1.x'],
      assets: { css: ['missing.css'] },
      navbar: { links: [{ label: 'Bad', href: 'javascript:alert(1)' }] },
      redirects: [
        { from: '/docs/loop-a', to: '/docs/loop-b' },
        { from: '/docs/loop-b', to: '/docs/loop-a' },
        { from: '/docs/guide', to: '/docs/index' },
      ],
    },
    null,
    2,
  )}\n`,
  'docs/2.x/navigation.json': `${JSON.stringify(
    {
      groups: [
        { label: 'Start', pages: ['index', 'guide', 'components', 'bad-frontmatter', 'big', 'ghost'] },
        { label: 'Broken', pages: [{ path: 'guide', title: 7 }] },
      ],
    },
    null,
    2,
  )}\n`,
  'docs/2.x/index.md': `---
title: Home
description: The landing page.
---

# Home

Read the [guide](/docs/{{version}}/guide#setup-steps), its [twin](/docs/2.x/guide.md), the
[old guide](/docs/1.x/guide) and the [setup](./guide.md#setup).

This link is [broken](./nowhere.md) and this anchor is [missing](./guide.md#no-such-anchor).
`,
  'docs/2.x/guide.md': `---
title: Guide
---

# Guide

<a name="setup-steps"></a>
## Setup

<<< @/snippets/missing.ts
`,
  'docs/2.x/components.md': `---
title: Components
---

# Components

<Bogus />
`,
  'docs/2.x/bad-frontmatter.md': `---
title: [1, 2]
---

# Bad frontmatter
`,
  'docs/2.x/big.md': `---
title: Big
---

# Big

${manyWords}
`,
  'docs/2.x/lonely.md': `---
title: Lonely
---

# Lonely
`,
  'docs/1.x/navigation.json': `${JSON.stringify({ groups: [{ label: 'Start', pages: ['index', 'guide'] }] }, null, 2)}\n`,
  'docs/1.x/index.md': '---\ntitle: Home\n---\n\n# Home\n\nSee the [guide](/docs/{{version}}/guide).\n',
  'docs/1.x/guide.md': '---\ntitle: Guide\n---\n\n# Guide\n',
};
