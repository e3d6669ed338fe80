import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';

const CONNECT_TIMEOUT_MS = 10_000;

export type RedisFanout = {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
};

/**
 * The Socket.IO Redis adapter: publishes go through Redis so every instance sharing `key` delivers them
 * to its own sockets. Startup fails with a clear message when Redis cannot be reached.
 */
export async function connectRedisFanout(
  url: string,
  key: string,
  log: FastifyBaseLogger,
): Promise<RedisFanout> {
  const pub = createClient({ url, socket: { connectTimeout: CONNECT_TIMEOUT_MS } });
  const sub = pub.duplicate();
  for (const [name, client] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    client.on('error', (err: unknown) => log.warn({ err }, `realtime: Redis ${name} error`));
  }
  try {
    await withTimeout(Promise.all([pub.connect(), sub.connect()]), CONNECT_TIMEOUT_MS);
  } catch (e) {
    await Promise.allSettled([pub.destroy(), sub.destroy()]);
    throw new Error(`REDIS_URL: could not connect to Redis (${e instanceof Error ? e.message : String(e)})`);
  }
  return {
    adapter: createAdapter(pub, sub, { key }),
    async close() {
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
