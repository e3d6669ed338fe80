import type { RealtimeEventName, RealtimeEventPayload } from '@guildhall/common';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { RoutingBlobStore } from './blob-store/index.ts';
import type { BotHolder } from './bot-holder.ts';
import type { ReadinessChecks } from './observability/index.ts';
import type { Outbound } from './outbound/fetcher.ts';
import type { ProcessSpawner } from './process/index.ts';
import type { FeatureRealtime, RoomType } from './realtime/index.ts';
import type { HashPool } from './transfer/hash-pool.ts';

/** The application: one Fastify instance with the platform's decorations (realtime, readiness, limits). */
export type App = FastifyInstance;

/** The clock features schedule on: the real one in production, a driven one in tests. */
export type Clock = {
  now(): number;
  setTimeout(fn: () => unknown, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref(); // a pending turn or retry never keeps the process alive on its own
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * A beat on `clock`: runs `tick` every `everyMs` (a sweep, a presence check), on the injected clock so a
 * test moves time instead of waiting for it. The next beat is armed once a tick has settled, so two never
 * run at once however slow the database; `tick` catches (and logs) its own errors. Returns the stop.
 */
export function beatOn(clock: Clock, everyMs: number, tick: () => Promise<void>): () => void {
  let stopped = false;
  let handle: unknown;
  const run = async () => {
    try {
      await tick();
    } finally {
      if (!stopped) handle = clock.setTimeout(run, everyMs);
    }
  };
  handle = clock.setTimeout(run, everyMs);
  return () => {
    stopped = true;
    clock.clearTimeout(handle);
  };
}

/**
 * Waits `ms` on `clock` (a Retry-After, a back-off), so a test moves time instead of waiting; rejects
 * with the signal's reason when `signal` aborts first.
 */
export function waitOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * What a feature gets from the platform, built once by the composition root (`app.ts`) and shared by
 * every feature. A feature reaches nothing else of the application: it never imports `app.ts`.
 */
export type FeatureContext<C = unknown> = {
  db: Db;
  /**
   * This feature's own settings only: the slice its definition's `config` picks from the whole
   * configuration (its config module's part, plus any process-wide value it needs, named there).
   */
  config: C;
  log: FastifyBaseLogger;
  /** Rooms, client events, who is in a room, disconnects (platform/realtime); never the raw Socket.IO server. */
  realtime: FeatureRealtime;
  /**
   * Pushes one of the events of `FEATURE_EVENTS` (common/) to a room: the payload is checked against
   * that event's schema at compile time, so the web's `useRealtimeEvent` receives what it expects.
   */
  publish: <E extends RealtimeEventName>(
    room: string,
    event: E,
    payload: RealtimeEventPayload<E>,
    options?: { except?: string },
  ) => void;
  /**
   * The transfer engine's hash threads (SHA-256 per file, CRC32C per chunk): one pool per app, its
   * threads started on first use (or `warmUp()`) and ended by the platform when the app closes.
   */
  hashes: HashPool;
  /**
   * Starts programs (ffmpeg) from a small helper process, so a fork never stalls the server's event loop
   * (platform/process); closed by the platform when the app closes, with what it started.
   */
  processes: ProcessSpawner;
  /** The ONE blob store of the process (local disk, S3, Discord; each chunk read where its id says). */
  blobStore: RoutingBlobStore;
  /**
   * The one SSRF-safe fetcher for requests made on a user's behalf, created on first use (its
   * resolver and agents cost nothing until a feature needs them) and closed by the platform.
   */
  outbound: () => Promise<Outbound>;
  /** What /readyz asks: a feature adds the dependencies it owns. */
  readiness: ReadinessChecks;
  clock: Clock;
  /**
   * Which instance holds the Discord bot (the music feature's lease) and its gateway events: what a
   * feature that must act once per deployment, or on the bot's READY, reads (platform/bot-holder.ts).
   */
  botHolder: BotHolder;
  /** The access code in force (ACCESS_CODE or generated on first start): the auth feature checks it. */
  accessCode: string;
};

/**
 * A feature as the composition root registers it. `setup` builds the feature's services once (no I/O,
 * no timers); its result is handed to `routes`, `rooms`, `start` and `stop`. Every timer, worker, bot
 * and sweep of a feature starts in `start` (after the app is ready, in the order features are listed)
 * and ends in `stop` (on close, in reverse order, before the platform's services close).
 */
export type FeatureDefinition<S, C> = {
  name: string;
  /**
   * Picks the feature's slice of the configuration: what its context's `config` holds. A feature
   * without settings leaves it out (its `config` is then `undefined`).
   */
  config?: (config: Config) => C;
  setup?: (ctx: FeatureContext<C>) => S;
  routes: (ctx: FeatureContext<C>, state: S) => FastifyPluginAsyncZod;
  /** Realtime room types (`type:<key>` rooms) the feature authorizes and snapshots. */
  rooms?: (ctx: FeatureContext<C>, state: S) => Record<string, RoomType>;
  start?: (ctx: FeatureContext<C>, state: S) => Promise<void> | void;
  stop?: (ctx: FeatureContext<C>, state: S) => Promise<void> | void;
};

/** What the composition root builds once: every feature's context, before its slice of the config. */
export type PlatformContext = Omit<FeatureContext, 'config'> & { config: Config };

/** A feature bound to one context: what `buildApp` drives. */
export type Feature = {
  name: string;
  /** Builds the feature on the platform's context (given its config slice): state, room types, routes. */
  mount(platform: PlatformContext): Mounted;
};

export type Mounted = {
  name: string;
  routes: FastifyPluginAsyncZod;
  rooms: Record<string, RoomType>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
};

export function defineFeature<S = undefined, C = undefined>(def: FeatureDefinition<S, C>): Feature {
  return {
    name: def.name,
    mount(platform) {
      const ctx: FeatureContext<C> = { ...platform, config: def.config?.(platform.config) as C };
      const state = (def.setup ? def.setup(ctx) : undefined) as S;
      return {
        name: def.name,
        routes: def.routes(ctx, state),
        rooms: def.rooms?.(ctx, state) ?? {},
        start: async () => {
          await def.start?.(ctx, state);
        },
        stop: async () => {
          await def.stop?.(ctx, state);
        },
      };
    },
  };
}
