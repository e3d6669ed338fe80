import {
  UPLOAD_REQUEST_CREATES_PER_HOUR,
  UploadRequestCreateBody,
  UploadRequestIdParams,
  UploadRequestResponse,
  UploadRequestsListResponse,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { perMemberKey } from '../../../platform/rate-limit/keys.ts';
import { dateOn } from '../../../platform/time.ts';
import type { FilesFeatureConfig } from '../config.ts';
import type { FilesContext } from '../context.ts';
import { shareBaseUrl } from '../shares/base-url.ts';
import { presentUploadRequest } from './present.ts';
import { closeUploadRequest, createUploadRequest, listUploadRequests } from './service.ts';

// Level user, as for shares; an API token with the `shares` scope may manage them too.
const write = { access: 'user', tokenScope: 'shares' } as const;

/** A member's upload links (issue 45): create one into an own folder, list them with what arrived, close one. */
export function uploadRequestRoutes(ctx: FilesContext, config: FilesFeatureConfig): FastifyPluginAsyncZod {
  const { db } = ctx;
  const baseUrl = (req: FastifyRequest) => shareBaseUrl(config, req);
  return async (app) => {
    app.post(
      '/api/upload-requests',
      {
        config: {
          ...write,
          rateLimit: {
            max: UPLOAD_REQUEST_CREATES_PER_HOUR,
            timeWindow: '1 hour',
            keyGenerator: perMemberKey,
          },
        },
        schema: { body: UploadRequestCreateBody, response: { 201: UploadRequestResponse } },
      },
      async (req, reply) => {
        const row = await createUploadRequest(db, req.auth!.user.discord_id, req.body, dateOn(ctx.clock));
        return reply
          .code(201)
          .send({ success: true as const, data: presentUploadRequest(row, baseUrl(req), ctx.clock.now()) });
      },
    );

    app.get(
      '/api/upload-requests',
      { config: write, schema: { response: { 200: UploadRequestsListResponse } } },
      async (req) => {
        const rows = await listUploadRequests(db, req.auth!.user.discord_id);
        return {
          success: true as const,
          data: rows.map((r) => presentUploadRequest(r, baseUrl(req), ctx.clock.now())),
        };
      },
    );

    app.post(
      '/api/upload-requests/:id/close',
      { config: write, schema: { params: UploadRequestIdParams, response: { 200: UploadRequestResponse } } },
      async (req) => {
        const row = await closeUploadRequest(ctx, req.auth!.user.discord_id, req.params.id);
        return { success: true as const, data: presentUploadRequest(row, baseUrl(req), ctx.clock.now()) };
      },
    );
  };
}
