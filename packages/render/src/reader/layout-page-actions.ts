import { escapeHtml } from './html.js';
import { icon } from './icons.js';
import { type LayoutContext, ui } from './layout-context.js';
import type { ReaderPageActions } from './types.js';

const ASSISTANTS = {
  chatgpt: {
    label: 'ChatGPT',
    url: (prompt: string) => `https://chatgpt.com/?hints=search&q=${encodeURIComponent(prompt)}`,
  },
  claude: { label: 'Claude', url: (prompt: string) => `https://claude.ai/new?q=${encodeURIComponent(prompt)}` },
} as const;

/** Cursor's install link: the server's mcp.json entry, base64 JSON (cursor.com/docs/mcp/install-links). */
function cursorInstallUrl(mcp: { name: string; url: string }): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ url: mcp.url }));
  const config = btoa(String.fromCharCode(...bytes));
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(mcp.name)}&config=${encodeURIComponent(config)}`;
}

/** VS Code's install link: the server definition as URL-encoded JSON. */
function vscodeInstallUrl(mcp: { name: string; url: string }): string {
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: mcp.name, type: 'http', url: mcp.url }))}`;
}

function actionItem(href: string, label: string, hint: string, external: boolean): string {
  const target = external ? ' target="_blank" rel="noopener noreferrer"' : '';
  return (
    `<li><a href="${escapeHtml(href)}"${target}><span class="kit-action-label">${label}${external ? icon('external', { size: 12 }) : ''}</span>` +
    `<span class="kit-action-hint">${hint}</span></a></li>`
  );
}

/**
 * The page actions beside the title: "Copy page" (a button the script shows and wires; it copies
 * the Markdown twin) and a `<details>` menu of links, so everything but copying works without
 * JavaScript: the Markdown twin, chat assistants given a prompt that points at it, and install
 * links for editors to the set's MCP endpoint.
 */
export function pageActions(ctx: LayoutContext, actions: ReaderPageActions | undefined): string {
  if (!actions) return '';
  const { t } = ctx;
  const items: string[] = [];
  if (actions.markdown)
    items.push(actionItem(actions.markdownUrl, ui(ctx, 'viewMarkdown'), ui(ctx, 'viewMarkdownHint'), false));
  for (const name of actions.assistants) {
    const assistant = ASSISTANTS[name];
    const prompt = t.assistantPrompt.replace('{url}', actions.markdownUrl);
    items.push(
      actionItem(
        assistant.url(prompt),
        escapeHtml(t.openIn.replace('{assistant}', assistant.label)),
        ui(ctx, 'openInHint'),
        true,
      ),
    );
  }
  if (actions.mcp) {
    const command = `claude mcp add --transport http ${actions.mcp.name} ${actions.mcp.url}`;
    items.push(
      `<li class="kit-action-group" role="presentation"><span class="kit-action-heading">${ui(ctx, 'connectEditor')}</span></li>` +
        actionItem(
          cursorInstallUrl(actions.mcp),
          escapeHtml(t.installIn.replace('{editor}', 'Cursor')),
          escapeHtml(actions.mcp.url),
          false,
        ) +
        actionItem(
          vscodeInstallUrl(actions.mcp),
          escapeHtml(t.installIn.replace('{editor}', 'VS Code')),
          escapeHtml(actions.mcp.url),
          false,
        ) +
        `<li><button type="button" class="kit-action-copy" data-kit-copy-text="${escapeHtml(command)}" hidden><span class="kit-action-label">${ui(ctx, 'copyMcpCommand')}</span><code class="kit-action-hint" dir="ltr">${escapeHtml(command)}</code></button>` +
        `<noscript><code class="kit-action-hint" dir="ltr">${escapeHtml(command)}</code></noscript></li>`,
    );
  }
  const copy = actions.copy
    ? `<button type="button" class="kit-page-copy" data-kit-copy-page="${escapeHtml(actions.markdownUrl)}" title="${escapeHtml(t.copyPageHint)}" hidden>${icon('file', { size: 14 })}<span>${ui(ctx, 'copyPage')}</span></button>`
    : '';
  if (!copy && items.length === 0) return '';
  const menu = items.length
    ? `<details class="kit-switcher kit-page-actions-menu" data-kit-switcher>` +
      `<summary id="kit-page-actions"><span class="kit-page-actions-label">${ui(ctx, 'pageActions')}</span>${icon('chevronDown', { size: 14 })}</summary>` +
      `<ul class="kit-switcher-menu" aria-labelledby="kit-page-actions">${items.join('')}</ul></details>`
    : '';
  const status = `<span class="kit-sr-only" role="status" data-kit-actions-status></span>`;
  // A labelled nav: a set of links to this page in other forms and places, not part of its text
  // (converters that compare the page with its Markdown leave navigation out).
  return `<nav class="kit-page-actions${copy ? ' kit-has-copy' : ''}" aria-label="${escapeHtml(ctx.t.pageActions)}" data-kit-page-actions>${copy}${menu}${status}</nav>`;
}
