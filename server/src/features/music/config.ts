import { MUSIC_BOT_LEASE_SECONDS_DEFAULT } from '@guildhall/common';
import { z } from 'zod';
import { defineConfig, type SliceOf } from '../../platform/config/define.ts';
import { httpUrl, optionalString } from '../../platform/config/env.ts';

/**
 * The slice the music feature's context holds: its own settings; the platform's bot, community server
 * and ffmpeg binaries; and the process-wide values the one-bot rule needs (issue 42): whether the
 * database is shared (PostgreSQL: a lease decides the bot's holder) and Redis (the other instances
 * forward commands to the holder through it).
 */
export type MusicFeatureConfig = MusicConfig & {
  /** DISCORD_BOT_TOKEN, DISCORD_BOT_API_URL, MUSIC_DEFAULT_GUILD_ID (`config.discord`). */
  botToken?: string;
  discordApiUrl: string;
  defaultGuildId?: string;
  /** FFMPEG_PATH, FFPROBE_PATH (`config.tools`). */
  ffmpegPath: string;
  ffprobePath: string;
  sharedDatabase: boolean;
  redisUrl?: string;
  redisPrefix: string;
  /** PUBLIC_URL: the Discord side's "Open portal" buttons link there. */
  publicUrl: string | null;
};

/**
 * The music feature's variables (docs/music.md): `config.music`. The bot's token, its REST base and the
 * community server are the platform's (`config.discord`), the ffmpeg binaries too (`config.tools`).
 */
export const musicConfig = defineConfig({
  title: 'Music (docs/music.md)',
  vars: {
    YOUTUBE_BASE_URL: {
      field: 'youtubeBaseUrl',
      schema: httpUrl('YOUTUBE_BASE_URL').default('https://www.youtube.com'),
      doc: 'where the YouTube client sends its requests (a proxy, or a fixture in tests)',
    },
    SOUNDCLOUD_API_URL: {
      field: 'soundcloudApiUrl',
      schema: httpUrl('SOUNDCLOUD_API_URL').default('https://api-v2.soundcloud.com'),
      doc: 'SoundCloud API base',
    },
    SOUNDCLOUD_CLIENT_ID: {
      field: 'soundcloudClientId',
      schema: optionalString,
      doc: 'SoundCloud client id; without it SoundCloud shows as Unavailable',
    },
    /** LRCLIB's API (synced lyrics, issue 48); a self-hosted LRCLIB, or a test fake on loopback. */
    MUSIC_LYRICS_URL: {
      field: 'lyricsUrl',
      schema: httpUrl('MUSIC_LYRICS_URL').default('https://lrclib.net'),
      doc: "LRCLIB API base for the music panel's Lyrics tab (a self-hosted LRCLIB, or a fake in tests)",
    },
    /** Spotify's Web API (issue 48): the admin's app, client-credentials flow; without both, links say so. */
    SPOTIFY_CLIENT_ID: {
      field: 'spotify.clientId',
      schema: optionalString,
      doc: "a Spotify app's client id (developer.spotify.com); without it and the secret, a pasted Spotify link says what to configure",
    },
    SPOTIFY_CLIENT_SECRET: {
      field: 'spotify.clientSecret',
      schema: optionalString,
      doc: "that Spotify app's client secret (client-credentials flow, no member account)",
    },
    SPOTIFY_API_URL: {
      field: 'spotify.apiUrl',
      schema: httpUrl('SPOTIFY_API_URL').default('https://api.spotify.com'),
      doc: "Spotify's Web API (a fake in tests)",
    },
    SPOTIFY_ACCOUNTS_URL: {
      field: 'spotify.accountsUrl',
      schema: httpUrl('SPOTIFY_ACCOUNTS_URL').default('https://accounts.spotify.com'),
      doc: "Spotify's token service (`POST /api/token`; a fake in tests)",
    },
    MUSIC_IDLE_LEAVE_SECONDS: {
      field: 'idleLeaveMs',
      schema: z.coerce
        .number({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be a number' })
        .int({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be whole seconds' })
        .min(1, { error: 'MUSIC_IDLE_LEAVE_SECONDS must be at least 1' })
        .default(300)
        .transform((seconds) => seconds * 1000),
      doc: 'the bot leaves a voice channel after this long alone or with nothing playing',
    },
    MUSIC_BOT_LEASE_SECONDS: {
      field: 'leaseTtlMs',
      schema: z.coerce
        .number({ error: 'MUSIC_BOT_LEASE_SECONDS must be a number' })
        .min(1, { error: 'MUSIC_BOT_LEASE_SECONDS must be at least 1' })
        .max(600, { error: 'MUSIC_BOT_LEASE_SECONDS must be at most 600' })
        .default(MUSIC_BOT_LEASE_SECONDS_DEFAULT)
        .transform((seconds) => Math.round(seconds * 1000)),
      doc: "several instances (PostgreSQL): how long the bot's holder keeps its lease without renewing it, i.e. how soon after a holder dies another instance takes the bot over ([docs/operations.md](docs/operations.md#one-music-bot-for-every-instance))",
    },
  },
});

/**
 * The music feature's settings (`config.music`). `idleLeaveMs`: how long the bot stays in a voice channel
 * alone or with nothing playing; `leaseTtlMs`: with several instances (PostgreSQL), how long the holder's
 * lease on the bot lasts unrenewed, i.e. how long after a holder dies another instance takes it over.
 */
export type MusicConfig = SliceOf<typeof musicConfig>;
