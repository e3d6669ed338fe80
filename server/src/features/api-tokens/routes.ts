import {
  API_TOKEN_CREATES_PER_HOUR,
  ApiTokenCreateBody,
  ApiTokenCreateResponse,
  ApiTokenIdParams,
  ApiTokensListResponse,
  OkResponse,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureContext } from '../../platform/feature.ts';
import { perMemberKey } from '../../platform/rate-limit/keys.ts';
import { presentApiToken } from './present.ts';
import { createApiToken, listApiTokens, revokeApiToken } from './service.ts';

// A member manages their own tokens with their session; a token never manages tokens (no tokenScope).
const own = { access: 'login' } as const;

/** Personal API tokens (issue 45): list, create (the token shown once), revoke. */
export function apiTokenRoutes({ db, clock }: FeatureContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/tokens',
      { config: own, schema: { response: { 200: ApiTokensListResponse } } },
      async (req) => {
        const rows = await listApiTokens(db, req.auth!.user.discord_id);
        return { success: true as const, data: rows.map((r) => presentApiToken(r, clock.now())) };
      },
    );

    app.post(
      '/api/tokens',
      {
        config: {
          ...own,
          rateLimit: { max: API_TOKEN_CREATES_PER_HOUR, timeWindow: '1 hour', keyGenerator: perMemberKey },
        },
        schema: { body: ApiTokenCreateBody, response: { 201: ApiTokenCreateResponse } },
      },
      async (req, reply) => {
        const { token, row } = await createApiToken(
          db,
          req.auth!.user.discord_id,
          req.body,
          new Date(clock.now()),
        );
        return reply
          .code(201)
          .send({ success: true as const, token, data: presentApiToken(row, clock.now()) });
      },
    );

    app.delete(
      '/api/tokens/:id',
      { config: own, schema: { params: ApiTokenIdParams, response: { 200: OkResponse } } },
      async (req) => {
        await revokeApiToken(db, req.auth!.user.discord_id, req.params.id, new Date(clock.now()));
        return { success: true as const, message: 'Token revoked' };
      },
    );
  };
}
