import { MUSIC_BOT_LEASE_SECONDS_DEFAULT } from '@guildhall/common';
import { z } from 'zod';
import { defineConfig } from '../../platform/config/define.ts';
import { httpUrl, optionalString } from '../../platform/config/env.ts';

/** The music feature's settings: what its FeatureContext `config` holds. */
export type MusicConfig = {
  youtubeBaseUrl: string;
  soundcloudApiUrl: string;
  soundcloudClientId?: string;
  /** LRCLIB's base URL (no trailing slash needed): the lyrics panel asks `/api/get` and `/api/search`. */
  lyricsUrl: string;
  /** Spotify's app credentials (both or neither), and where its Web API and token service answer. */
  spotify: { clientId?: string; clientSecret?: string; apiUrl: string; accountsUrl: string };
  /** How long the bot stays in a voice channel alone or with nothing playing. */
  idleLeaveMs: number;
  /**
   * With several instances (PostgreSQL): how long the holder's lease on the bot lasts unrenewed, i.e.
   * how long after a holder dies another instance takes the bot over.
   */
  leaseTtlMs: number;
};

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
      schema: httpUrl('YOUTUBE_BASE_URL').default('https://www.youtube.com'),
      doc: 'where the YouTube client sends its requests (a proxy, or a fixture in tests)',
    },
    SOUNDCLOUD_API_URL: {
      schema: httpUrl('SOUNDCLOUD_API_URL').default('https://api-v2.soundcloud.com'),
      doc: 'SoundCloud API base',
    },
    SOUNDCLOUD_CLIENT_ID: {
      schema: optionalString,
      doc: 'SoundCloud client id; without it SoundCloud shows as Unavailable',
    },
    /** LRCLIB's API (synced lyrics, issue 48); a self-hosted LRCLIB, or a test fake on loopback. */
    MUSIC_LYRICS_URL: {
      schema: httpUrl('MUSIC_LYRICS_URL').default('https://lrclib.net'),
      doc: "LRCLIB API base for the music panel's Lyrics tab (a self-hosted LRCLIB, or a fake in tests)",
    },
    /** Spotify's Web API (issue 48): the admin's app, client-credentials flow; without both, links say so. */
    SPOTIFY_CLIENT_ID: {
      schema: optionalString,
      doc: "a Spotify app's client id (developer.spotify.com); without it and the secret, a pasted Spotify link says what to configure",
    },
    SPOTIFY_CLIENT_SECRET: {
      schema: optionalString,
      doc: "that Spotify app's client secret (client-credentials flow, no member account)",
    },
    SPOTIFY_API_URL: {
      schema: httpUrl('SPOTIFY_API_URL').default('https://api.spotify.com'),
      doc: "Spotify's Web API (a fake in tests)",
    },
    SPOTIFY_ACCOUNTS_URL: {
      schema: httpUrl('SPOTIFY_ACCOUNTS_URL').default('https://accounts.spotify.com'),
      doc: "Spotify's token service (`POST /api/token`; a fake in tests)",
    },
    MUSIC_IDLE_LEAVE_SECONDS: {
      schema: z.coerce
        .number({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be a number' })
        .int({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be whole seconds' })
        .min(1, { error: 'MUSIC_IDLE_LEAVE_SECONDS must be at least 1' })
        .default(300),
      doc: 'the bot leaves a voice channel after this long alone or with nothing playing',
    },
    MUSIC_BOT_LEASE_SECONDS: {
      schema: z.coerce
        .number({ error: 'MUSIC_BOT_LEASE_SECONDS must be a number' })
        .min(1, { error: 'MUSIC_BOT_LEASE_SECONDS must be at least 1' })
        .max(600, { error: 'MUSIC_BOT_LEASE_SECONDS must be at most 600' })
        .default(MUSIC_BOT_LEASE_SECONDS_DEFAULT),
      doc: "several instances (PostgreSQL): how long the bot's holder keeps its lease without renewing it, i.e. how soon after a holder dies another instance takes the bot over ([docs/operations.md](docs/operations.md#one-music-bot-for-every-instance))",
    },
  },
  build: (e): MusicConfig => {
    return {
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
      idleLeaveMs: e.MUSIC_IDLE_LEAVE_SECONDS * 1000,
      leaseTtlMs: Math.round(e.MUSIC_BOT_LEASE_SECONDS * 1000),
    };
  },
});
