import { KitError, type ResolvedConfig } from '@kit/core';

/** The queue `kit sync --queue` uses when neither `ai.sync.queue` nor `KIT_SYNC_QUEUE` names one. */
export const DEFAULT_QUEUE = 'default';

/** The PostgreSQL schema pg-boss keeps its tables in, unless a caller names another. */
export const DEFAULT_QUEUE_SCHEMA = 'kit_queue';

/**
 * Where a queue lives: a PostgreSQL server and the schema the job engine (pg-boss) keeps its
 * tables in. Every `kit worker` and every `kit sync --queue` on the same URL and schema share jobs.
 */
export interface QueueConnection {
  /** A `postgres://` or `postgresql://` URL. */
  url: string;
  /** @default 'kit_queue' */
  schema?: string;
}

/** A queue named in the config, resolved to its connection. */
export interface ResolvedQueue {
  /** The Kit queue name (`default`, or a key of `queues`). */
  name: string;
  connection: QueueConnection;
}

/**
 * Resolves the queue `kit sync --queue` and `kit worker` use: `name` when given (`--queue`), else
 * `ai.sync.queue` (env `KIT_SYNC_QUEUE`), else `default`; then its connection's URL. A queue on a
 * connection without a URL is refused with the setting to add: without one Kit runs on embedded
 * PGlite, which one process holds alone, so no worker could share its jobs. `schema` names the
 * PostgreSQL schema of the queue's tables; without it `queues.<name>.schema`, else `kit_queue`.
 *
 * @example
 * const { name, connection } = resolveQueue(config); // { name: 'default', connection: { url: 'postgres://…' } }
 */
export function resolveQueue(config: ResolvedConfig, name?: string, schema?: string): ResolvedQueue {
  const queueName = name ?? config.ai.sync.queue ?? DEFAULT_QUEUE;
  const queues = config.queues ?? { [DEFAULT_QUEUE]: { driver: 'postgres' as const, connection: 'default' } };
  const queue = queues[queueName];
  if (queue === undefined) {
    throw new KitError(
      'config.invalid',
      `No queue \`${queueName}\`: \`queues\` declares ${Object.keys(queues)
        .map((key) => `\`${key}\``)
        .join(
          ', ',
        )}. Use one of those, or declare it, e.g. \`queues: { ${queueName}: { driver: 'postgres', connection: 'default' } }\`.`,
    );
  }
  if (queue.driver === 'redis') {
    throw new KitError(
      'config.invalid',
      `Queue \`${queueName}\` uses the redis driver; Kit runs queued sync runs on PostgreSQL (pg-boss) only. Use \`queues: { ${queueName}: { driver: 'postgres', connection: 'default' } }\` with a connection that has a PostgreSQL url.`,
    );
  }
  const url = config.connections[queue.connection]?.url;
  if (url === undefined || url === '') {
    throw new KitError(
      'config.invalid',
      `Queue \`${queueName}\` needs a PostgreSQL server, and its connection \`${queue.connection}\` has no url (without one Kit uses embedded PGlite, which a worker in another process cannot share). Set \`connections: { ${queue.connection}: { url: process.env.DATABASE_URL } }\` in kit.config.ts and DATABASE_URL=postgres://… in the environment or .env.`,
    );
  }
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    throw new KitError(
      'config.invalid',
      `Queue \`${queueName}\` needs a PostgreSQL server, and connection \`${queue.connection}\` has the url ${describeUrl(url)}, which is not a postgres:// URL. Point \`connections.${queue.connection}.url\` at a PostgreSQL server.`,
    );
  }
  const queueSchema = schema ?? queue.schema;
  return { name: queueName, connection: queueSchema === undefined ? { url } : { url, schema: queueSchema } };
}

/** A URL fit for an error message: the scheme and host, never the password. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return 'that is not a URL';
  }
}
