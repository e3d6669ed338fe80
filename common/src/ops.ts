import { z } from 'zod';

/** Paths a load balancer or monitor calls; never answered by the web app's fallback. */
export const OPS_PATHS = { liveness: '/healthz', readiness: '/readyz', metrics: '/metrics' } as const;

/** How long one readiness check may take before it counts as failed (the whole probe answers within 2 s). */
export const READINESS_CHECK_TIMEOUT_MS = 1500;

/** GET /healthz: the process is up and its event loop answers; `version` is the release it runs (semver). */
export const LivenessResponse = z.object({ status: z.literal('ok'), version: z.string() });
export type LivenessResponse = z.infer<typeof LivenessResponse>;

/**
 * One dependency's answer. `optional` marks a dependency whose failure degrades one feature (music, OSINT
 * sources) without failing readiness; the database and the blob store are required.
 */
export const ReadinessCheck = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  /** What a passing check has to say (the music bot: which instance holds it). */
  detail: z.string().optional(),
  optional: z.boolean().optional(),
});
export type ReadinessCheck = z.infer<typeof ReadinessCheck>;

/**
 * GET /readyz: 200 with status `ready` when every dependency answers, `degraded` (still 200) when only optional
 * ones fail, 503 with `not ready` when a required one fails.
 */
export const ReadinessResponse = z.object({
  status: z.enum(['ready', 'degraded', 'not ready']),
  checks: z.record(z.string(), ReadinessCheck),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponse>;
