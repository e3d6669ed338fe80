import {
  ApiError,
  OsintReportBody,
  OsintReportDecisionBody,
  OsintReportDecisionResponse,
  OsintReportIdParams,
  OsintReportsResponse,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OsintService } from './osint-service.ts';

/**
 * "Report a wrong result" (issue 28): members report, admins review and decide (osint/reports.ts).
 */
export function osintReportRoutes(osint: OsintService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/osint/reports',
      {
        config: { access: 'login', rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          body: OsintReportBody,
          response: {
            201: z.object({ id: z.string(), siteDisabled: z.boolean() }),
            400: ApiError,
            404: ApiError,
          },
        },
      },
      async (req, reply) => reply.code(201).send(await osint.report(req.auth!.user, req.body)),
    );

    app.get(
      '/api/osint/reports',
      { config: { access: 'admin' }, schema: { response: { 200: OsintReportsResponse } } },
      () => osint.reports(),
    );

    app.put(
      '/api/osint/reports/:id',
      {
        config: { access: 'admin' },
        schema: {
          params: OsintReportIdParams,
          body: OsintReportDecisionBody,
          response: { 200: OsintReportDecisionResponse, 404: ApiError },
        },
      },
      (req) => osint.decide(req.auth!.user, req.params.id, req.body.decision),
    );
  };
}
