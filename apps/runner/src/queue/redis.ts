import { redactUrl } from '@multihop/checkpoint';
import { ConfigError } from '@multihop/core';
import type { ConnectionOptions } from 'bullmq';

/** The one BullMQ queue every eval puts its pairs on and every worker takes them from. */
export const QUEUE_NAME = 'multihop-eval';

/** How long a server may take to answer before the command says it is not answering. */
export const ANSWER_TIMEOUT_MS = 3000;

/** `redis://[user:password@]host:port[/db]` or `rediss://...`: checked before anything connects. */
export function parseQueueUrl(text: string | undefined, option = '--queue'): string {
  const value = text?.trim() ?? '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${option} "${value}" is not a URL; give redis://HOST:PORT (e.g. redis://127.0.0.1:6379)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`${option} "${value}" is not a Redis URL (${url.protocol.replace(/:$/, '')}://); give redis://HOST:PORT`);
  }
  if (!url.hostname) throw new ConfigError(`${option} "${value}" names no host; give redis://HOST:PORT`);
  const db = url.pathname.replace(/^\//, '');
  if (db && !/^\d+$/.test(db)) throw new ConfigError(`${option} "${value}": the path must be a database number (redis://HOST:PORT/0), not "${db}"`);
  return value;
}

/**
 * Connects once and pings, giving up after a few seconds: a server that is down, or a host that
 * does not answer, is one clear line naming the URL instead of a client retrying forever.
 */
export async function checkRedis(url: string, option = '--queue'): Promise<void> {
  const { Redis } = require('ioredis') as typeof import('ioredis');
  const client = new Redis(url, { lazyConnect: true, connectTimeout: ANSWER_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  let lastError: unknown;
  client.on('error', (error) => (lastError = error));
  try {
    try {
      await withTimeout(
        (async () => {
          await client.connect();
          await client.ping();
        })(),
        ANSWER_TIMEOUT_MS + 500,
      );
    } catch (error) {
      throw new ConfigError(`${option} ${redactUrl(url)}: the Redis server is not answering (${reason(lastError ?? error)})`);
    }
    // The database in the URL (redis://HOST:PORT/N): one the server refuses would leave the client
    // on database 0 with no word, where workers of another eval may be listening.
    const db = /^\/(\d+)\/?$/.exec(new URL(url).pathname)?.[1];
    try {
      if (db !== undefined) await withTimeout(client.select(Number(db)), ANSWER_TIMEOUT_MS);
    } catch (error) {
      throw new ConfigError(`${option} ${redactUrl(url)}: the Redis server refuses database ${db} (${reason(error)}); give one it has (redis://HOST:PORT/0 to /15 by default)`);
    }
  } finally {
    // A refused connection has ended already: disconnect() would leave ioredis's 2-s timer for a
    // stream that never closes again, and the command would linger that long after its error.
    if (client.status !== 'end') client.disconnect();
  }
}

/** BullMQ's connection for a checked URL: commands wait for a reconnect rather than fail (BullMQ needs that of its workers). */
export function connectionFor(url: string): ConnectionOptions {
  return { url, maxRetriesPerRequest: null, connectTimeout: ANSWER_TIMEOUT_MS };
}

export function reason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const message = e?.message || String(error);
  return e?.code && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
