import path from 'node:path';
import { SECURITY_DEFAULTS } from '@guildhall/common';
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

/** A comma-separated list, entries trimmed, empty ones dropped (unset = empty list). */
function commaList() {
  return z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
}

function positiveInt(name: string) {
  return z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be an integer` })
    .positive({ error: `${name} must be positive` });
}

/** Every variable the server reads (README, "Configuration"; .env.example is generated from it). */
export const EnvSchema = z.object({
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
  ACCESS_CODE: optionalString.refine((v) => v === undefined || v.length >= 8, {
    message: 'ACCESS_CODE must be at least 8 characters',
  }),
  ADMIN_DISCORD_IDS: commaList().refine((ids) => ids.every((id) => /^\d{17,20}$/.test(id)), {
    message: 'ADMIN_DISCORD_IDS must be a comma-separated list of Discord ids (17–20 digits)',
  }),
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_REDIRECT_URI: httpUrl('DISCORD_REDIRECT_URI').optional(),
  DISCORD_API_URL: httpUrl('DISCORD_API_URL').default('https://discord.com/api'),
  DISCORD_AUTHORIZE_URL: httpUrl('DISCORD_AUTHORIZE_URL').default('https://discord.com/oauth2/authorize'),
  MAX_UPLOAD_BYTES: positiveInt('MAX_UPLOAD_BYTES').default(4 * 1024 * 1024 * 1024),
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
  // OSINT and the outbound fetcher (docs/osint.md)
  OUTBOUND_CONCURRENCY: positiveInt('OUTBOUND_CONCURRENCY').default(96),
  OUTBOUND_TIMEOUT_MS: positiveInt('OUTBOUND_TIMEOUT_MS').default(8000),
  OUTBOUND_TEST_ALLOW: commaList().refine(
    (list) => list.every((a) => a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a)),
    {
      message:
        'OUTBOUND_TEST_ALLOW may only list loopback addresses (127.x.x.x, ::1); it is for test harnesses',
    },
  ),
  DNS_SERVERS: commaList(),
  HIBP_API_KEY: optionalString,
  HIBP_API_URL: httpUrl('HIBP_API_URL').default('https://haveibeenpwned.com/api/v3'),
  GRAVATAR_API_URL: httpUrl('GRAVATAR_API_URL').default('https://api.gravatar.com/v3'),
  RDAP_BOOTSTRAP_URL: httpUrl('RDAP_BOOTSTRAP_URL').default('https://data.iana.org/rdap'),
  CT_SEARCH_URL: httpUrl('CT_SEARCH_URL').default('https://crt.sh'),
  OSINT_SITE_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/\{domain\}(:\d+)?\/?$/.test(v), {
      message: 'OSINT_SITE_URL must look like https://{domain}/ (an optional port allowed)',
    })
    .default('https://{domain}/'),
  OSINT_SITES_FILE: optionalString,
  OSINT_SITE_TIMEOUT_MS: positiveInt('OSINT_SITE_TIMEOUT_MS').default(10_000),
  OUTBOUND_PER_MEMBER: positiveInt('OUTBOUND_PER_MEMBER').default(64),
  OUTBOUND_USER_AGENT: optionalString,
  OSINT_HISTORY_DAYS: positiveInt('OSINT_HISTORY_DAYS').default(30),
  OSINT_SEARCHES_PER_MINUTE: positiveInt('OSINT_SEARCHES_PER_MINUTE').default(10),
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
  // File storage beyond one disk (docs/files.md, "Stores").
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
  // Security hardening (docs/security.md).
  UPLOADS_PER_USER: positiveInt('UPLOADS_PER_USER').default(SECURITY_DEFAULTS.uploadsPerUser),
  UPLOAD_IDLE_TIMEOUT_MS: positiveInt('UPLOAD_IDLE_TIMEOUT_MS').default(
    SECURITY_DEFAULTS.uploadIdleTimeoutMs,
  ),
  UPLOAD_MIN_BYTES_PER_SECOND: z.coerce
    .number({ error: 'UPLOAD_MIN_BYTES_PER_SECOND must be a number' })
    .int({ error: 'UPLOAD_MIN_BYTES_PER_SECOND must be an integer' })
    .min(0, { error: 'UPLOAD_MIN_BYTES_PER_SECOND must be 0 or more' })
    .default(SECURITY_DEFAULTS.uploadMinBytesPerSecond),
  UPLOAD_RATE_WINDOW_MS: positiveInt('UPLOAD_RATE_WINDOW_MS').default(SECURITY_DEFAULTS.uploadRateWindowMs),
  UPLOAD_BUFFER_WAIT_MS: positiveInt('UPLOAD_BUFFER_WAIT_MS').default(SECURITY_DEFAULTS.uploadBufferWaitMs),
  STORAGE_QUOTA_BYTES: positiveInt('STORAGE_QUOTA_BYTES').optional(),
  STORAGE_RESERVE_BYTES: z.coerce
    .number({ error: 'STORAGE_RESERVE_BYTES must be a number' })
    .int({ error: 'STORAGE_RESERVE_BYTES must be an integer' })
    .min(0, { error: 'STORAGE_RESERVE_BYTES must be 0 or more' })
    .default(SECURITY_DEFAULTS.storageReserveBytes),
  // Fair downloads and resumable-upload caps (docs/security.md, issue 26).
  RESUMABLE_UPLOADS_PER_USER: positiveInt('RESUMABLE_UPLOADS_PER_USER').default(
    SECURITY_DEFAULTS.resumableUploadsPerUser,
  ),
  DOWNLOADS_PER_USER: positiveInt('DOWNLOADS_PER_USER').default(SECURITY_DEFAULTS.downloadsPerUser),
  DOWNLOADS_PER_ADDRESS: positiveInt('DOWNLOADS_PER_ADDRESS').default(SECURITY_DEFAULTS.downloadsPerAddress),
  DOWNLOADS_MAX: positiveInt('DOWNLOADS_MAX').default(SECURITY_DEFAULTS.downloadsMax),
  DOWNLOAD_IDLE_TIMEOUT_MS: positiveInt('DOWNLOAD_IDLE_TIMEOUT_MS').default(
    SECURITY_DEFAULTS.downloadIdleTimeoutMs,
  ),
  // How long a remote file store (S3, Discord) may take before a call fails (docs/files.md, "Stores").
  FILES_STORE_TIMEOUT_MS: positiveInt('FILES_STORE_TIMEOUT_MS').default(120_000),
});

/**
 * Which proxies' X-Forwarded-For entries to believe (Fastify's trustProxy): a hop count takes the
 * address that many hops from the right, a list believes only those proxies; `true` believes the
 * left-most entry, which a client can forge unless the proxy overwrites the header.
 */
export type TrustProxy = boolean | number | string[];

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
  files: FilesStoreConfig;
  /** Fair uploads: per-member concurrency and body timing (docs/security.md). */
  uploads: {
    uploadsPerUser: number;
    idleTimeoutMs: number;
    minBytesPerSecond: number;
    rateWindowMs: number;
    bufferWaitMs: number;
  };
  /** Per-member quota (default for members without their own) and the free space kept on the blob disk. */
  storage: { quotaBytes?: number; reserveBytes: number; resumablePerUser: number };
  /** Fair downloads: concurrency per member, per address and in all, and the stalled-reader timeout. */
  downloads: { perUser: number; perAddress: number; max: number; idleTimeoutMs: number };
  outbound: OutboundConfig;
  osint: OsintConfig;
};

export type OutboundConfig = {
  /** Most outbound requests in flight at once, over all searches. */
  concurrency: number;
  timeoutMs: number;
  /** Loopback addresses the fetcher may reach: set only by test harnesses; empty in production. */
  testAllow: string[];
  /** DNS servers (`ip` or `ip:port`); empty means the system's. */
  dnsServers: string[];
  /** Most requests in flight for one member (the rest of the slots stay free for others). */
  perMember: number;
  /** The User-Agent sent (default a browser's; the honest one is HONEST_USER_AGENT). */
  userAgent?: string;
};

export type OsintConfig = {
  hibpApiKey?: string;
  hibpApiUrl: string;
  gravatarApiUrl: string;
  rdapBootstrapUrl: string;
  ctSearchUrl: string;
  /** Where a domain's web site is inspected; `{domain}` is replaced. */
  siteUrl: string;
  /** A WhatsMyName-format site list replacing the shipped one. */
  sitesFile?: string;
  siteTimeoutMs: number;
  searchesPerMinute: number;
  /** Days a member's past searches are kept (OSINT_HISTORY_DAYS). */
  historyDays: number;
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
    metricsToken: e.METRICS_TOKEN,
    redisPrefix: e.REDIS_PREFIX,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    realtimeHandshakesPerAddress: e.REALTIME_HANDSHAKES_PER_ADDRESS,
    outbound: {
      concurrency: e.OUTBOUND_CONCURRENCY,
      timeoutMs: e.OUTBOUND_TIMEOUT_MS,
      testAllow: e.OUTBOUND_TEST_ALLOW,
      dnsServers: e.DNS_SERVERS,
      perMember: Math.min(e.OUTBOUND_PER_MEMBER, e.OUTBOUND_CONCURRENCY),
      userAgent: e.OUTBOUND_USER_AGENT,
    },
    osint: {
      hibpApiKey: e.HIBP_API_KEY,
      hibpApiUrl: e.HIBP_API_URL,
      gravatarApiUrl: e.GRAVATAR_API_URL,
      rdapBootstrapUrl: e.RDAP_BOOTSTRAP_URL,
      ctSearchUrl: e.CT_SEARCH_URL,
      siteUrl: e.OSINT_SITE_URL,
      sitesFile: e.OSINT_SITES_FILE,
      siteTimeoutMs: e.OSINT_SITE_TIMEOUT_MS,
      searchesPerMinute: e.OSINT_SEARCHES_PER_MINUTE,
      historyDays: e.OSINT_HISTORY_DAYS,
    },
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
    files: filesStoreConfig(e),
    uploads: {
      uploadsPerUser: e.UPLOADS_PER_USER,
      idleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_MS,
      minBytesPerSecond: e.UPLOAD_MIN_BYTES_PER_SECOND,
      rateWindowMs: e.UPLOAD_RATE_WINDOW_MS,
      bufferWaitMs: e.UPLOAD_BUFFER_WAIT_MS,
    },
    storage: {
      quotaBytes: e.STORAGE_QUOTA_BYTES,
      reserveBytes: e.STORAGE_RESERVE_BYTES,
      resumablePerUser: e.RESUMABLE_UPLOADS_PER_USER,
    },
    downloads: {
      perUser: e.DOWNLOADS_PER_USER,
      perAddress: e.DOWNLOADS_PER_ADDRESS,
      max: e.DOWNLOADS_MAX,
      idleTimeoutMs: e.DOWNLOAD_IDLE_TIMEOUT_MS,
    },
  };
}

export function isOAuthConfigured(config: Config): boolean {
  const d = config.discord;
  return Boolean(d.clientId && d.clientSecret && d.redirectUri);
}
