import { MUSIC_BOT_LEASE_SECONDS_DEFAULT } from '@guildhall/common';
import { z } from 'zod';
import { type EnvOf, httpUrl, optionalString } from '../../platform/config/env.ts';

/** The music feature's variables (docs/music.md); config.ts adds them to the one environment schema. */
export const musicEnv = {
  DISCORD_BOT_TOKEN: optionalString,
  MUSIC_DEFAULT_GUILD_ID: optionalString.refine((v) => v === undefined || /^\d{1,20}$/.test(v), {
    message: 'MUSIC_DEFAULT_GUILD_ID must be a Discord server id (digits)',
  }),
  DISCORD_BOT_API_URL: httpUrl('DISCORD_BOT_API_URL').default('https://discord.com/api'),
  YOUTUBE_BASE_URL: httpUrl('YOUTUBE_BASE_URL').default('https://www.youtube.com'),
  SOUNDCLOUD_API_URL: httpUrl('SOUNDCLOUD_API_URL').default('https://api-v2.soundcloud.com'),
  SOUNDCLOUD_CLIENT_ID: optionalString,
  /** LRCLIB's API (synced lyrics, issue 48); a self-hosted LRCLIB, or a test fake on loopback. */
  MUSIC_LYRICS_URL: httpUrl('MUSIC_LYRICS_URL').default('https://lrclib.net'),
  /** Spotify's Web API (issue 48): the admin's app, client-credentials flow; without both, links say so. */
  SPOTIFY_CLIENT_ID: optionalString,
  SPOTIFY_CLIENT_SECRET: optionalString,
  SPOTIFY_API_URL: httpUrl('SPOTIFY_API_URL').default('https://api.spotify.com'),
  SPOTIFY_ACCOUNTS_URL: httpUrl('SPOTIFY_ACCOUNTS_URL').default('https://accounts.spotify.com'),
  FFMPEG_PATH: z.string().trim().min(1, { error: 'FFMPEG_PATH must not be empty' }).default('ffmpeg'),
  FFPROBE_PATH: z.string().trim().min(1, { error: 'FFPROBE_PATH must not be empty' }).default('ffprobe'),
  MUSIC_IDLE_LEAVE_SECONDS: z.coerce
    .number({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be a number' })
    .int({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be whole seconds' })
    .min(1, { error: 'MUSIC_IDLE_LEAVE_SECONDS must be at least 1' })
    .default(300),
  MUSIC_BOT_LEASE_SECONDS: z.coerce
    .number({ error: 'MUSIC_BOT_LEASE_SECONDS must be a number' })
    .min(1, { error: 'MUSIC_BOT_LEASE_SECONDS must be at least 1' })
    .max(600, { error: 'MUSIC_BOT_LEASE_SECONDS must be at most 600' })
    .default(MUSIC_BOT_LEASE_SECONDS_DEFAULT),
};

/** The music feature's settings: what its FeatureContext `config` holds. */
export type MusicConfig = {
  botToken?: string;
  defaultGuildId?: string;
  discordApiUrl: string;
  youtubeBaseUrl: string;
  soundcloudApiUrl: string;
  soundcloudClientId?: string;
  /** LRCLIB's base URL (no trailing slash needed): the lyrics panel asks `/api/get` and `/api/search`. */
  lyricsUrl: string;
  /** Spotify's app credentials (both or neither), and where its Web API and token service answer. */
  spotify: { clientId?: string; clientSecret?: string; apiUrl: string; accountsUrl: string };
  ffmpegPath: string;
  ffprobePath: string;
  /** How long the bot stays in a voice channel alone or with nothing playing. */
  idleLeaveMs: number;
  /**
   * With several instances (PostgreSQL): how long the holder's lease on the bot lasts unrenewed, i.e.
   * how long after a holder dies another instance takes the bot over.
   */
  leaseTtlMs: number;
};

/**
 * The slice the music feature's context holds: its own settings, and the process-wide values the one-bot
 * rule needs (issue 42): whether the database is shared (PostgreSQL: a lease decides the bot's holder)
 * and Redis (the other instances forward commands to the holder through it).
 */
export type MusicFeatureConfig = MusicConfig & {
  sharedDatabase: boolean;
  redisUrl?: string;
  redisPrefix: string;
  /** PUBLIC_URL: the Discord side's "Open portal" buttons link there. */
  publicUrl: string | null;
};

export function musicConfig(e: EnvOf<typeof musicEnv>): MusicConfig {
  return {
    botToken: e.DISCORD_BOT_TOKEN,
    defaultGuildId: e.MUSIC_DEFAULT_GUILD_ID,
    discordApiUrl: e.DISCORD_BOT_API_URL,
    youtubeBaseUrl: e.YOUTUBE_BASE_URL,
    soundcloudApiUrl: e.SOUNDCLOUD_API_URL,
    soundcloudClientId: e.SOUNDCLOUD_CLIENT_ID,
    lyricsUrl: e.MUSIC_LYRICS_URL,
    spotify: {
      clientId: e.SPOTIFY_CLIENT_ID,
      clientSecret: e.SPOTIFY_CLIENT_SECRET,
      apiUrl: e.SPOTIFY_API_URL.replace(/\/+$/, ''),
      accountsUrl: e.SPOTIFY_ACCOUNTS_URL.replace(/\/+$/, ''),
    },
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    idleLeaveMs: e.MUSIC_IDLE_LEAVE_SECONDS * 1000,
    leaseTtlMs: Math.round(e.MUSIC_BOT_LEASE_SECONDS * 1000),
  };
}
