import { timingSafeEqual } from 'node:crypto';
import { LivenessResponse, OPS_PATHS, ReadinessResponse } from '@guildhall/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { pendingMigrations } from '../../db/index.ts';
import { fail } from '../errors.ts';
import { APP_VERSION } from '../version.ts';
import { registerMetrics } from './metrics.ts';
import { createReadinessChecks, type ReadinessChecks } from './readiness.ts';

export type { ReadinessChecks, ReadinessProbe } from './readiness.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What /readyz asks; features add the dependencies they own. */
    readiness: ReadinessChecks;
  }
}

export type ObservabilityDeps = {
  db: Db;
  /** Bearer token that unlocks /metrics; without one /metrics is off (404). */
  metricsToken?: string;
  /** Pings the shared Redis, when one is configured. */
  pingRedis?: () => Promise<void>;
};

/**
 * Liveness, readiness and metrics for load balancers and monitoring. Registered before the web app so
 * the SPA fallback never answers these paths.
 */
export function registerObservability(root: FastifyInstance, deps: ObservabilityDeps): void {
  // On the root instance, not in a plugin: the metrics hooks must see every route.
  const app = root.withTypeProvider<ZodTypeProvider>();
  const readiness = createReadinessChecks();
  app.decorate('readiness', readiness);
  readiness.add('database', async () => {
    await sql`select 1`.execute(deps.db);
  });
  readiness.add('migrations', async () => {
    const pending = await pendingMigrations(deps.db);
    if (pending.length > 0) throw new Error(`pending: ${pending.join(', ')}`);
  });
  if (deps.pingRedis) readiness.add('redis', deps.pingRedis);

  app.get(
    OPS_PATHS.liveness,
    { config: { access: 'public' }, logLevel: 'warn', schema: { response: { 200: LivenessResponse } } },
    async () => ({ status: 'ok' as const, version: APP_VERSION }),
  );

  app.get(
    OPS_PATHS.readiness,
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: { response: { 200: ReadinessResponse, 503: ReadinessResponse } },
    },
    async (_req, reply) => {
      const checks = await readiness.run();
      const all = Object.values(checks);
      const ready = all.every((c) => c.ok || c.optional);
      const status = !ready ? 'not ready' : all.every((c) => c.ok) ? 'ready' : 'degraded';
      return reply.code(ready ? 200 : 503).send({ status, checks });
    },
  );

  const metrics = deps.metricsToken ? registerMetrics(root) : null;
  app.get(
    OPS_PATHS.metrics,
    { config: { access: 'public' }, logLevel: 'warn', schema: { response: { 200: z.string() } } },
    async (req, reply) => {
      if (!metrics || !deps.metricsToken) {
        throw fail('METRICS_DISABLED', 'Metrics are disabled (set METRICS_TOKEN to enable them)');
      }
      if (!tokenMatches(req.headers.authorization, deps.metricsToken)) {
        throw fail('METRICS_TOKEN', 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>');
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  );
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
