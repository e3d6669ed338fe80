import type { FastifyBaseLogger } from 'fastify';

/* What the rate limits and the realtime fan-out both need around their Redis clients. */

let redisModule: Promise<typeof import('redis')> | undefined;
/**
 * node-redis, loaded when a Redis client is first made: a portal without REDIS_URL never loads it, and
 * one with it loads it while connecting (bench/startup).
 */
export function loadRedis(): Promise<typeof import('redis')> {
  redisModule ??= import('redis');
  return redisModule;
}

/** Reports a failed Redis call; never throws. */
export type ReportRedisError = (err: unknown, what: string) => void;

/**
 * Logs a Redis failure as a warning at most once per interval for each kind of call, so an outage under
 * load leaves a few lines in the log rather than one per request.
 */
export function throttledRedisWarnings(
  log: FastifyBaseLogger,
  /** Who is calling Redis, as the log line names it (e.g. `rate limits`, `realtime`). */
  component: string,
  intervalMs = 30_000,
): ReportRedisError {
  const lastLogged = new Map<string, number>();
  return (err, what) => {
    const now = Date.now();
    if (now - (lastLogged.get(what) ?? Number.NEGATIVE_INFINITY) < intervalMs) return;
    lastLogged.set(what, now);
    log.warn({ err }, `${component}: Redis unavailable for ${what}`);
  };
}

/**
 * Closes a node-redis client. close() waits for the replies still due, which never come while Redis is
 * away: then it lets go at once.
 */
export async function closeRedis(client: {
  isReady: boolean;
  close(): Promise<unknown>;
  destroy(): void;
}): Promise<void> {
  if (client.isReady) await client.close();
  else client.destroy();
}
