import { z } from 'zod';
import { defineConfig, type SliceOf } from '../config/define.ts';
import { ConfigError, httpUrl, optionalString, positiveInt } from '../config/env.ts';
import type { SharedConfig } from '../config/shared.ts';
import type { S3StoreOptions } from './s3.ts';

/** The stores `build` makes out of several variables each (absent when their variables are not set). */
type RemoteStores = {
  /** The S3 store's options (s3.ts); its time limit is the slice's `timeoutMs`, shared with the Discord store. */
  s3?: Omit<S3StoreOptions, 'timeoutMs'>;
  discord?: { channelId: string; botToken: string; apiUrl: string };
};

/**
 * The blob store's variables (docs/files.md, "Stores"): one store per process, so they are the platform's
 * (`config.blobStore`). The Discord store posts with the bot's token through Discord's API, both named
 * once by the platform (`shared.discord`).
 */
export const blobStoreConfig = defineConfig({
  title: 'File storage (docs/files.md)',
  vars: {
    FILES_STORE: {
      field: 'store',
      schema: z
        .enum(['local', 's3', 'discord', ''], { error: 'FILES_STORE must be local, s3 or discord' })
        .default('local')
        .transform((v) => (v === '' ? 'local' : v)),
      doc: 'where new file chunks go: `local` (`DATA_DIR/blobs`), `s3` or `discord` ([docs/files.md](docs/files.md#stores))',
    },
    FILES_DIRECT_IO: {
      field: 'directIo',
      schema: z
        .enum(['on', 'off', ''], { error: 'FILES_DIRECT_IO must be on or off' })
        .default('on')
        .transform((v) => v !== 'off'),
      doc: 'local disk: whole chunks are written and read with O_DIRECT, past the page cache; `off` goes through it ([docs/files.md](docs/files.md#direct-writes))',
    },
    S3_ENDPOINT: {
      schema: httpUrl('S3_ENDPOINT').optional(),
      doc: '`https://…` of MinIO, R2, B2, Garage… (empty for AWS S3)',
      shownDefault: 'AWS',
      example: 'https://s3.example.org',
    },
    S3_BUCKET: {
      schema: optionalString,
      doc: 'the bucket (required for `FILES_STORE=s3`; set, it keeps S3 readable after a move away)',
      example: 'guildhall-files',
    },
    S3_REGION: {
      schema: optionalString,
      doc: "the bucket's region (`auto` for R2)",
      shownDefault: '`us-east-1`',
    },
    S3_ACCESS_KEY_ID: {
      schema: optionalString,
      doc: "the key pair's id (both or neither of it and `S3_SECRET_ACCESS_KEY`)",
      shownDefault: 'SDK default chain',
    },
    S3_SECRET_ACCESS_KEY: {
      schema: optionalString,
      doc: "the key pair's secret",
      shownDefault: 'SDK default chain',
    },
    S3_FORCE_PATH_STYLE: {
      schema: z
        .enum(['true', 'false', ''], { error: 'S3_FORCE_PATH_STYLE must be true or false' })
        .default('false')
        .transform((v) => v === 'true'),
      doc: '`true` for MinIO, Garage and most self-hosted servers',
    },
    S3_PREFIX: {
      schema: z
        .string()
        .trim()
        .default('')
        .refine((v) => /^[A-Za-z0-9/_.-]{0,200}$/.test(v), {
          message: 'S3_PREFIX may contain letters, digits, /, _, . and - (at most 200)',
        }),
      doc: 'key prefix, so several installs can share a bucket (one prefix per install: each sweeps its prefix for objects its database does not know)',
    },
    FILES_DISCORD_CHANNEL_ID: {
      schema: optionalString.refine((v) => v === undefined || /^\d{17,20}$/.test(v), {
        message: 'FILES_DISCORD_CHANNEL_ID must be a Discord channel id (17–20 digits)',
      }),
      doc: 'the text channel whose threads hold the files (`FILES_STORE=discord`)',
    },
    // How long a remote file store (S3, Discord) may take before a call fails (docs/files.md, "Stores").
    FILES_STORE_TIMEOUT_MS: {
      field: 'timeoutMs',
      schema: positiveInt('FILES_STORE_TIMEOUT_MS').default(120_000),
      doc: 'an S3 or Discord store call (an 8 MiB chunk, rate-limit waits included) that takes longer fails, and the member gets 503',
    },
  },
  build: (e, shared: SharedConfig): RemoteStores => {
    const discord = { botToken: shared.discord.botToken, apiUrl: shared.discord.apiUrl };
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
  },
});

/**
 * Where file chunks live (`config.blobStore`). New chunks go to `store`; the other stores whose variables
 * are set stay readable, so files keep working during and after a migration. `directIo`: the local disk
 * writes whole chunks with O_DIRECT, past the page cache; `timeoutMs`: how long a remote store's call may
 * take (S3: without a byte moving) before it fails.
 */
export type FilesStoreConfig = SliceOf<typeof blobStoreConfig>;
