import { type Kit, seesAnyVersion, type Viewer } from '@kit/core';
import { mcpEndpointPath } from '@kit/core/internal';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { WEB_PROTOCOL_VERSIONS } from './protocol-2026-07-28.js';
import { buildMcpServer, MCP_SERVER_INFO } from './server.js';

/** The `$schema` of a Server Card (the v1 draft of the MCP Server Card extension, SEP-2127). */
export const SERVER_CARD_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The media type the Server Card draft gives a card. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server+json';

/**
 * The `_meta` key of the card's list of what a caller is offered. Cards of the v1 draft leave tools,
 * prompts and resources to the protocol's own list calls; this copy, taken from the same server a
 * caller of the endpoint gets, lets a catalog show them before anyone connects.
 */
export const SERVER_CARD_OFFER_KEY = 'dev.kit/offer';

/** One tool, prompt or resource template as the card lists it. */
export interface ServerCardPrimitive {
  name: string;
  title?: string;
  description?: string;
}

/** A Server Card (draft v1 of the MCP Server Card extension) for one set's web MCP endpoint. */
export interface McpServerCard {
  $schema: typeof SERVER_CARD_SCHEMA_URL;
  /** Reverse-DNS name: the site's host reversed, then the set key (`com.example.docs/laravel`). */
  name: string;
  version: string;
  /** At most 100 characters, as the draft asks. */
  description: string;
  title: string;
  websiteUrl: string;
  remotes: Array<{
    type: 'streamable-http';
    url: string;
    supportedProtocolVersions: string[];
    headers?: Array<{ name: string; description: string; isRequired: boolean; isSecret: boolean }>;
  }>;
  _meta: {
    [SERVER_CARD_OFFER_KEY]: {
      tools: ServerCardPrimitive[];
      prompts: ServerCardPrimitive[];
      resourceTemplates: Array<ServerCardPrimitive & { uriTemplate: string }>;
    };
  };
}

/** Options of {@link buildMcpServerCard}. */
export interface ServerCardOptions {
  kit: Kit;
  /** The set whose web endpoint the card describes. */
  set: string;
  /** Who asks: the tools listed are the ones this caller would get from the endpoint. */
  viewer: Viewer;
  /** Absolute origin of the site (`https://docs.example.com`). */
  origin: string;
  /** Whether the endpoint needs credentials (`Authorization` header) from this caller. */
  needsCredentials?: boolean;
}

/**
 * The Server Card of a set's web MCP endpoint, as the MCP Server Card draft (SEP-2127, the
 * experimental extension's v1 schema) describes one: identity, the Streamable HTTP remote and the
 * protocol versions it speaks. Its `_meta` lists the tools, prompts and resource templates, read
 * with `tools/list`, `prompts/list` and `resources/templates/list` from the very server this caller
 * would be given, so the card cannot drift from the endpoint. Null when the set has no web endpoint
 * or the caller may read no version of it.
 *
 * @example
 * const card = await buildMcpServerCard({ kit, set: 'docs', viewer: { user: null }, origin: 'https://example.com' });
 * card?.remotes[0].url; // 'https://example.com/docs/mcp'
 */
export async function buildMcpServerCard(options: ServerCardOptions): Promise<McpServerCard | null> {
  const { kit, viewer } = options;
  const docSet = kit.sets.get(options.set);
  if (!docSet?.config.mcp.web.enabled) return null;
  if (!(await seesAnyVersion(docSet, viewer))) return null;
  const origin = options.origin.replace(/\/+$/, '');
  const manifest = await docSet.manifest();
  const offer = await listOffer(kit, options.set, viewer, origin);
  const name = manifest.name.trim() || docSet.key;
  const prefix = docSet.config.route.prefix;
  const home = prefix.replace(/^\/+|\/+$/g, '');
  const described = manifest.description?.trim() || `Search and read the ${name} documentation.`;
  const card: McpServerCard = {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: `${reverseDnsOf(origin)}/${cardNameSegment(docSet.key)}`,
    version: MCP_SERVER_INFO.version,
    description: clip(described, 100),
    title: clip(name, 100),
    websiteUrl: `${origin}/${home}`.replace(/\/$/, '') || origin,
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}${mcpEndpointPath(prefix, docSet.config.mcp.web.path)}`,
        supportedProtocolVersions: [...WEB_PROTOCOL_VERSIONS],
        ...(options.needsCredentials
          ? {
              headers: [
                {
                  name: 'Authorization',
                  description: 'Bearer token of your account on this site: "Bearer <token>".',
                  isRequired: true,
                  isSecret: true,
                },
              ],
            }
          : {}),
      },
    ],
    _meta: { [SERVER_CARD_OFFER_KEY]: offer },
  };
  return card;
}

/** What a caller of the set's endpoint is offered, listed over an in-memory connection to the same server. */
async function listOffer(
  kit: Kit,
  set: string,
  viewer: Viewer,
  origin: string,
): Promise<McpServerCard['_meta'][typeof SERVER_CARD_OFFER_KEY]> {
  const { server } = await buildMcpServer({ kit, scope: { kind: 'web', set }, viewer, origin, transport: 'http' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'kit-server-card', version: MCP_SERVER_INFO.version });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const [tools, prompts, templates] = await Promise.all([
      client.listTools(),
      client.listPrompts(),
      client.listResourceTemplates(),
    ]);
    return {
      tools: tools.tools.map((tool) => primitive(tool.name, tool.title ?? tool.annotations?.title, tool.description)),
      prompts: prompts.prompts.map((prompt) => primitive(prompt.name, prompt.title, prompt.description)),
      resourceTemplates: templates.resourceTemplates.map((template) => ({
        ...primitive(template.name, template.title, template.description),
        uriTemplate: template.uriTemplate,
      })),
    };
  } finally {
    await client.close();
    await server.close();
  }
}

function primitive(name: string, title: string | undefined, description: string | undefined): ServerCardPrimitive {
  return { name, ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

/**
 * The host of an origin in reverse-DNS order, as card names are written: `docs.example.com` →
 * `com.example.docs`; an IP address or a single label (`localhost`) stays as it is. The port is no
 * part of a name.
 */
function reverseDnsOf(origin: string): string {
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(host) || host.includes(':')) return host.replace(/:/g, '-');
  return host.split('.').reverse().join('.');
}

/** A set key as the part of a card name after the slash allows it (letters, digits, `.`, `_`, `-`). */
function cardNameSegment(key: string): string {
  return key.replace(/[^A-Za-z0-9._-]/g, '-') || 'docs';
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
