import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config.ts';
import type { Db } from './db/index.ts';
import type { UsersTable } from './db/schema.ts';
import { registerFeatures } from './features/index.ts';
import { effectiveLevel } from './features/users/index.ts';
import { registerAccessControl } from './platform/access.ts';
import { registerErrorHandling } from './platform/errors.ts';
import { registerInputGuard } from './platform/input-guard.ts';
import { registerObservability } from './platform/observability/index.ts';
import { redactUrl } from './platform/observability/redact.ts';
import { createRedisPing } from './platform/observability/redis-ping.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { type RateLimitOptions, registerRateLimits } from './platform/rate-limit/index.ts';
import { attachRealtime, type RealtimeOptions } from './platform/realtime/index.ts';
import { registerWebApp, webAppFiles } from './platform/static.ts';

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
};

export type App = FastifyInstance;

/** A hop count as the function proxy-addr builds for one (Fastify's types take no number). */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Builds the whole application; tests call it with a temporary database and use inject(). */
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
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply)
        .code(400)
        .send({ success: false, error: 'Malformed URL', code: error.code });
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

  await attachRealtime(app, { ...deps, levelOf, realtime: { redisKey: prefix, ...deps.realtime } });
  await registerFeatures(app, deps);
  await registerWebApp(app, deps.config.webDistDir);

  return app;
}
