/** Discord role sync (issue 43): membership and levels from the community server's roles. */
import { defineFeature } from '../../platform/feature.ts';
import type { RolesConfig } from './config.ts';
import { createReconciler, type Reconciler } from './reconcile.ts';
import { rolesRoutes } from './routes.ts';

export { type RolesConfig, rolesConfig, rolesEnv } from './config.ts';
export { checkAtSignIn, type Effects as RoleSyncEffects, type SignInVerdict } from './service.ts';
export type { RoleSyncTables } from './tables.ts';
export type { Reconciler };

/** Test seam: hands the reconciler to a test, which moves the injected clock only while it waits. */
export type RolesOptions = { observe?: (reconciler: Reconciler) => void };

export const rolesFeature = (options: RolesOptions = {}) =>
  defineFeature<Reconciler, RolesConfig>({
    name: 'roles',
    config: (c) => c.roles,
    setup: ({ db, config, clock, log, realtime }) => {
      const reconciler = createReconciler({
        db,
        config,
        clock,
        log,
        disconnect: (id) => realtime.disconnectUser(id),
      });
      options.observe?.(reconciler);
      return reconciler;
    },
    routes: (ctx, reconciler) => rolesRoutes(ctx, reconciler),
    start: (_ctx, reconciler) => reconciler.start(),
    stop: (_ctx, reconciler) => reconciler.stop(),
  });
