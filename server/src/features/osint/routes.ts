import {
  ApiError,
  OsintExportQuery,
  OsintHistoryResponse,
  OsintSearchBody,
  OsintSearchIdParams,
  OsintSearchResponse,
  OsintSiteListInfo,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FeatureContext } from '../../platform/feature.ts';
import { perMemberKey } from '../../platform/rate-limit/keys.ts';
import type { OsintFeatureConfig } from './config.ts';
import type { OsintService } from './osint-service.ts';
import { osintReportRoutes } from './reports-routes.ts';

/**
 * POST /api/osint/search (portal-tools §7). Any approved member (viewers too: "a stored login is
 * required"); searches count per user against OSINT_SEARCHES_PER_MINUTE, and at most
 * OSINT_SEARCHES_RUNNING_MAX run at once per member. A search stops when its client goes away. The
 * sources, the fetcher and the site list load on the first search, so they cost nothing at start-up
 * (bench/startup). Beyond the spec: the member's history, its export, the site list's state, reports.
 */
export function osintRoutes(
  deps: FeatureContext<OsintFeatureConfig>,
  osint: OsintService,
): FastifyPluginAsyncZod {
  return async (app) => {
    const config = deps.config;

    app.post(
      '/api/osint/search',
      {
        config: {
          access: 'login',
          rateLimit: {
            max: config.searchesPerMinute,
            timeWindow: '1 minute',
            keyGenerator: perMemberKey,
          },
        },
        schema: {
          body: OsintSearchBody,
          response: { 200: OsintSearchResponse, 400: ApiError, 429: ApiError },
        },
      },
      async (req, reply) => {
        // The member went away (tab closed, request aborted): stop every request of the search.
        const controller = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) controller.abort(new Error('client went away'));
        };
        reply.raw.on('close', onClose);
        try {
          const results = await osint.search(req.auth!.user, req.body, controller.signal, ({ source, err }) =>
            req.log.warn({ source, err }, 'OSINT source could not check'),
          );
          return { success: true as const, results, error: null };
        } finally {
          reply.raw.off('close', onClose);
        }
      },
    );

    app.get(
      '/api/osint/searches',
      { config: { access: 'login' }, schema: { response: { 200: OsintHistoryResponse } } },
      (req) => osint.history(req.auth!.user),
    );

    app.get(
      '/api/osint/searches/:id',
      {
        config: { access: 'login' },
        schema: { params: OsintSearchIdParams, response: { 200: OsintSearchResponse, 404: ApiError } },
      },
      async (req) => ({
        success: true as const,
        results: await osint.ownSearch(req.auth!.user, req.params.id),
        error: null,
      }),
    );

    app.get(
      '/api/osint/searches/:id/export',
      {
        config: { access: 'login' },
        schema: {
          params: OsintSearchIdParams,
          querystring: OsintExportQuery,
          // The file itself: JSON (the stored result) or CSV text.
          response: { 200: z.string(), 400: ApiError, 404: ApiError },
        },
      },
      async (req, reply) => {
        const file = await osint.exportSearch(req.auth!.user, req.params.id, req.query.format);
        return reply
          .header('content-disposition', `attachment; filename="${file.name}"`)
          .header('cache-control', 'no-store')
          .type(file.type)
          .send(file.text);
      },
    );

    app.get(
      '/api/osint/sites',
      { config: { access: 'login' }, schema: { response: { 200: OsintSiteListInfo } } },
      () => osint.siteList(),
    );

    await app.register(osintReportRoutes(osint));
  };
}
