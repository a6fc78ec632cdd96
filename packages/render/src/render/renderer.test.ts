import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUrlLayout } from '@kit/core';
import { contextUrls } from '@kit/core/internal';
import { describe, expect, it } from 'vitest';
import { createComponentRegistry, escapeHtml } from '../components/registry.js';
import { createFsSnippetReader } from '../node/fs-snippet-reader.js';
import { laravelContext, pageFromText } from '../testing/laravel-corpus.js';
import { createRenderer } from './renderer.js';

const context = laravelContext('13.x');
const render = (body: string, overrides = {}, options = {}) =>
  createRenderer(options).render(pageFromText('guide/page', body), { ...context, ...overrides });

describe('links', () => {
  it('links a page of the default version under its one canonical URL, in the HTML and the twin', async () => {
    const layout = createUrlLayout('docs', {
      versioned: true,
      versions: ['13.x', '12.x'].map((id, index) => ({
        id,
        label: id,
        status: 'current' as const,
        default: index === 0,
        visibility: 'public' as const,
      })),
      locales: [{ code: 'en', label: 'English', dir: 'ltr' as const, default: true }],
      landing: 'installation',
    });
    const at = (version: string) => {
      const input = { layout, version, locale: 'en' };
      return { ...laravelContext(version), ...contextUrls(input), pageUrlInput: input };
    };
    const current = await render('[q](/docs/{{version}}/queues#retry) [r](routing.md)', at('13.x'));
    expect(current.html).toContain('href="/docs/queues#retry"');
    expect(current.html).toContain('href="/docs/guide/routing"');
    expect(current.markdown).toBe(
      '[q](https://docs.example.com/docs/queues#retry) [r](https://docs.example.com/docs/guide/routing)\n',
    );
    const older = await render('[q](/docs/{{version}}/queues#retry)', at('12.x'));
    expect(older.markdown).toBe('[q](https://docs.example.com/docs/12.x/queues#retry)\n');
  });

  it('joins a paragraph line that starts like a fence to the line before it in the twin only', async () => {
    const out = await render('Marks lines, as in\n```` ```js{2} ```` (no space).\n\n> Quoted\n> ```` ```a ```` too.\n');
    expect(out.markdown).toBe('Marks lines, as in ```` ```js{2} ```` (no space).\n\n> Quoted ```` ```a ```` too.\n');
    expect(out.markdown.split('\n').some((line) => /^(?:> )?(?:```|~~~)/.test(line))).toBe(false);
    expect(out.html).toContain('<code>```js{2}</code>');
  });

  it('replaces {{version}} and turns relative and .md links into site URLs of the same version', async () => {
    const out = await render('[a](/docs/{{version}}/routing#x) [b](other.md#y) [c](../top) [d](https://x.dev)');
    expect(out.html).toContain('href="/docs/13.x/routing#x"');
    expect(out.html).toContain('href="/docs/13.x/guide/other#y"');
    expect(out.html).toContain('href="/docs/13.x/top"');
    expect(out.html).toContain('href="https://x.dev"');
    expect(out.links).toEqual([
      { href: '/docs/{{version}}/routing#x', line: 1 },
      { href: 'other.md#y', line: 1 },
      { href: '../top', line: 1 },
      { href: 'https://x.dev', line: 1 },
    ]);
  });

  it('applies one link policy to the HTML and the agent Markdown twin: script autolinks and //host links link nowhere in either', async () => {
    const out = await render(
      'See <javascript:alert(1)> and <JaVaScRiPt:alert(2)> and [away](//evil.example/x) and [back](/\\evil.example) and <https://x.dev> and [call](tel:+15550100).',
    );
    for (const refused of ['javascript:', 'JaVaScRiPt:', '//evil.example', '/\\evil.example']) {
      expect(out.html).not.toContain(`href="${refused}`);
      // Still readable as text in the twin, but never as a link destination or an autolink.
      expect(out.markdown).not.toContain(`](${refused}`);
      expect(out.markdown).not.toMatch(new RegExp(`(^|[^\\\\])<${refused.replace(/[\\/]/g, '\\$&')}`, 'i'));
    }
    expect(out.markdown).toContain('\\<javascript:alert(1)\\>');
    expect(out.markdown).toContain('[away]()');
    expect(out.html).toContain('href="https://x.dev"');
    expect(out.markdown).toContain('<https://x.dev>');
    expect(out.html).toContain('href="tel:+15550100"');
  });

  it('serves site links written under route.link_prefix under the set prefix, in the HTML and the agent twin', async () => {
    const renderer = createRenderer();
    const page = pageFromText('guide/page', '[a](/docs/{{version}}/routing#x) [b](/docsets/y) [c](/blog)');
    const plain = laravelContext('13.x', { pageUrl: (path) => `/laravel/13.x/${path}` });
    const mounted = { ...plain, linkBase: { written: '/docs', served: '/laravel' } };
    const out = await renderer.render(page, mounted);
    expect(out.html).toContain('href="/laravel/13.x/routing#x"');
    expect(out.markdown).toContain('[a](https://docs.example.com/laravel/13.x/routing#x)');
    expect(out.html).toContain('href="/docsets/y"');
    expect(out.html).toContain('href="/blog"');
    // Validation reads the links as written; the same page without a link base is a render of its own.
    expect(out.links[0]).toEqual({ href: '/docs/{{version}}/routing#x', line: 1 });
    const asWritten = await renderer.render(page, plain);
    expect(asWritten.html).toContain('href="/docs/13.x/routing#x"');
  });

  it('links a page whose file name has a space once encoded, however the link writes the space', async () => {
    const encoding = {
      pageUrl: (path: string) => `/docs/13.x/${path.split('/').map(encodeURIComponent).join('/')}`,
    };
    const out = await render('[a](getting%20started.md) [b](<../first steps.md#x>) [c](100%.md)', encoding);
    expect(out.html).toContain('href="/docs/13.x/guide/getting%20started"');
    expect(out.html).toContain('href="/docs/13.x/first%20steps#x"');
    // Not valid percent-encoding: read as written.
    expect(out.html).toContain('href="/docs/13.x/guide/100%25"');
    expect(out.markdown).toContain('(https://docs.example.com/docs/13.x/guide/getting%20started)');
  });

  it('replaces {{version}} in image paths in the agent Markdown as in the HTML', async () => {
    const out = await render('![i](/img/{{version}}/a.png) ![j](shots/{{version}}.png "t")');
    expect(out.html).toBe(
      '<p><img src="/img/13.x/a.png" alt="i"> <img src="/docs/13.x/guide/shots/13.x.png" alt="j" title="t"></p>',
    );
    expect(out.markdown).toBe(
      '![i](https://docs.example.com/img/13.x/a.png) ![j](https://docs.example.com/docs/13.x/guide/shots/13.x.png "t")\n',
    );
  });

  it('points relative images and file links at the URLs the files are served at, absolute in the agent twin', async () => {
    const renderer = createRenderer();
    const body = '![Flow](./img/flow.png)\n\n[Guide](../downloads/guide%20v2.pdf?x=1#page=2) and [setup](./setup.md)\n';
    // A folder's index page is served at the folder's URL: a relative URL left as written would miss.
    const fileUrl = (path: string) => `/docs/13.x/${path.split('/').map(encodeURIComponent).join('/')}`;
    const out = await renderer.render(pageFromText('guides/index', body), { ...context, fileUrl });
    expect(out.html).toContain('<img src="/docs/13.x/guides/img/flow.png" alt="Flow">');
    expect(out.html).toContain('href="/docs/13.x/downloads/guide%20v2.pdf?x=1#page=2"');
    expect(out.html).toContain('href="/docs/13.x/guides/setup"');
    expect(out.markdown).toContain('![Flow](https://docs.example.com/docs/13.x/guides/img/flow.png)');
    expect(out.markdown).toContain('[Guide](https://docs.example.com/docs/13.x/downloads/guide%20v2.pdf?x=1#page=2)');
    expect(out.links).toContainEqual({ href: './img/flow.png', line: 1, image: true });
  });

  it('leaves external and data-less unsafe image sources as the link rules say', async () => {
    const out = await render('![a](https://cdn.example.com/a.png) ![b](javascript:alert(1))');
    expect(out.html).toContain('<img src="https://cdn.example.com/a.png" alt="a">');
    expect(out.html).not.toContain('javascript:');
  });

  it('writes absolute links on the origin into the agent Markdown', async () => {
    const out = await render('See [a](/docs/{{version}}/routing), [b](other.md) and [c](#here).\n\n[ref]: ./x.md');
    expect(out.markdown).toBe(
      'See [a](https://docs.example.com/docs/13.x/routing), [b](https://docs.example.com/docs/13.x/guide/other) and [c](https://docs.example.com/docs/13.x/guide/page#here).\n\n[ref]: https://docs.example.com/docs/13.x/guide/x\n',
    );
  });
});

describe('article HTML', () => {
  const body =
    '## Notes {#custom}\n\n> [!TIP]\n> See [the guide][guide] and a note[^1].\n\n[guide]: other.md\n[^1]: The note.';

  it('renders footnotes and reference links with the same heading ids and callouts as other pages', async () => {
    const out = await render(body);
    expect(out.html).toContain('<h2 id="custom">Notes</h2>');
    expect(out.html).toContain('<div class="callout callout-tip" data-callout="tip">');
    expect(out.html).toContain('<a href="/docs/13.x/guide/other">the guide</a>');
    expect(out.html).toContain('<section data-footnotes class="footnotes">');
  });

  it('writes the same HTML for a page with or without a footnote, apart from the footnote', async () => {
    const withNote = await render(body);
    const withoutNote = await render(body.replace('[^1]', '').replace('\n[^1]: The note.', ''));
    const article = (html: string) =>
      html.slice(0, html.indexOf('<section data-footnotes')).replace(/<sup>.*?<\/sup>/, '');
    expect(article(withNote.html)).toBe(`${withoutNote.html}\n`);
  });
});

describe('headings and anchors', () => {
  it('drops raw <a name> tags from the agent Markdown and keeps the anchor on the heading', async () => {
    const out = await render(
      '<a name="route-group-middleware"></a>\n### Middleware\n\nText <a name="inline"></a> here.',
    );
    expect(out.markdown).toBe('### Middleware {#route-group-middleware}\n\nText  here.\n');
    expect(out.html).toContain('<h3 id="route-group-middleware"><span id="middleware"></span>Middleware</h3>');
    expect(out.anchors).toEqual(['route-group-middleware', 'inline', 'middleware']);
  });

  it('uses {#id} as the heading id and lists H2 and H3 in the table of contents', async () => {
    const out = await render('# T\n\n## One {#first}\n\n### Two\n\n#### Three');
    expect(out.html).toContain('<h2 id="first">One</h2>');
    expect(out.toc).toEqual([
      { depth: 2, text: 'One', id: 'first' },
      { depth: 3, text: 'Two', id: 'two' },
    ]);
  });

  it('reads {.class} and {#id .class} heading attributes: id as anchor, classes in HTML, neither as text', async () => {
    const out = await render(
      '# T\n\n#### `all()` {.collection-method}\n\nAll.\n\n#### `after()` {.collection-method .first-collection-method}\n\n## Retry {#retry-helper .method}\n\nText.',
    );
    expect(out.html).toContain('<h4 id="all" class="collection-method"><code>all()</code></h4>');
    expect(out.html).toContain(
      '<h4 id="after" class="collection-method first-collection-method"><code>after()</code></h4>',
    );
    expect(out.html).toContain('<h2 id="retry-helper" class="method">Retry</h2>');
    expect(out.html).not.toContain('{.');
    expect(out.markdown).toContain('#### `all()`\n');
    expect(out.markdown).toContain('#### `after()`\n');
    expect(out.markdown).not.toContain('.collection-method');
    expect(out.markdown).toContain('## Retry {#retry-helper}\n');
    expect(out.markdown).not.toContain('.method');
    expect(out.anchors).toEqual(expect.arrayContaining(['all', 'after', 'retry-helper']));
    expect(out.toc).toEqual([{ depth: 2, text: 'Retry', id: 'retry-helper' }]);
  });

  it('numbers an automatic slug that an explicit id claims and reports a repeated explicit id', async () => {
    const out = await render('## Install {#setup}\n\n## Configure {#setup}\n\n## Setup\n\n## Setup');
    expect(out.toc.map((entry) => entry.id)).toEqual(['setup', 'setup', 'setup-1', 'setup-2']);
    expect(out.problems).toEqual([
      expect.objectContaining({ rule: 'anchors.duplicate', severity: 'warning', line: 3, file: '13.x/guide/page.md' }),
    ]);
    expect(out.problems[0]?.message).toContain('"setup"');
    // Agents reading the twin would slug `## Setup` as `setup`; the twin pins the id the site uses.
    expect(out.markdown).toContain('## Setup {#setup-1}\n\n## Setup {#setup-2}\n');
  });

  it('steps around an explicit id written after the heading that would take it', async () => {
    const out = await render('## Setup\n\n## Install {#setup}');
    expect(out.toc.map((entry) => entry.id)).toEqual(['setup-1', 'setup']);
    expect(out.problems).toEqual([]);
  });
});

describe('callouts', () => {
  it('renders > [!WARNING] as a callout and leaves the agent Markdown as written', async () => {
    const body = '> [!WARNING]\n> Mind the **gap**.';
    const out = await render(body);
    expect(out.html).toBe(
      '<div class="callout callout-warning" data-callout="warning">\n<p class="callout-title">Warning</p>\n<p>Mind the <strong>gap</strong>.</p>\n</div>',
    );
    expect(out.markdown).toBe(`${body}\n`);
    expect(out.sections[0]?.text).toBe('Mind the gap.');
  });
});

describe('code', () => {
  it('highlights code with shiki unless highlight is false', async () => {
    const body = '```php\necho 1;\n```';
    expect((await render(body, { highlight: true })).html).toContain('class="shiki');
    expect((await render(body)).html).toBe(
      '<div class="kit-code"><span class="kit-code-lang">php</span><pre><code class="language-php">echo 1;\n</code></pre></div>',
    );
  });

  it('marks the lines a fence names ({2,4-5}, VitePress style) and keeps highlighting for ```js{2}', async () => {
    const spaced = await render('```js {2}\nconst a = 1;\nconst b = 2;\n```', { highlight: true });
    expect(spaced.html).toContain('class="shiki');
    expect(spaced.html.match(/class="line( highlighted)?"/g)).toEqual(['class="line"', 'class="line highlighted"']);
    const joined = await render('```js{1}\nconst a = 1;\n```', { highlight: true });
    expect(joined.html).toContain('class="shiki');
    expect(joined.html).toContain('class="line highlighted"');
    expect(joined.markdown).toBe('```js{1}\nconst a = 1;\n```\n');
    expect((await render('```js{1}\nx\n```')).html).toBe(
      '<div class="kit-code"><span class="kit-code-lang">js</span><pre><code class="language-js">x\n</code></pre></div>',
    );
  });

  it('renders a language shiki does not know as a plain block', async () => {
    const out = await render('```no-such-language\nx\n```', { highlight: true });
    expect(out.html).toBe(
      '<div class="kit-code"><span class="kit-code-lang">no-such-language</span><pre><code class="language-no-such-language">x\n</code></pre></div>',
    );
  });

  it('shows a file title as the caption of a figure around the block, highlighted or not, sanitized or not', async () => {
    const body = '```php title="routes/web.php" {1}\necho 1;\n```';
    const caption =
      '<figure class="kit-code-figure"><figcaption class="kit-code-title"><span dir="ltr">routes/web.php</span></figcaption><div class="kit-code"><span class="kit-code-lang">php</span>';
    for (const overrides of [{ highlight: true }, { highlight: true, sanitize: true }]) {
      const out = await render(body, overrides);
      expect(out.html.startsWith(caption), JSON.stringify(overrides)).toBe(true);
      expect(out.html).toContain('class="line highlighted"');
      expect(out.html.endsWith('</pre></div></figure>')).toBe(true);
      // The twin keeps the fence as written: agents read the file name in its info string.
      expect(out.markdown).toBe(`${body}\n`);
    }
    expect((await render("```title='notes.txt'\nplain\n```")).html).toBe(
      '<figure class="kit-code-figure"><figcaption class="kit-code-title"><span dir="ltr">notes.txt</span></figcaption><div class="kit-code"><pre><code>plain\n</code></pre></div></figure>',
    );
    // No label for plain text, which says nothing about the block.
    expect((await render('```text\nx\n```')).html).not.toContain('kit-code-lang');
  });
});

describe('components', () => {
  const components = createComponentRegistry();
  components.register('Badge', {
    html: (props) => `<span class="badge">${escapeHtml(String(props.text))}</span>`,
    markdown: (props) => `**${props.text}**`,
  });
  components.register('Panel', {
    html: (props, context) =>
      `<section class="panel" title="${escapeHtml(String(props.title))}">${context.children}</section>`,
    markdown: (props, context) => `**${props.title}**\n\n${context.children}`,
  });

  it('renders registered components to HTML and to agent Markdown', async () => {
    const out = await render(
      'Use <Badge text="new" /> now.\n\n<Panel title="Tip">\n\nSee [x](x.md).\n\n</Panel>',
      {},
      { components },
    );
    expect(out.html).toBe(
      '<p>Use <span class="badge">new</span> now.</p>\n<section class="panel" title="Tip"><p>See <a href="/docs/13.x/guide/x">x</a>.</p></section>',
    );
    expect(out.markdown).toBe('Use **new** now.\n\n**Tip**\n\nSee [x](https://docs.example.com/docs/13.x/guide/x).\n');
    expect(out.problems).toEqual([]);
  });

  it('reports unknown PascalCase components as components.unknown', async () => {
    const out = await render('Text\n\n<Missing a="1" />', {}, { components });
    expect(out.problems).toMatchObject([{ rule: 'components.unknown', line: 3, file: '13.x/guide/page.md' }]);
    expect(out.html).toContain('&lt;Missing a=&quot;1&quot; /&gt;');
  });

  it('resolves links and {{version}} in the agent twin of a paired component written without blank lines', async () => {
    const out = await render('<Panel title="T">\nSee [r](routing.md) and {{version}}.\n</Panel>', {}, { components });
    expect(out.html).toBe(
      '<section class="panel" title="T"><p>See <a href="/docs/13.x/guide/routing">r</a> and 13.x.</p></section>',
    );
    expect(out.markdown).toBe('**T**\n\nSee [r](https://docs.example.com/docs/13.x/guide/routing) and 13.x.\n');
  });

  it('keeps a component in a list item inside the item in the agent twin', async () => {
    const out = await render(
      '- item\n\n  <Panel title="T">\n  See [r](routing.md).\n  {{version}}\n  </Panel>\n- next',
      {},
      { components },
    );
    expect(out.markdown).toBe(
      '- item\n\n  **T**\n\n  See [r](https://docs.example.com/docs/13.x/guide/routing).\n  13.x\n- next\n',
    );
  });

  it('renders a component whose quoted attribute holds > or />', async () => {
    const block = await render('<Badge text="a > b" />', {}, { components });
    expect(block.html).toBe('<span class="badge">a &gt; b</span>');
    expect(block.markdown).toBe('**a > b**\n');
    const inline = await render('New <Badge text="x /> y" /> here', {}, { components });
    expect(inline.html).toBe('<p>New <span class="badge">x /&gt; y</span> here</p>');
    const paired = await render('<Panel title="Use -> arrows">\n\nbody\n\n</Panel>', {}, { components });
    expect(paired.html).toBe('<section class="panel" title="Use -&gt; arrows"><p>body</p></section>');
    expect([block, inline, paired].flatMap((out) => out.problems)).toEqual([]);
  });

  it('reports a registered component whose tag is never closed as components.invalid', async () => {
    const out = await render('Intro\n\n<Panel title="x">\n\nNo close', {}, { components });
    expect(out.problems).toMatchObject([{ rule: 'components.invalid', severity: 'warning', line: 3 }]);
    expect(out.problems[0]?.fix).toContain('</Panel>');
  });

  it('renders a page again once the component it names is registered or replaced, though its render was cached', async () => {
    const registry = createComponentRegistry();
    const renderer = createRenderer({ components: registry });
    const page = pageFromText('guide/page', 'Intro\n\n<Zed />');
    const before = await renderer.render(page, context);
    expect(before.problems).toMatchObject([{ rule: 'components.unknown' }]);
    registry.register('Zed', { html: () => '<b>zed</b>', markdown: () => 'zed' });
    const after = await renderer.render(page, context);
    expect(after.html).toBe('<p>Intro</p>\n<b>zed</b>');
    expect(after.problems).toEqual([]);
    registry.register('Zed', { html: () => '<i>zed 2</i>', markdown: () => 'zed 2' });
    expect((await renderer.render(page, context)).markdown).toBe('Intro\n\nzed 2\n');
  });

  it('refuses a component name that is not PascalCase', () => {
    expect(() => components.register('badge', { html: () => '', markdown: () => '' })).toThrow(/PascalCase/);
  });
});

describe('snippet includes', () => {
  const root = mkdtempSync(join(tmpdir(), 'kit-snippets-'));
  const docs = join(root, 'docs');
  mkdirSync(join(docs, 'src'), { recursive: true });
  mkdirSync(join(docs, 'config'), { recursive: true });
  mkdirSync(join(root, 'docs-secret'), { recursive: true });
  writeFileSync(join(docs, 'src', 'app.ts'), 'line1\n// #region setup\nconst a = 1;\n// #endregion\nline5\n');
  writeFileSync(join(docs, 'config', 'app.php'), '<?php TOPSECRET');
  writeFileSync(join(docs, '.env'), 'APP_KEY=TOPSECRET');
  writeFileSync(join(docs, 'server.key'), 'TOPSECRET');
  for (const name of [
    'kit.config.ts',
    'server.key.bak',
    'id_rsa.old',
    'env.production',
    'service-account.json',
    'htpasswd',
  ]) {
    writeFileSync(join(docs, name), 'TOPSECRET');
  }
  mkdirSync(join(docs, 'sub'), { recursive: true });
  writeFileSync(join(docs, 'sub', 'aws_credentials'), 'TOPSECRET');
  writeFileSync(join(root, 'outside.txt'), 'TOPSECRET');
  writeFileSync(join(root, 'docs-secret', 'x.txt'), 'TOPSECRET');
  symlinkSync(join(root, 'outside.txt'), join(docs, 'link.txt'));
  const snippets = createFsSnippetReader();
  const include = (line: string) => render(line, { snippetsRoot: docs }, { snippets });

  it('includes a whole file, a line range and a region as fenced code', async () => {
    expect((await include('<<< @/src/app.ts')).markdown).toContain('```ts\nline1\nconst a = 1;\nline5\n```');
    expect((await include('<<< @/src/app.ts#L1-L1')).markdown).toBe('```ts\nline1\n```\n');
    const region = await include('<<< @/src/app.ts#setup{js}');
    expect(region.markdown).toBe('```js\nconst a = 1;\n```\n');
    expect(region.html).toBe(
      '<div class="kit-code"><span class="kit-code-lang">js</span><pre><code class="language-js">const a = 1;\n</code></pre></div>',
    );
  });

  it.each([
    '<<< @/../outside.txt',
    '<<< @/src/../../outside.txt',
    '<<< @/../docs-secret/x.txt',
    '<<< @/link.txt',
    '<<< @/.env',
    '<<< @/config/app.php',
    '<<< @/server.key',
    '<<< @/kit.config.ts',
    '<<< @/server.key.bak',
    '<<< @/id_rsa.old',
    '<<< @/env.production',
    '<<< @/service-account.json',
    '<<< @/htpasswd',
    '<<< @/sub/aws_credentials',
    '<<< @/vendor/autoload.php',
    '<<< @/node_modules/x/index.js',
    '<<< @/storage/logs/laravel.log',
    '<<< @/missing.ts',
  ])('refuses %s with the one uniform problem', async (line) => {
    const out = await include(line);
    expect(out.problems).toHaveLength(1);
    expect(out.problems[0]?.rule).toBe('snippets.missing');
    expect(out.problems[0]?.message).toMatch(/cannot be included: no such readable file inside snippets\.root/);
    expect(out.html + out.markdown).not.toContain('TOPSECRET');
  });

  it('indents an include inside a list item so the agent twin keeps the list', async () => {
    const out = await include('- item\n\n  <<< @/src/app.ts#setup\n\n- next item\n\nAfter list.');
    expect(out.markdown).toBe('- item\n\n  ```ts\n  const a = 1;\n  ```\n\n- next item\n\nAfter list.\n');
    const again = await render(out.markdown);
    expect(again.html).toContain(
      '<li>\n<p>item</p>\n<div class="kit-code"><span class="kit-code-lang">ts</span><pre><code class="language-ts">const a = 1;\n</code></pre></div>\n</li>',
    );
    expect(again.html).toContain('<p>After list.</p>');
  });

  it('includes a file when a text line follows the include without a blank line', async () => {
    const out = await include('Intro\n\n<<< @/src/app.ts#setup\nExplained in {{version}}, see [x](x.md).');
    expect(out.problems).toEqual([]);
    expect(out.html).toBe(
      '<p>Intro</p>\n<div class="kit-code"><span class="kit-code-lang">ts</span><pre><code class="language-ts">const a = 1;\n</code></pre></div>\n<p>Explained in 13.x, see <a href="/docs/13.x/guide/x">x</a>.</p>',
    );
    expect(out.markdown).toBe(
      'Intro\n\n```ts\nconst a = 1;\n```\nExplained in 13.x, see [x](https://docs.example.com/docs/13.x/guide/x).\n',
    );
  });

  it('reports an include line that continues a paragraph instead of leaving it as silent text', async () => {
    const out = await include('Some text\n<<< @/src/app.ts#setup');
    expect(out.problems).toMatchObject([
      { rule: 'snippets.missing', line: 2, fix: 'Put a blank line before the <<< line.' },
    ]);
  });

  it('includes nothing when the set has no snippets.root', async () => {
    const out = await render('<<< @/src/app.ts', { snippetsRoot: null }, { snippets });
    expect(out.problems[0]).toMatchObject({ rule: 'snippets.missing' });
  });
});

describe('the render cache', () => {
  it('renders an unchanged page once and a changed page again', async () => {
    let calls = 0;
    const components = createComponentRegistry();
    components.register('Count', { html: () => `<b>${++calls}</b>`, markdown: () => '' });
    const renderer = createRenderer({ components });
    const first = await renderer.render(pageFromText('p', '<Count />'), context);
    const again = await renderer.render(pageFromText('p', '<Count />'), context);
    expect(again).toBe(first);
    await renderer.render(pageFromText('p', '<Count />\n'), context);
    expect(calls).toBe(2);
  });
});

describe('anchors of raw HTML', () => {
  const body =
    '# Esc anchors\n\nA paragraph <a id="inline-spot"></a> here.\n\n<a name="block-spot"></a>\n\nSome text.\n\n[one](#inline-spot) [two](#block-spot)\n';

  it('counts <a id> and <a name> tags as anchors only where raw HTML reaches the page', async () => {
    const escaped = await render(body, { htmlInput: 'escape' });
    expect(escaped.anchors).not.toContain('inline-spot');
    expect(escaped.anchors).not.toContain('block-spot');
    const allowed = await render(body, { htmlInput: 'allow' });
    expect(allowed.anchors).toEqual(expect.arrayContaining(['inline-spot', 'block-spot']));
  });
});
