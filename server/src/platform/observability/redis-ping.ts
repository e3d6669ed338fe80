import { closeRedis, loadRedis } from '../redis-helpers.ts';

export type RedisPing = { ping(): Promise<void>; close(): Promise<void> };

/**
 * A Redis connection of its own for readiness probes: it never queues commands while Redis is away
 * (a probe must fail fast, not wait) and keeps reconnecting, so /readyz turns 200 again on its own.
 */
export function createRedisPing(url: string): RedisPing {
  // Made as soon as node-redis is loaded (a failure to load it fails every probe, with its message).
  const made = loadRedis().then(({ createClient }) => {
    const client = createClient({
      url,
      disableOfflineQueue: true,
      commandOptions: { timeout: 1000 },
      socket: { connectTimeout: 1000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
    });
    client.on('error', () => {
      // Reported through the probe's result; the client reconnects by itself.
    });
    const connecting = client.connect().catch(() => undefined);
    return { client, connecting };
  });
  made.catch(() => {}); // handled where it is awaited (ping, close)
  return {
    async ping() {
      const { client, connecting } = await made;
      await connecting;
      if (!client.isReady) throw new Error('Redis is not connected');
      await client.ping();
    },
    async close() {
      const { client, connecting } = await made.catch(() => ({ client: null, connecting: null }));
      if (!client) return;
      await connecting;
      await closeRedis(client);
    },
  };
}
