import { NO_ROLE_POLICIES, ROLE_SYNC_DEFAULTS } from '@guildhall/common';
import { z } from 'zod';
import { defineConfig, type SliceOf } from '../../platform/config/define.ts';
import { nonNegativeInt, optionalString, positiveInt } from '../../platform/config/env.ts';
import type { SharedConfig } from '../../platform/config/shared.ts';

/** What role sync's slice takes from the platform (`build`): the rest is its declared fields. */
type RolesShared = {
  /** ROLE_SYNC_GUILD_ID, else the community server (MUSIC_DEFAULT_GUILD_ID). */
  defaults: { guildId: string | null };
  /** The music bot's token and REST base (DISCORD_BOT_TOKEN, DISCORD_BOT_API_URL): one bot for both. */
  botToken?: string;
  apiUrl: string;
  /** ADMIN_DISCORD_IDS: the sync never changes them. */
  adminDiscordIds: string[];
};

/**
 * Role sync's variables (docs/admin.md, "Roles from Discord"): the defaults of the settings an admin
 * edits in the panel (a setting saved there wins). The bot, the community server (the guild's default)
 * and the admins it never changes are the platform's (`shared.discord`).
 */
export const rolesConfig = defineConfig({
  title: "Roles from Discord (docs/admin.md; the admin panel's settings win over these)",
  vars: {
    ROLE_SYNC: {
      field: 'defaults.enabled',
      schema: z
        .enum(['on', 'off', ''], { error: 'ROLE_SYNC must be on or off' })
        .default('off')
        .transform((v) => v === 'on'),
      doc: "`on`: membership and levels follow the Discord server's roles, looked up with the bot's token ([docs/admin.md](docs/admin.md#roles-from-discord-issue-43)); the admin panel's setting wins",
    },
    ROLE_SYNC_GUILD_ID: {
      schema: optionalString.refine((v) => v === undefined || /^\d{17,20}$/.test(v), {
        message: 'ROLE_SYNC_GUILD_ID must be a Discord server id (17–20 digits)',
      }),
      doc: "the community's Discord server",
      shownDefault: '`MUSIC_DEFAULT_GUILD_ID`',
    },
    ROLE_SYNC_NO_ROLE: {
      field: 'defaults.noRole',
      schema: z
        .enum(NO_ROLE_POLICIES, { error: `ROLE_SYNC_NO_ROLE must be one of ${NO_ROLE_POLICIES.join(', ')}` })
        .default(ROLE_SYNC_DEFAULTS.noRole),
      doc: 'a member of the server with no mapped role is `pending`, `viewer` or `refused`',
    },
    ROLE_SYNC_DEMOTION_BRAKE: {
      field: 'defaults.demotionBrake',
      schema: nonNegativeInt('ROLE_SYNC_DEMOTION_BRAKE').default(ROLE_SYNC_DEFAULTS.demotionBrake),
      doc: "a run that would demote more members than this waits for an admin's confirmation",
    },
    ROLE_SYNC_MEMBER_EVENTS: {
      field: 'memberEvents',
      schema: z
        .enum(['on', 'off', ''], { error: 'ROLE_SYNC_MEMBER_EVENTS must be on or off' })
        .default('off')
        .transform((v) => v === 'on'),
      doc: "`on`: the bot asks for the Server Members intent (enable it in Discord's developer portal) and applies member updates and removals as they happen; without the intent Discord closes with 4014 and the admin panel says so",
    },
    ROLE_SYNC_INTERVAL_SECONDS: {
      field: 'defaults.intervalSeconds',
      schema: positiveInt('ROLE_SYNC_INTERVAL_SECONDS')
        .min(10, { error: 'ROLE_SYNC_INTERVAL_SECONDS must be at least 10' })
        .default(ROLE_SYNC_DEFAULTS.intervalSeconds),
      doc: 'every linked member is re-checked within this time (at least 10)',
    },
  },
  // The guild defaults to the community server; the bot and the admins are the platform's.
  build: (e, shared: SharedConfig): RolesShared => ({
    defaults: { guildId: e.ROLE_SYNC_GUILD_ID ?? shared.discord.defaultGuildId ?? null },
    botToken: shared.discord.botToken,
    apiUrl: shared.discord.botApiUrl,
    adminDiscordIds: shared.discord.adminDiscordIds,
  }),
});

/**
 * Role sync's slice (`config.roles`): the env defaults of its settings (`defaults`), whether the bot
 * applies member events as they come (`memberEvents`: the privileged Server Members intent), and the bot
 * it looks through.
 */
export type RolesConfig = SliceOf<typeof rolesConfig>;
