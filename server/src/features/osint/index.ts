/** The OSINT lookup: what the app registers. */
import { beatOn, defineFeature } from '../../platform/feature.ts';
import type { OsintFeatureConfig } from './config.ts';
import { createOsintService, type OsintService } from './osint-service.ts';
import { createResolverProbe } from './readiness.ts';
import { osintRoutes } from './routes.ts';

export { TOP_SITE_NAMES } from './top-sites.ts';

/** Stored searches older than OSINT_HISTORY_DAYS are deleted this often. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const osintFeature = defineFeature<
  { osint: OsintService; stopPruner: (() => void) | undefined },
  OsintFeatureConfig
>({
  name: 'osint',
  config: (c) => ({
    ...c.osint,
    outbound: { testAllow: c.outbound.testAllow, dnsServers: c.outbound.dnsServers },
  }),
  setup: (ctx) => {
    if (ctx.config.outbound.testAllow.length > 0) {
      ctx.log.warn(
        { allow: ctx.config.outbound.testAllow },
        'OUTBOUND_TEST_ALLOW is set: the OSINT fetcher may reach these loopback addresses. Test harnesses only; never in production.',
      );
    }
    // Optional: without DNS every source is "could not check", but the rest of the portal is fine.
    ctx.readiness.add('osintDns', createResolverProbe(ctx.config.outbound.dnsServers), { optional: true });
    return { osint: createOsintService(ctx), stopPruner: undefined };
  },
  routes: (ctx, state) => osintRoutes(ctx, state.osint),
  // The fetcher belongs to the platform, which closes it; the history pruner is the feature's own.
  start: ({ clock, log }, state) => {
    state.stopPruner = beatOn(clock, PRUNE_EVERY_MS, async () => {
      await state.osint
        .prune()
        .catch((err: unknown) => log.warn({ err }, 'OSINT history: pruning old searches failed; will retry'));
    });
  },
  stop: (_ctx, state) => {
    state.stopPruner?.();
    state.stopPruner = undefined;
  },
});

/** The site list's self-check (the admin CLI), loaded only when that command runs. */
export const loadSelfCheck = () => import('./self-check.ts');
