import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import { registerFeatures } from './features/index.ts';
import { registerAccessControl } from './platform/access.ts';
import { registerErrorHandling } from './platform/errors.ts';
import { type RateLimitOptions, registerRateLimits } from './platform/rate-limit/index.ts';
import { attachRealtime, type RealtimeOptions } from './platform/realtime/index.ts';
import { registerWebApp } from './platform/static.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  /** The access code in force (from ACCESS_CODE or generated on first start). */
  accessCode: string;
  logger?: boolean | object;
  /** Realtime channel tuning (tests); Redis fan-out follows config.redisUrl. */
  realtime?: RealtimeOptions;
  /** Rate-limit tuning (tests); counting in Redis follows config.redisUrl. */
  rateLimit?: RateLimitOptions;
};

export type App = FastifyInstance;

/** Builds the whole application; tests call it with a temporary database and use inject(). */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.config.logLevel },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: deps.config.trustProxy,
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

  registerErrorHandling(app);
  registerAccessControl(app, deps.db);

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
  await registerRateLimits(app, deps);

  await attachRealtime(app, deps);
  await registerFeatures(app, deps);
  await registerWebApp(app, deps.config.webDistDir);

  return app;
}
