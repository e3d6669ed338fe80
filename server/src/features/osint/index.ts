/** The OSINT lookup: what the app registers. */
import { defineFeature } from '../../platform/feature.ts';
import type { OsintFeatureConfig } from './config.ts';
import { pruneSearches } from './history.ts';
import { osintRoutes } from './routes.ts';

export { TOP_SITE_NAMES } from './top-sites.ts';

/** Stored searches older than OSINT_HISTORY_DAYS are deleted this often. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const osintFeature = defineFeature<{ pruner: NodeJS.Timeout | undefined }, OsintFeatureConfig>({
  name: 'osint',
  config: (c) => ({
    ...c.osint,
    outbound: { testAllow: c.outbound.testAllow, dnsServers: c.outbound.dnsServers },
  }),
  setup: () => ({ pruner: undefined }),
  routes: (ctx) => osintRoutes(ctx),
  // The fetcher belongs to the platform, which closes it; the history pruner is the feature's own.
  start: ({ db, config, log }, state) => {
    state.pruner = setInterval(() => {
      pruneSearches(db, config.historyDays).catch((err: unknown) =>
        log.warn({ err }, 'OSINT history: pruning old searches failed; will retry'),
      );
    }, PRUNE_EVERY_MS);
    state.pruner.unref();
  },
  stop: (_ctx, state) => {
    clearInterval(state.pruner);
    state.pruner = undefined;
  },
});

/** The site list's self-check (the admin CLI), loaded only when that command runs. */
export const loadSelfCheck = () => import('./self-check.ts');
