import { defineConfig, type SliceOf } from './define.ts';
import { commaList, httpUrl, optionalString } from './env.ts';

/**
 * The community's Discord, named once for every feature that reaches it: the API base (sign-in's token
 * exchange, the Discord file store), the one bot (music, role sync, notices, notes, the Discord file
 * store post with its token), the community server (music's default, role sync's default, notes) and
 * the admins made at start-up (users' bootstrap; role sync never changes them).
 */
export const discordConfig = defineConfig({
  title: 'Discord: the application, the bot and the community server',
  vars: {
    DISCORD_API_URL: {
      field: 'apiUrl',
      schema: httpUrl('DISCORD_API_URL').default('https://discord.com/api'),
      doc: "Discord API base (token exchange, `/users/@me`, the file store's bot)",
    },
    ADMIN_DISCORD_IDS: {
      field: 'adminDiscordIds',
      schema: commaList().refine((ids) => ids.every((id) => /^\d{17,20}$/.test(id)), {
        message: 'ADMIN_DISCORD_IDS must be a comma-separated list of Discord ids (17–20 digits)',
      }),
      doc: 'comma-separated Discord ids made approved admins at startup (ends setup mode)',
      example: '175928847299117063',
    },
    DISCORD_BOT_TOKEN: {
      field: 'botToken',
      schema: optionalString,
      doc: "the bot's token (music, role sync, notices, the Discord file store); without it the portal runs and the music API says the bot is offline",
    },
    DISCORD_BOT_API_URL: {
      field: 'botApiUrl',
      schema: httpUrl('DISCORD_BOT_API_URL').default('https://discord.com/api'),
      doc: 'Discord REST base for the bot (the gateway and voice addresses come from Discord)',
    },
    MUSIC_DEFAULT_GUILD_ID: {
      field: 'defaultGuildId',
      schema: optionalString.refine((v) => v === undefined || /^\d{1,20}$/.test(v), {
        message: 'MUSIC_DEFAULT_GUILD_ID must be a Discord server id (digits)',
      }),
      doc: "the community's Discord server: the one the music panel opens when none is selected, and role sync's default",
    },
  },
});

/** The community's Discord (`config.discord`; see `discordConfig`). */
export type DiscordConfig = SliceOf<typeof discordConfig>;
