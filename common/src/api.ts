import { z } from 'zod';
import { ERROR_CODE_NAMES } from './error-codes.ts';

/** The error envelope every API error uses: {success: false, error, code?}. */
export const ApiError = z.object({
  success: z.literal(false),
  error: z.string(),
  /** One of the catalogue's codes (error-codes.ts); its status is the one the catalogue gives it. */
  code: z
    .enum(ERROR_CODE_NAMES)
    .optional()
    .describe('an error code of the catalogue (common/src/error-codes.ts)'),
});
export type ApiError = z.infer<typeof ApiError>;

/** Who may call a route: anyone, any signed-in approved user, or a minimum level. */
export type RouteAccess = 'public' | 'login' | 'user' | 'moderator' | 'admin';

/**
 * A response that is bytes, not JSON (downloads, the web app's files). Declared so every route states
 * what it answers; Fastify never serializes a stream, so this only documents the body.
 */
export const BinaryBody = z.string().meta({ description: 'The raw bytes (not JSON)', format: 'binary' });

/** GET /api/openapi.json: the OpenAPI 3 document generated from the routes' schemas. */
export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;

/** The largest value an `integer` column holds on PostgreSQL (and so on every database we run on). */
export const INT32_MAX = 2_147_483_647;
