import { NO_ROLE_POLICIES, type NoRolePolicy, ROLE_SYNC_DEFAULTS } from '@guildhall/common';
import { z } from 'zod';
import { type EnvOf, nonNegativeInt, optionalString, positiveInt } from '../../platform/config/env.ts';

/**
 * Role sync's variables (docs/admin.md, "Roles from Discord"): the defaults of the settings an admin
 * edits in the panel (a setting saved there wins). config.ts adds them to the one environment schema.
 */
export const rolesEnv = {
  ROLE_SYNC: z
    .enum(['on', 'off', ''], { error: 'ROLE_SYNC must be on or off' })
    .default('off')
    .transform((v) => v === 'on'),
  ROLE_SYNC_GUILD_ID: optionalString.refine((v) => v === undefined || /^\d{17,20}$/.test(v), {
    message: 'ROLE_SYNC_GUILD_ID must be a Discord server id (17–20 digits)',
  }),
  ROLE_SYNC_NO_ROLE: z
    .enum(NO_ROLE_POLICIES, { error: `ROLE_SYNC_NO_ROLE must be one of ${NO_ROLE_POLICIES.join(', ')}` })
    .default(ROLE_SYNC_DEFAULTS.noRole),
  ROLE_SYNC_DEMOTION_BRAKE: nonNegativeInt('ROLE_SYNC_DEMOTION_BRAKE').default(
    ROLE_SYNC_DEFAULTS.demotionBrake,
  ),
  ROLE_SYNC_MEMBER_EVENTS: z
    .enum(['on', 'off', ''], { error: 'ROLE_SYNC_MEMBER_EVENTS must be on or off' })
    .default('off')
    .transform((v) => v === 'on'),
  ROLE_SYNC_INTERVAL_SECONDS: positiveInt('ROLE_SYNC_INTERVAL_SECONDS')
    .min(10, { error: 'ROLE_SYNC_INTERVAL_SECONDS must be at least 10' })
    .default(ROLE_SYNC_DEFAULTS.intervalSeconds),
};

/** Role sync's slice: the env defaults of its settings, and the bot it looks through. */
export type RolesConfig = {
  defaults: {
    enabled: boolean;
    guildId: string | null;
    noRole: NoRolePolicy;
    demotionBrake: number;
    intervalSeconds: number;
  };
  /** The music bot's token and REST base (DISCORD_BOT_TOKEN, DISCORD_BOT_API_URL): one bot for both. */
  botToken?: string;
  apiUrl: string;
  /** ADMIN_DISCORD_IDS: the sync never changes them. */
  adminDiscordIds: string[];
  /**
   * ROLE_SYNC_MEMBER_EVENTS: the bot asks for the privileged Server Members intent and applies
   * GUILD_MEMBER_UPDATE / GUILD_MEMBER_REMOVE as they come (the admin enables the intent in the portal).
   */
  memberEvents: boolean;
};

/** The guild defaults to the music bot's default server (MUSIC_DEFAULT_GUILD_ID). */
export function rolesConfig(
  e: EnvOf<typeof rolesEnv>,
  shared: { botToken?: string; apiUrl: string; musicGuildId?: string; adminDiscordIds: string[] },
): RolesConfig {
  return {
    defaults: {
      enabled: e.ROLE_SYNC,
      guildId: e.ROLE_SYNC_GUILD_ID ?? shared.musicGuildId ?? null,
      noRole: e.ROLE_SYNC_NO_ROLE,
      demotionBrake: e.ROLE_SYNC_DEMOTION_BRAKE,
      intervalSeconds: e.ROLE_SYNC_INTERVAL_SECONDS,
    },
    botToken: shared.botToken,
    apiUrl: shared.apiUrl,
    adminDiscordIds: shared.adminDiscordIds,
    memberEvents: e.ROLE_SYNC_MEMBER_EVENTS,
  };
}
