import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { LevelOf } from '../access.ts';
import { requestAddressResolver } from '../client-address.ts';
import { createRealtimeHub, type RealtimeHub } from './hub.ts';
import { connectRedisFanout, type RedisFanout } from './redis.ts';
import type { SocketLimits } from './socket-limits.ts';

export type { ClientEventHandler, RealtimeHub, RoomEmission, RoomType } from './hub.ts';
export type { SocketIdentity } from './session-check.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime channel: features publish state changes and define their rooms here. */
    realtime: RealtimeHub;
  }
}

export type RealtimeOptions = {
  /** How often live sockets' sessions are re-checked (default 10 s). */
  recheckIntervalMs?: number;
  /** Redis channel prefix; instances sharing it share rooms (default `guildhall`). */
  redisKey?: string;
  /** Per-account, per-address and per-socket limits (tests lower them). */
  limits?: Partial<SocketLimits>;
};

/**
 * Attaches the realtime channel to the app's HTTP server and exposes it as `app.realtime`. With
 * `REDIS_URL` it fans out across instances through Redis, otherwise it stays in process.
 *
 * The sockets close before the HTTP server does (preClose); the Redis fan-out stays open until the
 * composition root calls `closeFanout`, after every feature stopped: a feature publishing as it stops
 * (the music bot's last status) still reaches the other instances instead of a closed client.
 */
export async function attachRealtime(
  app: FastifyInstance,
  deps: { config: Config; db: Db; levelOf: LevelOf; realtime?: RealtimeOptions },
): Promise<{ hub: RealtimeHub; closeFanout: () => Promise<void> }> {
  const options = deps.realtime ?? {};
  let fanout: RedisFanout | undefined;
  if (deps.config.redisUrl) {
    fanout = await connectRedisFanout(deps.config.redisUrl, options.redisKey ?? 'guildhall', app.log);
    app.log.info('realtime: fanning out through Redis');
  }
  const hub = createRealtimeHub({
    clientAddress: requestAddressResolver(deps.config.trustProxy),
    limits: { handshakesPerWindow: deps.config.realtimeHandshakesPerAddress, ...options.limits },
    httpServer: app.server,
    db: deps.db,
    levelOf: deps.levelOf,
    log: app.log,
    recheckIntervalMs: options.recheckIntervalMs ?? 10_000,
    adapter: fanout?.adapter,
  });
  app.decorate('realtime', hub);
  // Open sockets would keep the HTTP server from closing; drop them before it does.
  app.addHook('preClose', async () => {
    await hub.close();
  });
  let fanoutClosed: Promise<void> | undefined;
  const closeFanout = () => {
    fanoutClosed ??= fanout?.close() ?? Promise.resolve();
    return fanoutClosed;
  };
  // Should the app fail before its composition root takes the order over (a feature failing to mount).
  app.addHook('onClose', closeFanout);
  return { hub, closeFanout };
}
