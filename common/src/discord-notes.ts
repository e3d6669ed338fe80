import { z } from 'zod';

/**
 * Channel notes (issue 44): the bot posts a short note in one channel of the community's server when a
 * file is shared by a public link, a game lobby opens, or a song is requested. Each event is opt-in, all
 * are off by default, and a note never mentions anyone. The admin API's shapes and the notes' texts.
 */
export const DISCORD_NOTE_EVENTS = ['share', 'lobby', 'song'] as const;
export type DiscordNoteEvent = (typeof DISCORD_NOTE_EVENTS)[number];

export const DISCORD_NOTE_EVENT_LABELS: Record<DiscordNoteEvent, { label: string; hint: string }> = {
  share: {
    label: 'A file shared by public link',
    hint: 'Name, size, who shared it and the link. Never for users-only or password shares.',
  },
  lobby: {
    label: 'A game lobby opened',
    hint: 'A Pictionary lobby or tic-tac-toe room anyone may join, with a Join button.',
  },
  song: { label: 'A song requested', hint: 'The title and who asked for it.' },
};

const Snowflake = z
  .string({ error: 'channelId must be a Discord channel id' })
  .regex(/^\d{17,20}$/, { error: 'channelId must be a Discord channel id (17–20 digits)' });

export const DiscordNotesEvents = z.object({
  share: z.boolean({ error: 'share must be true or false' }),
  lobby: z.boolean({ error: 'lobby must be true or false' }),
  song: z.boolean({ error: 'song must be true or false' }),
});
export type DiscordNotesEvents = z.infer<typeof DiscordNotesEvents>;

/** The saved settings: the channel (none: no notes) and the events that post one. */
export const DiscordNotesSettings = z.object({
  channelId: z.string().nullable(),
  events: DiscordNotesEvents,
});
export type DiscordNotesSettings = z.infer<typeof DiscordNotesSettings>;

export const DISCORD_NOTES_DEFAULTS: DiscordNotesSettings = {
  channelId: null,
  events: { share: false, lobby: false, song: false },
};

/** PUT /api/admin/discord-notes: the whole settings (the card saves its form at once). */
export const DiscordNotesSettingsBody = z.strictObject({
  channelId: Snowflake.nullable(),
  events: DiscordNotesEvents,
});
export type DiscordNotesSettingsBody = z.infer<typeof DiscordNotesSettingsBody>;

export const DiscordNotesState = z.object({
  settings: DiscordNotesSettings,
  /** What keeps notes from being posted at all (no bot token, no server, no PUBLIC_URL), or null. */
  notConfigured: z.string().nullable(),
});
export type DiscordNotesState = z.infer<typeof DiscordNotesState>;
export const DiscordNotesResponse = z.object({ success: z.literal(true), data: DiscordNotesState });

/** The text channels of the server as the bot sees them, or why it could not look. */
export const DiscordTextChannel = z.object({ id: z.string(), name: z.string(), position: z.number() });
export type DiscordTextChannel = z.infer<typeof DiscordTextChannel>;
export const DiscordChannelsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    guildName: z.string().nullable(),
    channels: z.array(DiscordTextChannel),
    problem: z.string().nullable(),
  }),
});

export const DiscordTestNoteResponse = z.object({ success: z.literal(true), message: z.string() });

export const DISCORD_NOTE_TEXTS = {
  shared: (who: string, name: string, size: string, url: string) =>
    `**${who}** shared **${name}** (${size}): ${url}`,
  pictionaryLobby: (who: string) => `**${who}** opened a Pictionary lobby.`,
  tictactoeRoom: (who: string) => `**${who}** is waiting for a tic-tac-toe opponent.`,
  song: (who: string, title: string, more = 0) =>
    `**${who}** requested **${title}**${more > 0 ? ` and ${more} more` : ''}.`,
  test: (admin: string) => `Test note from the portal, sent by **${admin}**: channel notes arrive here.`,
  testSent: 'Test note sent: it is in the channel now.',
  testQueued: 'The bot runs on another instance: the test note is queued and posted within a few seconds.',
  noChannel: 'Choose a channel and save first.',
  noBot: 'Channel notes need the bot (DISCORD_BOT_TOKEN) and the server (MUSIC_DEFAULT_GUILD_ID).',
  noPublicUrl: 'Channel notes need the portal’s address (PUBLIC_URL) for their links.',
  refused: (why: string) => `Discord refused the note: ${why}`,
} as const;

/** How often the bot's instance posts the notes other instances queued. */
export const DISCORD_NOTES_DRAIN_MS = 2_000;
