import type { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { closeRedis, loadRedis, throttledRedisWarnings } from '../redis-helpers.ts';

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
  // Loaded here, not at start-up: only a portal with REDIS_URL uses them (bench/startup).
  const [{ createClient }, { createAdapter }] = await Promise.all([
    loadRedis(),
    import('@socket.io/redis-adapter'),
  ]);
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
  const report = throttledRedisWarnings(log, 'realtime');
  const onError = (err: unknown) => report(err, 'fan-out to other instances');
  return {
    // The adapter calls these without handling their promises; see catchingCommands.
    adapter: createAdapter(
      catchingCommands(pub, ['publish'], onError),
      catchingCommands(sub, ['subscribe', 'pSubscribe', 'unsubscribe', 'pUnsubscribe'], onError),
      { key },
    ),
    async close() {
      await Promise.allSettled([closeRedis(pub), closeRedis(sub)]);
    },
  };
}

type CommandName = 'publish' | 'subscribe' | 'pSubscribe' | 'unsubscribe' | 'pUnsubscribe';

/**
 * The client as the adapter sees it, with the named commands' promises never rejecting. The adapter
 * publishes, subscribes and (on close) unsubscribes without handling the promise, so a command caught
 * by a dropped connection, or flushed when the client is closed during an outage, would be an unhandled
 * rejection, which ends a Node process. Local delivery does not depend on Redis; other instances miss
 * what Redis missed, and node-redis resubscribes by itself when it reconnects.
 */
function catchingCommands<C extends object>(
  client: C,
  names: readonly CommandName[],
  onError: (err: unknown) => void,
): C {
  const caught = new Set<PropertyKey>(names);
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (!caught.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result instanceof Promise ? result.catch(onError) : result;
      };
    },
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
