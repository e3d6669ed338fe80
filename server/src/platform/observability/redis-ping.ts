import { createClient } from 'redis';
import { closeRedis } from '../redis-helpers.ts';

export type RedisPing = { ping(): Promise<void>; close(): Promise<void> };

/**
 * A Redis connection of its own for readiness probes: it never queues commands while Redis is away
 * (a probe must fail fast, not wait) and keeps reconnecting, so /readyz turns 200 again on its own.
 */
export function createRedisPing(url: string): RedisPing {
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
  return {
    async ping() {
      await connecting;
      if (!client.isReady) throw new Error('Redis is not connected');
      await client.ping();
    },
    async close() {
      await connecting;
      await closeRedis(client);
    },
  };
}
