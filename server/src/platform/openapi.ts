import swagger from '@fastify/swagger';
import { OpenApiDocument } from '@guildhall/common';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION } from './version.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The OpenAPI document, generated from every route's zod schemas (request and response) as they are
 * registered, so it cannot drift from what the server validates. Admins only: it maps the whole API.
 * Register before the features so every route is collected.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
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
    transform: jsonSchemaTransform,
  });

  app.get(
    OPENAPI_PATH,
    { config: { access: 'admin' }, schema: { response: { 200: OpenApiDocument } } },
    async () => OpenApiDocument.parse(app.swagger()),
  );
}
