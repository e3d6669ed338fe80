/** The OSINT lookup: what the app registers. */
import { defineFeature } from '../../platform/feature.ts';
import { pruneSearches } from './history.ts';
import { createResolverProbe } from './readiness.ts';
import { osintRoutes } from './routes.ts';

export { TOP_SITE_NAMES } from './sites.ts';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const osintFeature = defineFeature({
  name: 'osint',
  setup: (ctx) => {
    // Optional: without DNS every source is "could not check", but the rest of the portal is fine.
    ctx.readiness.add('osintDns', createResolverProbe(ctx.config.outbound.dnsServers), { optional: true });
    return { pruner: null as NodeJS.Timeout | null };
  },
  routes: (ctx) => osintRoutes(ctx),
  // Searches older than OSINT_HISTORY_DAYS are dropped hourly (and never listed once past it).
  start: (ctx, state) => {
    state.pruner = setInterval(() => {
      pruneSearches(ctx.db, ctx.config.osint.historyDays).catch((err: unknown) =>
        ctx.log.warn({ err }, 'OSINT history: pruning old searches failed; will retry'),
      );
    }, PRUNE_EVERY_MS);
    state.pruner.unref();
  },
  stop: (_ctx, state) => {
    if (state.pruner) clearInterval(state.pruner);
    state.pruner = null;
  },
});
