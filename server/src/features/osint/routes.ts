import fs from 'node:fs';
import {
  ApiError,
  OSINT_HISTORY_TEXTS,
  OSINT_PROGRESS_EVENT,
  OSINT_SEARCHES_RUNNING_MAX,
  OsintExportQuery,
  OsintHistoryResponse,
  OsintSearchBody,
  OsintSearchIdParams,
  OsintSearchResponse,
  OsintSiteListInfo,
  userRoom,
} from '@guildhall/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, httpError } from '../../platform/errors.ts';
import type { FeatureContext } from '../../platform/feature.ts';
import type { Outbound } from '../../platform/outbound/index.ts';
import { perMemberKey } from '../../platform/rate-limit/keys.ts';
import type { OsintContext } from './context.ts';
import { exportFileName, searchToCsv } from './export.ts';
import { getSearch, listSearches } from './history.ts';
import { createResolverProbe } from './readiness.ts';
import { osintReportRoutes } from './reports-routes.ts';
import { disabledSiteNames, siteListInfo } from './site-state.ts';

type Loaded = {
  ctx: OsintContext;
  outbound: Outbound;
  runSearch: typeof import('./service.ts').runSearch;
  outboundScope: typeof import('../../platform/outbound/index.ts').outboundScope;
};

/**
 * POST /api/osint/search (portal-tools §7). Any approved member (viewers too: "a stored login is
 * required"); searches count per user against OSINT_SEARCHES_PER_MINUTE, and at most
 * OSINT_SEARCHES_RUNNING_MAX run at once per member. A search stops when its client goes away. The
 * sources, the fetcher and the site list load on the first search, so they cost nothing at start-up
 * (bench/startup). Beyond the spec: the member's history, its export, the site list's state, reports.
 */
export function osintRoutes(deps: FeatureContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = deps.config.osint;
    let loaded: Promise<Loaded> | undefined;
    const load = () => {
      loaded ??= (async () => {
        const [
          outbound,
          { outboundScope },
          { createRdapClient },
          { createGeoLookup },
          { loadSites },
          { runSearch },
        ] = await Promise.all([
          deps.outbound(), // the platform's one fetcher, created on first use
          import('../../platform/outbound/index.ts'),
          import('./rdap.ts'),
          import('./geo.ts'),
          import('./sites.ts'),
          import('./service.ts'),
        ]);
        const ctx: OsintContext = {
          outbound,
          config,
          sites: loadSites(config.sitesFile),
          rdap: createRdapClient(outbound, config.rdapBootstrapUrl),
          geo: createGeoLookup(),
        };
        return { ctx, outbound, runSearch, outboundScope };
      })();
      loaded.catch(() => {
        loaded = undefined;
      });
      return loaded;
    };
    const running = new Map<string, number>();
    if (deps.config.outbound.testAllow.length > 0) {
      app.log.warn(
        { allow: deps.config.outbound.testAllow },
        'OUTBOUND_TEST_ALLOW is set: the OSINT fetcher may reach these loopback addresses. Test harnesses only; never in production.',
      );
    }
    // Optional: without DNS every source is "could not check", but the rest of the portal is fine.
    app.readiness.add('osintDns', createResolverProbe(deps.config.outbound.dnsServers), { optional: true });

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
        const user = req.auth!.user;
        const { searchId } = req.body;
        const busy = running.get(user.discord_id) ?? 0;
        if (busy >= OSINT_SEARCHES_RUNNING_MAX)
          throw httpError(429, OSINT_HISTORY_TEXTS.tooManyRunning, 'BUSY');
        running.set(user.discord_id, busy + 1);
        // The member went away (tab closed, request aborted): stop every request of the search.
        const controller = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) controller.abort(new Error('client went away'));
        };
        reply.raw.on('close', onClose);
        try {
          const { ctx, runSearch, outboundScope } = await load();
          const disabled = await disabledSiteNames(deps.db);
          const searchCtx: OsintContext = {
            ...ctx,
            sites: disabled.size > 0 ? ctx.sites.filter((s) => !disabled.has(s.name)) : ctx.sites,
            disabledSites: ctx.sites.filter((s) => disabled.has(s.name)).map((s) => s.name),
            signal: controller.signal,
            log: ({ source, err }) => req.log.warn({ source, err }, 'OSINT source could not check'),
          };
          const results = await outboundScope.run({ owner: user.discord_id, signal: controller.signal }, () =>
            runSearch(
              searchCtx,
              deps.db,
              { id: user.discord_id, username: user.username },
              req.body,
              searchId
                ? (progress) =>
                    deps.publish(userRoom(user.discord_id), OSINT_PROGRESS_EVENT, {
                      searchId,
                      ...progress,
                    })
                : undefined,
            ),
          );
          return { success: true as const, results, error: null };
        } catch (err) {
          if (controller.signal.aborted && !(err instanceof HttpError)) {
            // Nobody is listening; the status is for the log.
            throw new HttpError(499, 'The search was stopped because its page went away', 'SEARCH_ABORTED');
          }
          throw err;
        } finally {
          reply.raw.off('close', onClose);
          const n = (running.get(user.discord_id) ?? 1) - 1;
          if (n > 0) running.set(user.discord_id, n);
          else running.delete(user.discord_id);
        }
      },
    );

    app.get(
      '/api/osint/searches',
      { config: { access: 'login' }, schema: { response: { 200: OsintHistoryResponse } } },
      async (req) => ({
        searches: await listSearches(deps.db, req.auth!.user.discord_id, config.historyDays),
        keptDays: config.historyDays,
      }),
    );

    app.get(
      '/api/osint/searches/:id',
      {
        config: { access: 'login' },
        schema: { params: OsintSearchIdParams, response: { 200: OsintSearchResponse, 404: ApiError } },
      },
      async (req) => {
        const result = await getSearch(deps.db, req.auth!.user.discord_id, req.params.id, config.historyDays);
        if (!result) throw httpError(404, OSINT_HISTORY_TEXTS.notFound, 'NOT_FOUND');
        return { success: true as const, results: result, error: null };
      },
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
        const result = await getSearch(deps.db, req.auth!.user.discord_id, req.params.id, config.historyDays);
        if (!result) throw httpError(404, OSINT_HISTORY_TEXTS.notFound, 'NOT_FOUND');
        const format = req.query.format;
        reply
          .header('content-disposition', `attachment; filename="${exportFileName(result, format)}"`)
          .header('cache-control', 'no-store');
        if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(searchToCsv(result));
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(result, null, 2));
      },
    );

    app.get(
      '/api/osint/sites',
      { config: { access: 'login' }, schema: { response: { 200: OsintSiteListInfo } } },
      async () => {
        const { ctx } = await load();
        // A replaced list (OSINT_SITES_FILE) is as old as its file.
        const listDate = config.sitesFile
          ? fs.statSync(config.sitesFile).mtime.toISOString().slice(0, 10)
          : undefined;
        return siteListInfo(deps.db, ctx.sites, listDate);
      },
    );

    await app.register(osintReportRoutes(deps));
  };
}
