import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { ErrorCode } from '@guildhall/common';
import Fastify, { type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config.ts';
import type { Db } from './db/index.ts';
import type { UsersTable } from './db/schema.ts';
import { allFeatures, type FeatureOptions } from './features/index.ts';
import { effectiveLevel } from './features/users/index.ts';
import { registerAccessControl } from './platform/access.ts';
import { createBlobStore } from './platform/blob-store/index.ts';
import { createBotHolder } from './platform/bot-holder.ts';
import { registerErrorHandling } from './platform/errors.ts';
import { type App, type Clock, type Feature, type PlatformContext, realClock } from './platform/feature.ts';
import { registerInputGuard } from './platform/input-guard.ts';
import { registerObservability } from './platform/observability/index.ts';
import { redactUrl } from './platform/observability/redact.ts';
import { createRedisPing } from './platform/observability/redis-ping.ts';
import { registerOpenApi } from './platform/openapi.ts';
import type { Outbound } from './platform/outbound/fetcher.ts';
import { ProcessSpawner } from './platform/process/index.ts';
import { type RateLimitOptions, registerRateLimits } from './platform/rate-limit/index.ts';
import { attachRealtime, type RealtimeOptions } from './platform/realtime/index.ts';
import { registerWebApp, webAppFiles } from './platform/static.ts';
import { HashPool } from './platform/transfer/hash-pool.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  /** The access code in force (from ACCESS_CODE or generated on first start). */
  accessCode: string;
  logger?: boolean | object;
  /** Where the production logger writes (default stdout); tests read the real log lines from it. */
  loggerStream?: NodeJS.WritableStream;
  /** Realtime channel tuning (tests); Redis fan-out follows config.redisUrl. */
  realtime?: RealtimeOptions;
  /** Rate-limit tuning (tests); counting in Redis follows config.redisUrl. */
  rateLimit?: RateLimitOptions;
  /**
   * The features to register, in order (default: every feature). Tests pass fewer to build only what a
   * suite needs; their start runs in this order and their stop in reverse.
   */
  features?: Feature[];
  /** Test seams of individual features (Pictionary's clock and sweep), used when `features` is not given. */
  featureOptions?: FeatureOptions;
  /** The clock features schedule on (default: the real one). */
  clock?: Clock;
};

export type { App };

/** A hop count as the function proxy-addr builds for one (Fastify's types take no number). */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * The composition root: builds every platform service once (errors, access, limits, OpenAPI, probes,
 * realtime, the blob store, the outbound fetcher), then registers each feature on one shared
 * `FeatureContext` and drives their lifecycles. Tests call it with a temporary database and use inject().
 */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? {
      level: deps.config.logLevel,
      // Fastify's default request fields, with download tickets and OAuth codes in query strings redacted.
      serializers: {
        req: (req) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
      ...(deps.loggerStream ? { stream: deps.loggerStream } : {}),
    },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 512 },
    // Errors raised before routing (a malformed URL) still leave in the API's envelope.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply)
        .code(400)
        .send({ success: false, error: 'Malformed URL', code: 'BAD_REQUEST' satisfies ErrorCode });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerErrorHandling(app, { serverPaths: [deps.config.dataDir, deps.config.webDistDir] });
  registerInputGuard(app);
  // The users feature decides levels; the platform only receives the function.
  const levelOf = (user: UsersTable) => effectiveLevel(deps.db, user);
  registerAccessControl(app, deps.db, levelOf);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // React's style attributes and the toast library's injected styles need inline styles; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          'https://cdn.discordapp.com',
          'https://i.ytimg.com',
          'https://*.sndcdn.com',
        ],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  const prefix = deps.config.redisPrefix;
  const webFiles = webAppFiles(deps.config.webDistDir);
  await registerRateLimits(app, {
    ...deps,
    rateLimit: {
      redisPrefix: `${prefix}:rl:`,
      exempt: (req) => req.method === 'GET' && webFiles.has(req.url.split('?')[0] ?? ''),
      ...deps.rateLimit,
    },
  });
  await registerOpenApi(app);
  const redisPing = deps.config.redisUrl ? createRedisPing(deps.config.redisUrl) : undefined;
  if (redisPing) app.addHook('onClose', () => redisPing.close());
  // After OpenAPI, so the probes are documented; before the web app's fallback.
  registerObservability(app, {
    db: deps.db,
    metricsToken: deps.config.metricsToken,
    pingRedis: redisPing?.ping,
  });

  const { hub: realtime, closeFanout } = await attachRealtime(app, {
    ...deps,
    levelOf,
    realtime: { redisKey: prefix, ...deps.realtime },
  });

  // The ONE blob store of the process: files, music and backups all read and write through it.
  const blobStore = createBlobStore(deps.config);
  const hashes = new HashPool(); // its threads start on first use; closed below, after the features
  const processes = new ProcessSpawner(); // its helper starts on first use; closed below, after the features

  app.readiness.add('fileStore', () => blobStore.check());
  let outbound: Promise<Outbound> | undefined;
  const ctx: PlatformContext = {
    db: deps.db,
    config: deps.config,
    log: app.log,
    realtime,
    publish: (room, event, payload, options) => realtime.publish(room, event, payload, options),
    blobStore,
    hashes,
    processes,
    outbound: () => {
      // Loaded on first use: the resolver and agents cost nothing at start-up (bench/startup).
      outbound ??= import('./platform/outbound/index.ts').then((m) =>
        m.outboundFromConfig(deps.config.outbound),
      );
      outbound.catch(() => {
        outbound = undefined;
      });
      return outbound;
    },
    readiness: app.readiness,
    clock: deps.clock ?? realClock,
    botHolder: createBotHolder(),
    accessCode: deps.accessCode,
  };
  const stopFeatures = await registerFeatureList(app, ctx, deps.features ?? allFeatures(deps.featureOptions));
  // One hook, so the order holds whatever order Fastify runs hooks in: features stop (reverse order),
  // then the platform services they used close — the realtime fan-out's Redis clients among them, since
  // a feature may publish while it stops (the sockets themselves closed earlier, in preClose).
  app.addHook('onClose', async () => {
    await stopFeatures();
    await closeFanout();
    await hashes.close();
    await processes.close();
    if (outbound) await (await outbound.catch(() => null))?.close();
    await blobStore.close(); // the S3 client's sockets, the Discord client's timers
  });
  await registerWebApp(app, deps.config.webDistDir);

  return app;
}

/**
 * Mounts each feature (state, room types, routes) and runs its lifecycle: `start` in list order once the
 * app is ready, `stop` in reverse order when it closes (only for the features that started).
 */
async function registerFeatureList(
  app: App,
  ctx: PlatformContext,
  features: Feature[],
): Promise<() => Promise<void>> {
  const names = new Set<string>();
  const mounted = features.map((feature) => {
    if (names.has(feature.name)) throw new Error(`feature ${feature.name} is registered twice`);
    names.add(feature.name);
    return feature.mount(ctx);
  });
  for (const m of mounted) {
    for (const [type, room] of Object.entries(m.rooms)) ctx.realtime.defineRoomType(type, room);
    await app.register(m.routes);
  }
  const started: typeof mounted = [];
  app.addHook('onReady', async () => {
    for (const m of mounted) {
      await m.start();
      started.push(m);
    }
  });
  return async () => {
    for (const m of started.reverse()) {
      try {
        await m.stop();
      } catch (err) {
        // One feature failing to stop must not keep the others (and the stores) from closing.
        app.log.error({ err, feature: m.name }, 'feature: stopping failed');
      }
    }
    started.length = 0;
  };
}
