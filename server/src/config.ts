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
  // File storage beyond one disk (docs/files.md, "Stores").
  FILES_STORE: z
    .enum(['local', 's3', 'discord', ''], { error: 'FILES_STORE must be local, s3 or discord' })
    .default('local')
    .transform((v) => (v === '' ? 'local' : v)),
  S3_ENDPOINT: httpUrl('S3_ENDPOINT').optional(),
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', ''], { error: 'S3_FORCE_PATH_STYLE must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  S3_PREFIX: z
    .string()
    .trim()
    .default('')
    .refine((v) => /^[A-Za-z0-9/_.-]{0,200}$/.test(v), {
      message: 'S3_PREFIX may contain letters, digits, /, _, . and - (at most 200)',
    }),
  FILES_DISCORD_CHANNEL_ID: optionalString.refine((v) => v === undefined || /^\d{17,20}$/.test(v), {
    message: 'FILES_DISCORD_CHANNEL_ID must be a Discord channel id (17–20 digits)',
  }),
  DISCORD_BOT_TOKEN: optionalString,
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
  files: FilesStoreConfig;
};

/**
 * Where file chunks live (FILES_STORE and its variables). New chunks go to `store`; the other stores
 * whose variables are set stay readable, so files keep working during and after a migration.
 */
export type FilesStoreConfig = {
  store: 'local' | 's3' | 'discord';
  s3?: {
    endpoint?: string;
    bucket: string;
    region: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    forcePathStyle: boolean;
    prefix: string;
  };
  discord?: { channelId: string; botToken: string; apiUrl: string };
};

function filesStoreConfig(e: z.infer<typeof EnvSchema>): FilesStoreConfig {
  const problems: string[] = [];
  if (e.FILES_STORE === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: required when FILES_STORE=s3');
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither');
  }
  if (e.FILES_STORE === 'discord') {
    if (!e.FILES_DISCORD_CHANNEL_ID)
      problems.push('FILES_DISCORD_CHANNEL_ID: required when FILES_STORE=discord');
    if (!e.DISCORD_BOT_TOKEN) problems.push('DISCORD_BOT_TOKEN: required when FILES_STORE=discord');
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return {
    store: e.FILES_STORE as FilesStoreConfig['store'],
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION ?? 'us-east-1',
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          prefix: e.S3_PREFIX,
        }
      : undefined,
    discord:
      e.FILES_DISCORD_CHANNEL_ID && e.DISCORD_BOT_TOKEN
        ? { channelId: e.FILES_DISCORD_CHANNEL_ID, botToken: e.DISCORD_BOT_TOKEN, apiUrl: e.DISCORD_API_URL }
        : undefined,
  };
}

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
    files: filesStoreConfig(e),
  };
}

export function isOAuthConfigured(config: Config): boolean {
  const d = config.discord;
  return Boolean(d.clientId && d.clientSecret && d.redirectUri);
}
