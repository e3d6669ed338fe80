import {
  DiscordRolesResponse,
  MyRoleSourceResponse,
  RoleSyncPinBody,
  RoleSyncPinParams,
  RoleSyncResponse,
  RoleSyncSettingsBody,
} from '@guildhall/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeatureContext } from '../../platform/feature.ts';
import type { RolesConfig } from './config.ts';
import { presentState } from './present.ts';
import {
  type AdminActor,
  confirmHeld,
  discardHeld,
  type Effects,
  effectsOf,
  listDiscordRoles,
  myRoleSync,
  saveSettings,
  setPinned,
} from './service.ts';

const admin = { access: 'admin' } as const;

/** The ask of the bot's holder (platform BotHolder) that starts a run of the reconcile there. */
export const ROLE_SYNC_CHECK = 'roles:check';

/** The admin API of the role sync, and the member's own "which role gave my level". */
export function rolesRoutes(ctx: FeatureContext<RolesConfig>): FastifyPluginAsyncZod {
  const { db, config, log } = ctx;
  // The reconcile runs on the bot's holder only (one per deployment): a run is asked there.
  const checkNow = async () => {
    if (!(await ctx.botHolder.askHolder(ROLE_SYNC_CHECK)))
      log.warn('role sync: no instance holding the bot could be asked for a run; it runs at its interval');
  };
  const effects: Effects = effectsOf(ctx.realtime, ctx.clock);
  const state = async () => ({ success: true as const, data: await presentState(db, config) });

  return async (app) => {
    app.get(
      '/api/admin/role-sync',
      { config: admin, schema: { response: { 200: RoleSyncResponse } } },
      state,
    );

    app.put(
      '/api/admin/role-sync',
      { config: admin, schema: { body: RoleSyncSettingsBody, response: { 200: RoleSyncResponse } } },
      async (req) => {
        await saveSettings(db, config, actorOf(req), req.body, effects);
        await checkNow();
        return state();
      },
    );

    // An admin who fixed what the banner names (or changed roles in Discord) asks for a run now rather than
    // at the next interval (10 minutes by default); the card re-reads the status while it runs.
    app.post(
      '/api/admin/role-sync/check',
      { config: admin, schema: { response: { 200: RoleSyncResponse } } },
      async () => {
        await checkNow();
        return state();
      },
    );

    app.get(
      '/api/admin/role-sync/discord-roles',
      { config: admin, schema: { response: { 200: DiscordRolesResponse } } },
      async () => ({ success: true as const, data: await listDiscordRoles(db, config, effects.now()) }),
    );

    app.post(
      '/api/admin/role-sync/held/confirm',
      { config: admin, schema: { response: { 200: RoleSyncResponse } } },
      async (req) => {
        await confirmHeld(db, actorOf(req), effects);
        return state();
      },
    );

    app.post(
      '/api/admin/role-sync/held/discard',
      { config: admin, schema: { response: { 200: RoleSyncResponse } } },
      async (req) => {
        await discardHeld(db, actorOf(req), effects.now());
        return state();
      },
    );

    app.put(
      '/api/admin/role-sync/pins/:id',
      {
        config: admin,
        schema: { params: RoleSyncPinParams, body: RoleSyncPinBody, response: { 200: RoleSyncResponse } },
      },
      async (req) => {
        await setPinned(db, actorOf(req), req.params.id, req.body.pinned);
        return state();
      },
    );

    app.get(
      '/api/role-sync/me',
      { config: { access: 'login' }, schema: { response: { 200: MyRoleSourceResponse } } },
      async (req) => ({
        success: true as const,
        data: await myRoleSync(db, config, req.auth!.user.discord_id),
      }),
    );
  };
}

function actorOf(req: FastifyRequest): AdminActor {
  const user = req.auth!.user;
  return { id: user.discord_id, username: user.username };
}
