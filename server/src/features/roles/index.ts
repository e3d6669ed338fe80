/** Discord role sync (issue 43): membership and levels from the community server's roles. */
import { defineFeature } from '../../platform/feature.ts';
import type { RolesConfig } from './config.ts';
import { GUILD_MEMBERS_INTENT, hasMembersIntent, listenForMembers } from './events.ts';
import { createReconciler, type Reconciler } from './reconcile.ts';
import { ROLE_SYNC_CHECK, rolesRoutes } from './routes.ts';
import { effectsOf } from './service.ts';

export { type RolesConfig, rolesConfig } from './config.ts';
export {
  checkAtSignIn,
  type Effects as RoleSyncEffects,
  effectsOf as roleSyncEffects,
  type SignInVerdict,
} from './service.ts';
export type { RoleSyncTables } from './tables.ts';
export type { Reconciler };

/** Test seam: hands the reconciler to a test, which moves the injected clock only while it waits. */
export type RolesOptions = { observe?: (reconciler: Reconciler) => void };

export const rolesFeature = (options: RolesOptions = {}) =>
  defineFeature<Reconciler, RolesConfig>({
    name: 'roles',
    config: (c) => c.roles,
    setup: ({ db, config, clock, log, realtime, botHolder }) => {
      const reconciler = createReconciler({
        db,
        config,
        clock,
        log,
        effects: effectsOf(realtime, clock),
        // One reconcile per deployment: where the music bot is held (docs/operations.md, "One music bot").
        isHolder: () => botHolder.isHolder(),
        askIntentsAgain: () => botHolder.retryIntents(),
      });
      if (config.memberEvents) botHolder.wantIntents([GUILD_MEMBERS_INTENT]);
      const failed = (err: unknown) => log.error({ err }, 'role sync: could not record the intent');
      botHolder.onIntentsRefused(() => void reconciler.intentRefused(true).catch(failed));
      botHolder.onBotReady((client) => {
        // READY or a resumed session: events may have been missed, so one run re-checks everyone now.
        reconciler.kick();
        if (!config.memberEvents) return;
        listenForMembers(client, db, config, reconciler, log);
        // A session with the intent: a 4014 before (this process, or the instance that held the bot) is over.
        if (hasMembersIntent(client)) void reconciler.intentRefused(false).catch(failed);
      });
      // Check now and a saved change run where the reconcile runs, whichever instance the admin reached.
      botHolder.onHolderAsk(ROLE_SYNC_CHECK, () => reconciler.kick());
      options.observe?.(reconciler);
      return reconciler;
    },
    routes: (ctx) => rolesRoutes(ctx),
    start: (_ctx, reconciler) => reconciler.start(),
    stop: (_ctx, reconciler) => reconciler.stop(),
  });
