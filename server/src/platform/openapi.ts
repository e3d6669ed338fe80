import swagger from '@fastify/swagger';
import { ApiError, OpenApiDocument } from '@guildhall/common';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_VERSION } from './version.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The OpenAPI document, generated from every route's zod schemas (request and response) as they are
 * registered, so it cannot drift from what the server validates. Admins only: it maps the whole API.
 * Register before the features so every route is collected.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  // The error envelope (its `code` lists every code of the catalogue, ≈3 KB) answers every status of every
  // route: one component referenced from each, instead of ≈1,400 copies (a 2.5 MB document Swagger UI took
  // longer than a browser test's wait to draw on a slow machine; now a fraction of it).
  if (!z.globalRegistry.has(ApiError)) ApiError.register(z.globalRegistry, { id: 'ApiError' });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Guildhall API',
        version: APP_VERSION,
        description:
          'Generated from the route schemas. Sign in, then send `Authorization: Bearer <token>`. ' +
          'Errors use the envelope {success: false, error, code}; the codes and their statuses: common/src/error-codes.ts. Conventions: docs/api.md.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    // Each route under the part of the API it belongs to (`/api/music/…` → music), so the reference page
    // lists some twenty parts to open instead of 160 operations at once (Swagger UI drew only the first
    // few of a list that long).
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return { ...out, schema: { ...out.schema, tags: [apiPartOf(input.url)] } };
    },
    transformObject: jsonSchemaTransformObject,
  });

  app.get(
    OPENAPI_PATH,
    { config: { access: 'admin' }, schema: { response: { 200: OpenApiDocument } } },
    async () => OpenApiDocument.parse(app.swagger()),
  );
}

/** The part of the API a route belongs to: `/api/music/play` → `music`, `/healthz` → `operations`. */
export function apiPartOf(url: string): string {
  const [first, second] = url.split('/').filter(Boolean);
  if (first !== 'api' || !second) return 'operations';
  return second === 'openapi.json' ? 'operations' : second;
}
