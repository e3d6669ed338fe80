import type { FastifyBaseLogger } from 'fastify';
import { closeRedis, loadRedis } from '../redis-helpers.ts';

const CONNECT_TIMEOUT_MS = 10_000;
/** A rate-limit check waits at most this long for Redis before the request goes on without it. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * What rate-limiter-flexible calls on the node-redis client (EVAL of its script; it is passed the
 * client itself). A narrow type, so tests can hand in a client that fails.
 */
export type RedisClient = { eval: (...args: never[]) => Promise<unknown> };

export type RateLimitRedis = {
  /** The node-redis client rate-limiter-flexible counts with. */
  client: RedisClient;
  close(): Promise<void>;
};

/**
 * The one Redis client the rate limits share. Startup fails with a clear message when Redis cannot be
 * reached; later outages make calls fail fast (no offline queue, short timeout) so callers can decide
 * what to do instead of letting requests hang, while the client reconnects in the background.
 */
export async function connectRateLimitRedis(url: string, log: FastifyBaseLogger): Promise<RateLimitRedis> {
  let hasConnected = false;
  const { createClient } = await loadRedis();
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Give up at once on the first connection (startup reports it); after that, keep retrying.
      reconnectStrategy: (retries, cause) => (hasConnected ? Math.min(100 * 2 ** retries, 5_000) : cause),
    },
  });
  client.on('error', (err: unknown) => {
    if (hasConnected) log.debug({ err }, 'rate limits: Redis connection error');
  });
  try {
    await client.connect();
    hasConnected = true;
  } catch (e) {
    client.destroy();
    throw new Error(`REDIS_URL: could not connect to Redis (${e instanceof Error ? e.message : String(e)})`);
  }
  return {
    client,
    close: () => closeRedis(client),
  };
}
