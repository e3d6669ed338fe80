import path from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message: `${name} must be an http(s) URL`,
    })
    .transform((v) => v.replace(/\/+$/, ''));

const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int({ error: 'PORT must be an integer' })
    .min(0, { error: 'PORT must be between 0 and 65535' })
    .max(65535, { error: 'PORT must be between 0 and 65535' })
    .default(3000),
  HOST: z.string().trim().min(1, { error: 'HOST must not be empty' }).default('0.0.0.0'),
  PUBLIC_URL: httpUrl('PUBLIC_URL').optional(),
  DATA_DIR: z.string().trim().min(1, { error: 'DATA_DIR must not be empty' }).default('./data'),
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^(sqlite:|postgres(ql)?:\/\/)/.test(v), {
    message: 'DATABASE_URL must start with sqlite: or postgres://',
  }),
  ACCESS_CODE: optionalString.refine((v) => v === undefined || v.length >= 8, {
    message: 'ACCESS_CODE must be at least 8 characters',
  }),
  ADMIN_DISCORD_IDS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((ids) => ids.every((id) => /^\d{17,20}$/.test(id)), {
      message: 'ADMIN_DISCORD_IDS must be a comma-separated list of Discord ids (17–20 digits)',
    }),
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_REDIRECT_URI: httpUrl('DISCORD_REDIRECT_URI').optional(),
  DISCORD_API_URL: httpUrl('DISCORD_API_URL').default('https://discord.com/api'),
  DISCORD_AUTHORIZE_URL: httpUrl('DISCORD_AUTHORIZE_URL').default('https://discord.com/oauth2/authorize'),
  MAX_UPLOAD_BYTES: z.coerce
    .number({ error: 'MAX_UPLOAD_BYTES must be a number' })
    .int({ error: 'MAX_UPLOAD_BYTES must be an integer' })
    .positive({ error: 'MAX_UPLOAD_BYTES must be positive' })
    .default(4 * 1024 * 1024 * 1024),
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: 'REDIS_URL must start with redis:// or rediss://',
  }),
  TRUST_PROXY: z
    .enum(['true', 'false', ''], { error: 'TRUST_PROXY must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  WEB_DIST_DIR: optionalString,
  // Music (docs/music.md)
  DISCORD_BOT_TOKEN: optionalString,
  MUSIC_DEFAULT_GUILD_ID: optionalString.refine((v) => v === undefined || /^\d{1,20}$/.test(v), {
    message: 'MUSIC_DEFAULT_GUILD_ID must be a Discord server id (digits)',
  }),
  DISCORD_BOT_API_URL: httpUrl('DISCORD_BOT_API_URL').default('https://discord.com/api'),
  YOUTUBE_BASE_URL: httpUrl('YOUTUBE_BASE_URL').default('https://www.youtube.com'),
  SOUNDCLOUD_API_URL: httpUrl('SOUNDCLOUD_API_URL').default('https://api-v2.soundcloud.com'),
  SOUNDCLOUD_CLIENT_ID: optionalString,
  FFMPEG_PATH: z.string().trim().min(1, { error: 'FFMPEG_PATH must not be empty' }).default('ffmpeg'),
  FFPROBE_PATH: z.string().trim().min(1, { error: 'FFPROBE_PATH must not be empty' }).default('ffprobe'),
  MUSIC_IDLE_LEAVE_SECONDS: z.coerce
    .number({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be a number' })
    .int({ error: 'MUSIC_IDLE_LEAVE_SECONDS must be whole seconds' })
    .min(1, { error: 'MUSIC_IDLE_LEAVE_SECONDS must be at least 1' })
    .default(300),
});

export type Config = {
  port: number;
  host: string;
  publicUrl?: string;
  dataDir: string;
  databaseUrl: string;
  accessCode?: string;
  adminDiscordIds: string[];
  discord: {
    clientId?: string;
    clientSecret?: string;
    redirectUri?: string;
    apiUrl: string;
    authorizeUrl: string;
  };
  maxUploadBytes: number;
  redisUrl?: string;
  trustProxy: boolean;
  logLevel: string;
  webDistDir: string;
  music: {
    botToken?: string;
    defaultGuildId?: string;
    discordApiUrl: string;
    youtubeBaseUrl: string;
    soundcloudApiUrl: string;
    soundcloudClientId?: string;
    ffmpegPath: string;
    ffprobePath: string;
    /** How long the bot stays in a voice channel alone or with nothing playing. */
    idleLeaveMs: number;
  };
};

export class ConfigError extends Error {}

/** Reads the environment into a typed config; a wrong value throws naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'guildhall.db')}`,
    accessCode: e.ACCESS_CODE,
    adminDiscordIds: e.ADMIN_DISCORD_IDS,
    discord: {
      clientId: e.DISCORD_CLIENT_ID,
      clientSecret: e.DISCORD_CLIENT_SECRET,
      redirectUri: e.DISCORD_REDIRECT_URI,
      apiUrl: e.DISCORD_API_URL,
      authorizeUrl: e.DISCORD_AUTHORIZE_URL,
    },
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    music: {
      botToken: e.DISCORD_BOT_TOKEN,
      defaultGuildId: e.MUSIC_DEFAULT_GUILD_ID,
      discordApiUrl: e.DISCORD_BOT_API_URL,
      youtubeBaseUrl: e.YOUTUBE_BASE_URL,
      soundcloudApiUrl: e.SOUNDCLOUD_API_URL,
      soundcloudClientId: e.SOUNDCLOUD_CLIENT_ID,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      idleLeaveMs: e.MUSIC_IDLE_LEAVE_SECONDS * 1000,
    },
  };
}

export function isOAuthConfigured(config: Config): boolean {
  const d = config.discord;
  return Boolean(d.clientId && d.clientSecret && d.redirectUri);
}
