import path from 'node:path';
import { z } from 'zod';
import { type AuthConfig, authConfig, authEnv } from './features/auth/config.ts';
import { type FilesConfig, filesConfig, filesEnv } from './features/files/config.ts';
import { type MusicConfig, musicConfig, musicEnv } from './features/music/config.ts';
import { type OsintConfig, osintConfig, osintEnv } from './features/osint/config.ts';
import { type RolesConfig, rolesConfig, rolesEnv } from './features/roles/config.ts';
import { blobStoreConfig, blobStoreEnv, type FilesStoreConfig } from './platform/blob-store/config.ts';
import { ConfigError, httpUrl, optionalString, positiveInt } from './platform/config/env.ts';
import { type OutboundConfig, outboundConfig, outboundEnv } from './platform/outbound/config.ts';

export { isOAuthConfigured } from './features/auth/config.ts';
export type { FilesStoreConfig, MusicConfig, OsintConfig, OutboundConfig, RolesConfig };
export { ConfigError };

/**
 * The process-wide variables; each feature declares its own in its `config.ts` (`musicEnv`, …) and the
 * platform services theirs (`blobStoreEnv`, `outboundEnv`). This file only assembles them.
 */
const platformEnv = {
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int({ error: 'PORT must be an integer' })
    .min(0, { error: 'PORT must be between 0 and 65535' })
    .max(65535, { error: 'PORT must be between 0 and 65535' })
    .default(3000),
  HOST: z.string().trim().min(1, { error: 'HOST must not be empty' }).default('0.0.0.0'),
  PUBLIC_URL: httpUrl('PUBLIC_URL').optional(),
  DATA_DIR: z.string().trim().min(1, { error: 'DATA_DIR must not be empty' }).default('./data'),
  DATABASE_URL: optionalString.refine(
    (v) => v === undefined || v.startsWith('sqlite:') || (/^postgres(ql)?:\/\//.test(v) && URL.canParse(v)),
    { message: 'DATABASE_URL must be sqlite:<file> or a URL starting with postgres://' },
  ),
  REDIS_URL: optionalString.refine((v) => v === undefined || (/^rediss?:\/\//.test(v) && URL.canParse(v)), {
    message:
      'REDIS_URL must be a URL starting with redis:// or rediss:// (redis://[user:password@]host:6379)',
  }),
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v, ctx): TrustProxy => {
      if (v === '' || v === 'false') return false;
      if (v === 'true') return true;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      const addresses = v.split(',').map((a) => a.trim());
      if (addresses.every((a) => /^[\da-f.:]+(\/\d{1,3})?$/i.test(a) && a.length > 1)) return addresses;
      ctx.addIssue({
        code: 'custom',
        message:
          'TRUST_PROXY must be false, a hop count (1 for one proxy), a comma-separated list of proxy addresses/CIDRs, or true',
      });
      return z.NEVER;
    }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  WEB_DIST_DIR: optionalString,
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, {
    message: 'METRICS_TOKEN must be at least 16 characters',
  }),
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number({ error: 'SHUTDOWN_GRACE_SECONDS must be a number' })
    .int({ error: 'SHUTDOWN_GRACE_SECONDS must be an integer' })
    .min(0, { error: 'SHUTDOWN_GRACE_SECONDS must be between 0 and 3600' })
    .max(3600, { error: 'SHUTDOWN_GRACE_SECONDS must be between 0 and 3600' })
    .default(30),
  REALTIME_HANDSHAKES_PER_ADDRESS: positiveInt('REALTIME_HANDSHAKES_PER_ADDRESS').default(30),
  REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w:-]{1,64}$/, { error: 'REDIS_PREFIX must be 1–64 letters, digits, _, - or :' })
    .default('guildhall'),
};

/** Every variable the server reads (README, "Configuration"; .env.example is generated from it). */
export const EnvSchema = z.object({
  ...platformEnv,
  ...authEnv,
  ...filesEnv,
  ...blobStoreEnv,
  ...outboundEnv,
  ...osintEnv,
  ...musicEnv,
  ...rolesEnv,
});

/**
 * Which proxies' X-Forwarded-For entries to believe (Fastify's trustProxy): a hop count takes the
 * address that many hops from the right, a list believes only those proxies; `true` believes the
 * left-most entry, which a client can forge unless the proxy overwrites the header.
 */
export type TrustProxy = boolean | number | string[];

/**
 * The whole typed configuration. The process-wide values sit at the top; each feature's slice is what
 * its config module builds (`music`, `osint`, the files feature's `uploads`/`storage`/`downloads`), and a
 * feature's FeatureContext receives only its slice (its `defineFeature({ config })` picks it).
 */
export type Config = {
  port: number;
  host: string;
  publicUrl?: string;
  dataDir: string;
  databaseUrl: string;
  accessCode?: string;
  adminDiscordIds: string[];
  discord: AuthConfig['discord'];
  redisUrl?: string;
  trustProxy: TrustProxy;
  logLevel: string;
  webDistDir: string;
  /** Unlocks GET /metrics; without it metrics are off. */
  metricsToken?: string;
  /** Prefix of every Redis key and channel, so deployments sharing one Redis stay apart. */
  redisPrefix: string;
  /** Realtime connections one client address (an IPv6 /64) may open per 10 s. */
  realtimeHandshakesPerAddress: number;
  /** How long a SIGTERM waits for requests in flight (transfers) before cutting them. */
  shutdownGraceSeconds: number;
  music: MusicConfig;
  /** The platform's blob store (where file chunks live). */
  files: FilesStoreConfig;
  outbound: OutboundConfig;
  osint: OsintConfig;
  /** Discord role sync (issue 43): the env defaults of its settings and the bot it looks through. */
  roles: RolesConfig;
} & FilesConfig;

/** Reads the environment into a typed config; a wrong value throws naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const auth = authConfig(e);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'guildhall.db')}`,
    accessCode: auth.accessCode,
    adminDiscordIds: auth.adminDiscordIds,
    discord: auth.discord,
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    metricsToken: e.METRICS_TOKEN,
    redisPrefix: e.REDIS_PREFIX,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    realtimeHandshakesPerAddress: e.REALTIME_HANDSHAKES_PER_ADDRESS,
    outbound: outboundConfig(e),
    osint: osintConfig(e),
    music: musicConfig(e),
    roles: rolesConfig(e, {
      botToken: e.DISCORD_BOT_TOKEN,
      apiUrl: e.DISCORD_BOT_API_URL,
      musicGuildId: e.MUSIC_DEFAULT_GUILD_ID,
      adminDiscordIds: auth.adminDiscordIds,
    }),
    files: blobStoreConfig(e, { botToken: e.DISCORD_BOT_TOKEN, apiUrl: e.DISCORD_API_URL }),
    ...filesConfig(e),
  };
}
