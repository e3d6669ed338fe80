import { z } from 'zod';
import { ConfigError, type EnvOf, httpUrl, optionalString, positiveInt } from '../config/env.ts';
import type { S3StoreOptions } from './s3.ts';

/** The blob store's variables (docs/files.md, "Stores"): one store per process, so they are the platform's. */
export const blobStoreEnv = {
  FILES_STORE: z
    .enum(['local', 's3', 'discord', ''], { error: 'FILES_STORE must be local, s3 or discord' })
    .default('local')
    .transform((v) => (v === '' ? 'local' : v)),
  FILES_DIRECT_IO: z
    .enum(['on', 'off', ''], { error: 'FILES_DIRECT_IO must be on or off' })
    .default('on')
    .transform((v) => v !== 'off'),
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
  // How long a remote file store (S3, Discord) may take before a call fails (docs/files.md, "Stores").
  FILES_STORE_TIMEOUT_MS: positiveInt('FILES_STORE_TIMEOUT_MS').default(120_000),
};

/**
 * Where file chunks live (FILES_STORE and its variables). New chunks go to `store`; the other stores
 * whose variables are set stay readable, so files keep working during and after a migration.
 */
export type FilesStoreConfig = {
  store: 'local' | 's3' | 'discord';
  /** Local disk: write whole chunks with O_DIRECT, past the page cache (FILES_DIRECT_IO, default on). */
  directIo?: boolean;
  /** Remote stores: how long a call may take (S3: without a byte moving) before it fails. */
  timeoutMs?: number;
  /** The S3 store's options (s3.ts); its time limit is `timeoutMs` above, shared with the Discord store. */
  s3?: Omit<S3StoreOptions, 'timeoutMs'>;
  discord?: { channelId: string; botToken: string; apiUrl: string };
};

/**
 * The store's settings. The Discord store posts with the music bot's token through Discord's API, so
 * those two values (DISCORD_BOT_TOKEN, DISCORD_API_URL, declared by the music and auth modules) come in.
 */
export function blobStoreConfig(
  e: EnvOf<typeof blobStoreEnv>,
  discord: { botToken?: string; apiUrl: string },
): FilesStoreConfig {
  const problems: string[] = [];
  if (e.FILES_STORE === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: required when FILES_STORE=s3');
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither');
  }
  if (e.FILES_STORE === 'discord') {
    if (!e.FILES_DISCORD_CHANNEL_ID)
      problems.push('FILES_DISCORD_CHANNEL_ID: required when FILES_STORE=discord');
    if (!discord.botToken) problems.push('DISCORD_BOT_TOKEN: required when FILES_STORE=discord');
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return {
    store: e.FILES_STORE as FilesStoreConfig['store'],
    directIo: e.FILES_DIRECT_IO,
    timeoutMs: e.FILES_STORE_TIMEOUT_MS,
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
      e.FILES_DISCORD_CHANNEL_ID && discord.botToken
        ? { channelId: e.FILES_DISCORD_CHANNEL_ID, botToken: discord.botToken, apiUrl: discord.apiUrl }
        : undefined,
  };
}
