import { type Command, InvalidArgumentError } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { addNotes } from '../notes.js';

export function registerValidate(program: Command, context: CommandContext): void {
  const command = program
    .command('validate')
    .description(
      'Check the docs: manifest, navigation and frontmatter schemas, config keys that have no effect, broken links and anchors, redirects, assets, components, snippets, Markdown size and the search index budget. Exits 1 when any error is found.',
    )
    .option('--json', 'print the report as JSON (schemas/validate.json), as the validate_docs tool returns it')
    .option(
      '--version <id>',
      'check only this version (default: every version); without --set, every set that has this version',
    )
    .option('--no-cache', 'render every page again instead of reusing renders kept in .kit/cache/validate')
    .option(
      '--jobs <n>',
      'render pages on n worker threads (default: the number of CPU cores; 1 renders on the main thread)',
      parseJobs,
    );
  addNotes(
    command,
    `Rules (each issue carries its rule id and, where Kit knows one, a fix):

| Rule | Severity | What it finds |
| --- | --- | --- |
| manifest.schema | error / warning | kit.json is not valid JSON or breaks the schema (errors); no manifest, or a top-level key within two edits of a known key (warnings, with the rename) |
| manifest.integrations | warning | a database set whose manifest has integrations (read from configuration only) |
| config.ignored | warning | a key in kit.config.ts that has no effect where it is written (a set's \`ai.ask.rate_limit\`, \`mcp.web.author_tools\` on a repository set, \`html_input: 'allow'\` on a database set) |
| ai.ask.setup | warning | a set with \`ai.ask.enabled\` on where Ask AI cannot answer: the optional package @kit/ai is not installed (so \`ai.ask\` has no effect; the fix names the install command), a provider package the failover order needs is missing, \`ai.ask.provider\` names an unknown provider, or a provider has no model to default to |
| source.read | error | the set folder, or a folder, page, navigation or skill file in it, cannot be read (named with the cause, such as EACCES; too many open files is tried again for seconds first): no page is checked until every file can be read, since a page the source cannot read would look missing |
| source.missing_folder | warning | a version the manifest declares has no folder, so it has no pages |
| locales.missing | warning | a locale the manifest declares that a version has no pages in (its folder, such as \`1.x/ar/\`, is missing or empty; in a database set, no page of that version and locale): readers of that locale who switch to the version land on its default-locale pages; the fix names the folder to create (ignore it for a version that is not translated) |
| source.symlink | warning | a symbolic link leading outside the set folder (or nowhere), ignored |
| source.page_path | warning | a Markdown file whose path breaks the page-path rule (a line break, a bidi control, an invisible character, a segment over 200 bytes, ...), not read as a page; in a database set, a page stored under such a path before the rule (move or delete it) |
| assets.missing | error | a stylesheet named in assets.css, the logo or favicon, or an image or file a page links does not exist |
| links.unsafe | error | a navbar, footer, repository or page link that is not http, https, mailto, tel, irc, ircs, xmpp or a site path, or is protocol-relative (\`//host\`) (a Markdown link is left out of the page; an \`<a href>\` tag is served as written under \`html_input: 'allow'\`, so readers get the live link until it is fixed) |
| links.broken | error | a link to a page that does not exist (\`{{version}}\` links, relative and \`.md\` links and \`/docs/{{version}}/x#anchor\` shapes understood; redirects count), also under another set's prefix on the same domain (that set must serve the path) and a \`{{version}}\` link under no set's prefix; a link under the set's \`route.link_prefix\` is read as the set's own (a raw \`<a href>\` tag, served as written, is checked as written) |
| links.anchor | warning | a link to an anchor the page does not have (headings, \`{#id}\` and \`<a name>\` anchors count) |
| redirects.loop | error | redirects that lead back to where they started |
| redirects.shadowed | warning | a redirect that never runs because a page lives at its from |
| mcp.path_page | warning | a page of the default version and locale at \`mcp.web.path\` while the web MCP endpoint is on: browsers (Accept naming text/html) and Markdown requests still get the page, every other GET there gets the endpoint's 405 (move the page or set another \`mcp.web.path\`) |
| navigation.schema | error | navigation.json breaks the navigation schema |
| navigation.missing_page | error | a navigation entry without a page |
| navigation.orphan | warning | a page in no navigation group (the landing page excepted) |
| frontmatter.schema | error | frontmatter that is not valid YAML (aliases expanding past 100 included) or breaks the frontmatter schema (\`title\` and \`description\` text, \`sources\` a path or list of paths, \`inserts\` true, false or a map of insert points) |
| components.unknown | warning | a PascalCase component nobody registered, on a page or in the manifest's \`inserts\` (reported on kit.json) |
| components.invalid | warning | a registered component that cannot be rendered: an opening tag never closed, or a closing tag without an opening tag in the same block |
| references.unknown | warning | a \`<Route>\`, \`<Model>\` or \`<Event>\` naming a route, table or event type the application did not hand Kit (\`registerReferences\` in kit.config.ts), or a tag with no name or path; the fix names the nearest known ones (the page shows a notice in its place) |
| references.denied | warning | a \`<Route>\` or \`<Model>\` naming a route or table that \`references.routes.allow\` or \`references.models.allow\` keeps out (with \`routes.allow: null\`, routes registered by packages other than Kit) |
| html.filtered | warning | raw HTML (under \`html_input: 'allow'\`) holding an element GitHub's tagfilter names (style, script, iframe, title, textarea, xmp, noembed, noframes, plaintext): left out of the page with its content |
| snippets.missing | warning | a snippet include (\`<<< @/path\`) that cannot be read |
| anchors.duplicate | warning | two headings on a page with the same id (a repeated \`{#id}\` or \`<a name>\`) |
| markdown.size | warning | a page whose agent Markdown exceeds agents.markdown_budget (50000 characters by default), named with its size: agents get it in parts (\`read_page\` with \`max_chars\`/\`cursor\`, the twin's \`?cursor=\`), the whole twin stays one long file |
| markdown.complexity | warning | a page past a complexity limit (nesting, delimiters, brackets, footnotes, table cells, references, tags, autolinks, headings, lines or size: see the Markdown guide), shown as its text under a notice naming the construct |
| search.budget | warning | a client search index larger than search.budget_kb gzipped |

Exit codes: 0 no errors (warnings allowed); 1 at least one error, or the check could not run.

What is kept between runs: what validation reads of each render (links, anchors, sections, agent Markdown, problems; no HTML) in \`.kit/cache/validate\`, keyed by the page's content hash, its render context and the renderer's code and components, so a second run renders only the pages that changed (pages with snippet includes are always rendered), plus the measured size of each browser search index. \`--no-cache\` neither reads nor writes it; deleting \`.kit/cache\` is always safe. The servers (\`kit serve\`, \`kit mcp\`, the reference server) keep their renders and search sections in \`.kit/cache/store\` instead, and their built search indexes in \`.kit/cache/search\`.

After an author tool's change (\`kit mcp\`, the web MCP endpoint) the same checks run on what the change can affect: \`write_page\` checks the written page (its frontmatter, render, size, the links out of it and the anchors they point at) with the manifest, redirects and navigation; \`update_navigation\` and \`update_manifest\` check no page; \`move_page\` and \`delete_page\` check the whole version, since any page may link to the old path. The issues returned are the ones a full \`kit validate\` reports about the change.`,
  );
  command.action(
    async (options: { json?: boolean; version?: string; cache: boolean; jobs?: number }, command: Command) => {
      const globals = context.globals(command);
      const kit = await context.loadKit(command, { git: false });
      const { formatReport, validateKit } = await import('../validate/validate.js');
      const { createRenderPool, renderDeadlineFromEnv } = await import('@kit/node');
      const pool = createRenderPool({
        renderer: kit.renderer,
        configFile: kit.config.file,
        // The servers' deadline: on a machine too busy to render a long page in time, 0 turns it off.
        deadlineMs: renderDeadlineFromEnv(context.io.env),
        // One job renders on the calling thread; more start that many workers.
        ...(options.jobs !== undefined ? { workers: options.jobs === 1 ? 0 : options.jobs } : {}),
      });
      try {
        const { cachedRenderer, validateCacheDir } = await import('../validate/render-cache.js');
        const cacheDir = validateCacheDir(kit.config.root);
        const renderer = options.cache ? cachedRenderer(pool, cacheDir, { renderer: kit.renderer }) : pool;
        const report = await validateKit(kit, {
          renderer,
          ...(options.cache ? { cacheDir } : {}),
          ...(globals.set !== undefined ? { set: globals.set } : {}),
          ...(options.version !== undefined ? { version: options.version } : {}),
          configWarnings: true,
        });
        if (options.json) writeLine(context.io.stdout, JSON.stringify(report, null, 2));
        else context.io.stdout.write(formatReport(report, { color: isColorful(context) }));
        context.exitCode = report.ok ? 0 : 1;
      } finally {
        await pool.close();
        await kit.close();
      }
    },
  );
}

function parseJobs(value: string): number {
  const jobs = Number(value);
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new InvalidArgumentError('give a whole number of threads, 1 or more (1 renders on the main thread).');
  }
  return jobs;
}

function isColorful(context: CommandContext): boolean {
  const stream = context.io.stdout as { isTTY?: boolean };
  return stream.isTTY === true && context.io.env.NO_COLOR === undefined;
}
