import type { DocSet } from '@kit/core';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UriTemplate, type Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { absoluteUrl, type McpContext, resolveSet } from './context.js';
import { requestError } from './errors.js';

/** The URI template of the `docs-page` resource, as the specification writes it. */
export const DOCS_PAGE_URI_TEMPLATE = 'docs://{set}/{version}/{path}';

const DOCS_PAGE_URI = /^docs:\/\/([^/?#]+)\/([^/?#]+)\/([^?#]+)$/;

/**
 * `{path}` in an RFC 6570 template stops at `/`, but page paths have slashes (`advanced/caching`,
 * `ar/intro`). The template keeps its documented text and matches the rest of the URI as the path.
 */
class DocsPageUriTemplate extends UriTemplate {
  constructor() {
    super(DOCS_PAGE_URI_TEMPLATE);
  }

  override match(uri: string): Variables | null {
    const match = DOCS_PAGE_URI.exec(uri);
    if (!match) return null;
    return { set: match[1]!, version: match[2]!, path: match[3]! };
  }
}

/** The parts of a `docs://` page URI; `locale` is set when the path starts with a non-default locale. */
export interface DocsPageAddress {
  set: string;
  version: string;
  locale: string | undefined;
  path: string;
}

/**
 * Builds the `docs-page` URI of a page: `docs://docs/3.x/routing`, `docs://docs/current/intro` for an
 * unversioned set, `docs://docs/3.x/ar/intro` for a page in a non-default locale.
 *
 * @example
 * docsPageUri({ set: 'docs', version: '3.x', locale: 'ar', path: 'intro' }) // 'docs://docs/3.x/ar/intro'
 */
export function docsPageUri(address: DocsPageAddress): string {
  const path = address.locale ? `${address.locale}/${address.path}` : address.path;
  return `docs://${encodeURIComponent(address.set)}/${encodeURIComponent(address.version)}/${path
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`;
}

/** Reads the set, version and path out of a `docs://` URI; the locale prefix is split off against the set's locales. */
async function pageAddress(docSet: DocSet, version: string, rawPath: string) {
  const segments = rawPath.split('/').map((segment) => decodeURIComponent(segment));
  const locales = await docSet.locales();
  const localized = locales.find((locale) => !locale.default && locale.code === segments[0]);
  const rest = localized ? segments.slice(1) : segments;
  return { version, locale: localized?.code, path: rest.join('/') || 'index' };
}

/** Registers the `docs-page` resource template. `resources/list` stays empty: the template has no list callback. */
export function registerResources(server: McpServer, context: McpContext): void {
  const template = new ResourceTemplate(new DocsPageUriTemplate(), { list: undefined });
  server.registerResource(
    'docs-page',
    template,
    {
      title: 'Docs page',
      description:
        'A docs page as agent Markdown. docs://{set}/{version}/{path}: an unversioned set uses "current" as the version; a page in a non-default language puts the locale in front of the path (docs://docs/3.x/ar/intro).',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      try {
        const setKey = decodeURIComponent(String(variables.set));
        const docSet = await resolveSet(context, setKey);
        const address = await pageAddress(
          docSet,
          decodeURIComponent(String(variables.version)),
          String(variables.path),
        );
        const page = await docSet.readPage(address, context.viewer);
        return {
          contents: [
            {
              uri: uri.toString(),
              mimeType: 'text/markdown',
              text: page.text,
              _meta: {
                ...page.meta,
                url: absoluteUrl(page.meta.url, context.origin),
                markdown_url: absoluteUrl(page.meta.markdown_url, context.origin),
              },
            },
          ],
        };
      } catch (error) {
        throw requestError(error, context.scope.kind === 'local', 'The docs server failed to read the page');
      }
    },
  );
}
