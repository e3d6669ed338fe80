import {
  ApiError,
  OSINT_PROGRESS_EVENT,
  OsintSearchBody,
  OsintSearchResponse,
  userRoom,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureContext } from '../../platform/feature.ts';
import type { OsintContext } from './context.ts';

type Loaded = { ctx: OsintContext; runSearch: typeof import('./service.ts').runSearch };

/**
 * POST /api/osint/search (portal-tools §7). Any approved member (viewers too: "a stored login is
 * required"); searches count per user against OSINT_SEARCHES_PER_MINUTE. The sources, the fetcher and
 * the site list load on the first search, so they cost nothing at start-up (bench/startup).
 */
export function osintRoutes(deps: FeatureContext): FastifyPluginAsyncZod {
  return async (app) => {
    let loaded: Promise<Loaded> | undefined;
    const load = () => {
      loaded ??= (async () => {
        const [outbound, { createRdapClient }, { createGeoLookup }, { loadSites }, { runSearch }] =
          await Promise.all([
            deps.outbound(), // the platform's one fetcher, created on first use
            import('./rdap.ts'),
            import('./geo.ts'),
            import('./sites.ts'),
            import('./service.ts'),
          ]);
        const ctx: OsintContext = {
          outbound,
          config: deps.config.osint,
          sites: loadSites(deps.config.osint.sitesFile),
          rdap: createRdapClient(outbound, deps.config.osint.rdapBootstrapUrl),
          geo: createGeoLookup(),
        };
        return { ctx, runSearch };
      })();
      loaded.catch(() => {
        loaded = undefined;
      });
      return loaded;
    };
    if (deps.config.outbound.testAllow.length > 0) {
      app.log.warn(
        { allow: deps.config.outbound.testAllow },
        'OUTBOUND_TEST_ALLOW is set: the OSINT fetcher may reach these loopback addresses. Test harnesses only; never in production.',
      );
    }

    app.post(
      '/api/osint/search',
      {
        config: {
          access: 'login',
          rateLimit: {
            max: deps.config.osint.searchesPerMinute,
            timeWindow: '1 minute',
            keyGenerator: (req: FastifyRequest) =>
              req.auth ? `osint:${req.auth.user.discord_id}` : `osint-ip:${req.ip}`,
          },
        },
        schema: { body: OsintSearchBody, response: { 200: OsintSearchResponse, 400: ApiError } },
      },
      async (req) => {
        const user = req.auth!.user;
        const { searchId } = req.body;
        const { ctx, runSearch } = await load();
        const results = await runSearch(
          ctx,
          deps.db,
          { id: user.discord_id, username: user.username },
          req.body,
          searchId
            ? (progress) =>
                app.realtime.publish(userRoom(user.discord_id), OSINT_PROGRESS_EVENT, {
                  searchId,
                  ...progress,
                })
            : undefined,
        );
        return { success: true as const, results, error: null };
      },
    );
  };
}
