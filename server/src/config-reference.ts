import type { z } from 'zod';
import { EnvSchema } from './config.ts';

/**
 * What `.env.example` says about each variable, grouped as the file shows them. The variables and their
 * defaults come from the config schema (config.ts), so the file cannot list a variable the server does
 * not read or miss one it does (`config-reference.test.ts`); regenerate it with `npm run env-example`.
 * A variable missing here still appears, under "Other", with the README as its description.
 */
type Entry = { note: string; example?: string };
type Section = { title: string; vars: Record<string, Entry> };

export const CONFIG_SECTIONS: Section[] = [
  {
    title: 'Server',
    vars: {
      PORT: { note: 'HTTP port' },
      HOST: {
        note: 'interface to listen on; behind a proxy on the same machine use 127.0.0.1 (docs/operations.md)',
        example: '127.0.0.1',
      },
      PUBLIC_URL: {
        note: 'the address members use; share links are built on it. Set it in production',
        example: 'https://guildhall.example.org',
      },
      DATA_DIR: { note: 'SQLite database, local file chunks and the generated access code' },
      DATABASE_URL: {
        note: 'sqlite:<file> (default: $DATA_DIR/guildhall.db) or postgres://…',
        example: 'postgres://guildhall:secret@127.0.0.1:5432/guildhall',
      },
      TRUST_PROXY: {
        note: 'behind a proxy: the number of proxies in front (1 for one nginx/Caddy) or their addresses',
        example: '1',
      },
      LOG_LEVEL: { note: 'fatal, error, warn, info, debug, trace or silent' },
      WEB_DIST_DIR: { note: 'where the built web app is served from (default: web/dist)' },
      SHUTDOWN_GRACE_SECONDS: { note: 'on SIGTERM, how long transfers in flight may take to finish' },
      METRICS_TOKEN: {
        note: 'at least 16 characters: enables GET /metrics for Authorization: Bearer <token>',
        example: 'a-long-random-metrics-token',
      },
    },
  },
  {
    title: 'Sign-in and users',
    vars: {
      ACCESS_CODE: {
        note: 'the shared access code (at least 8 characters); generated on first start when unset',
        example: 'choose-a-long-random-code',
      },
      ADMIN_DISCORD_IDS: {
        note: 'comma-separated Discord ids made approved admins at start-up (ends setup mode)',
        example: '175928847299117063',
      },
      DISCORD_CLIENT_ID: { note: 'Discord application → OAuth2 → Client ID (README)' },
      DISCORD_CLIENT_SECRET: { note: 'its client secret (stays on the server)' },
      DISCORD_REDIRECT_URI: {
        note: 'https://<your host>/auth/discord/callback, also registered in the Discord application',
        example: 'https://guildhall.example.org/auth/discord/callback',
      },
      DISCORD_API_URL: { note: "Discord's API base" },
      DISCORD_AUTHORIZE_URL: { note: "Discord's authorize page" },
    },
  },
  {
    title: 'Several instances (docs/operations.md)',
    vars: {
      REDIS_URL: {
        note: 'shares realtime events and rate limits between instances',
        example: 'redis://127.0.0.1:6379',
      },
      REDIS_PREFIX: { note: 'prefix of every Redis key and channel; one per deployment sharing a Redis' },
      REALTIME_HANDSHAKES_PER_ADDRESS: { note: 'realtime connections one address may open per 10 s' },
    },
  },
  {
    title: 'Files (docs/files.md)',
    vars: {
      MAX_UPLOAD_BYTES: { note: 'largest accepted upload' },
      FILES_STORE: { note: 'where new chunks go: local, s3 or discord' },
      FILES_DIRECT_IO: { note: 'local disk: write and read whole chunks past the page cache (on/off)' },
      S3_BUCKET: { note: 'the bucket (FILES_STORE=s3)', example: 'guildhall-files' },
      S3_ENDPOINT: { note: 'MinIO, R2, Garage… (empty for AWS)', example: 'https://s3.example.org' },
      S3_REGION: { note: "the bucket's region (default us-east-1; auto for R2)" },
      S3_ACCESS_KEY_ID: { note: 'key pair (both or neither; default: the SDK chain)' },
      S3_SECRET_ACCESS_KEY: { note: '' },
      S3_FORCE_PATH_STYLE: { note: 'true for MinIO, Garage and most self-hosted servers' },
      S3_PREFIX: { note: 'key prefix, one per install sharing a bucket' },
      FILES_DISCORD_CHANNEL_ID: { note: 'text channel whose threads hold the files (FILES_STORE=discord)' },
      FILES_STORE_TIMEOUT_MS: { note: 'how long a call to a remote store (S3, Discord) may take' },
    },
  },
  {
    title: 'Upload fairness and storage limits (docs/security.md)',
    vars: {
      UPLOADS_PER_USER: { note: 'uploads one member may have in flight' },
      UPLOAD_IDLE_TIMEOUT_MS: { note: 'an upload body silent this long is dropped' },
      UPLOAD_MIN_BYTES_PER_SECOND: { note: 'slower than this over the window is dropped (0: off)' },
      UPLOAD_RATE_WINDOW_MS: { note: '' },
      UPLOAD_BUFFER_WAIT_MS: { note: 'wait for a shared chunk buffer before answering 503' },
      STORAGE_QUOTA_BYTES: { note: "each member's default quota (none when unset)", example: '10737418240' },
      STORAGE_RESERVE_BYTES: { note: "free space always kept on the local store's disk" },
      RESUMABLE_UPLOADS_PER_USER: { note: 'unfinished resumable (tus) uploads one member may hold' },
      DOWNLOADS_PER_USER: { note: 'downloads one member may have running at once' },
      DOWNLOADS_PER_ADDRESS: { note: 'downloads one client address may have running at once' },
      DOWNLOADS_MAX: { note: 'downloads running at once over everyone (bounds their memory)' },
      DOWNLOAD_IDLE_TIMEOUT_MS: { note: 'a download whose reader stopped reading this long is dropped' },
      DOWNLOADS_QUEUED_PER_USER: { note: "a member's downloads that wait for a slot (0: 429 at once)" },
      DOWNLOAD_QUEUE_WAIT_MS: { note: 'how long a waiting download waits before 429' },
    },
  },
  {
    title: 'Music bot (docs/music.md)',
    vars: {
      DISCORD_BOT_TOKEN: { note: "the bot's token; without it music says the bot is offline" },
      MUSIC_DEFAULT_GUILD_ID: { note: 'the Discord server the music panel opens by default' },
      DISCORD_BOT_API_URL: { note: 'Discord REST base for the bot' },
      YOUTUBE_BASE_URL: { note: 'where the YouTube client sends its requests' },
      SOUNDCLOUD_API_URL: { note: 'SoundCloud API base' },
      SOUNDCLOUD_CLIENT_ID: { note: 'SoundCloud client id; without it SoundCloud is unavailable' },
      MUSIC_LYRICS_URL: { note: 'LRCLIB API base for the lyrics panel (a self-hosted LRCLIB works too)' },
      SPOTIFY_CLIENT_ID: { note: "Spotify app's client id; with the secret, Spotify links are queued" },
      SPOTIFY_CLIENT_SECRET: {
        note: "Spotify app's client secret (client-credentials flow, no member account)",
      },
      SPOTIFY_API_URL: { note: 'Spotify Web API base' },
      SPOTIFY_ACCOUNTS_URL: { note: "Spotify's token service base (POST /api/token)" },
      FFMPEG_PATH: { note: 'the ffmpeg binary' },
      FFPROBE_PATH: { note: 'the ffprobe binary' },
      MUSIC_IDLE_LEAVE_SECONDS: { note: 'leave a voice channel after this long alone or idle' },
    },
  },
  {
    title: "Roles from Discord (docs/admin.md; the admin panel's settings win over these)",
    vars: {
      ROLE_SYNC: {
        note: "on: levels follow the Discord server's roles (needs DISCORD_BOT_TOKEN); off by default",
      },
      ROLE_SYNC_GUILD_ID: { note: 'the community server (default: MUSIC_DEFAULT_GUILD_ID)' },
      ROLE_SYNC_NO_ROLE: { note: 'a member with no mapped role is pending, viewer or refused' },
      ROLE_SYNC_DEMOTION_BRAKE: { note: 'a run demoting more members than this waits for an admin' },
      ROLE_SYNC_INTERVAL_SECONDS: { note: 'every linked member is re-checked within this many seconds' },
    },
  },
  {
    title: 'OSINT and outbound requests (docs/osint.md)',
    vars: {
      OUTBOUND_CONCURRENCY: { note: 'outbound requests in flight at once, over all searches' },
      OUTBOUND_TIMEOUT_MS: { note: 'time limit of one outbound request' },
      OUTBOUND_TEST_ALLOW: { note: 'TEST HARNESSES ONLY: loopback addresses the fetcher may reach' },
      DNS_SERVERS: { note: 'DNS servers for lookups (ip or ip:port, comma-separated; default: the system)' },
      HIBP_API_KEY: { note: 'Have I Been Pwned API key' },
      HIBP_API_URL: { note: '' },
      GRAVATAR_API_URL: { note: '' },
      RDAP_BOOTSTRAP_URL: { note: '' },
      CT_SEARCH_URL: { note: '' },
      OSINT_SITE_URL: { note: "where a domain's web site is inspected" },
      OSINT_SITES_FILE: { note: 'a WhatsMyName-format site list instead of the shipped one' },
      OSINT_SITE_TIMEOUT_MS: { note: 'time limit per profile site in a username scan' },
      OSINT_SEARCHES_PER_MINUTE: { note: 'OSINT searches per member per minute' },
      OUTBOUND_PER_MEMBER: { note: "one member's share of the outbound requests in flight" },
      OUTBOUND_USER_AGENT: {
        note: 'User-Agent of outbound requests (default: a current browser\'s; honest: "Mozilla/5.0 (compatible; GuildhallOSINT/1.0; authorized research)")',
      },
      OSINT_HISTORY_DAYS: { note: 'how long search history is kept' },
    },
  },
];

type Def = { type: string; in?: Schema; innerType?: Schema; defaultValue?: unknown };
type Schema = { _zod: { def: Def } };

/** The default a variable has before parsing (its `.default(…)`), or undefined. */
export function rawDefault(schema: z.ZodType): string | undefined {
  let s = schema as unknown as Schema | undefined;
  while (s) {
    const def = s._zod.def;
    if (def.type === 'default' || def.type === 'prefault') {
      const v = def.defaultValue;
      return v === undefined || v === '' ? undefined : String(v);
    }
    s = def.type === 'pipe' ? def.in : def.innerType;
  }
  return undefined;
}

/** The text of `.env.example`. */
export function renderEnvExample(): string {
  const shape = EnvSchema.shape as Record<string, z.ZodType>;
  const listed = new Set(CONFIG_SECTIONS.flatMap((s) => Object.keys(s.vars)));
  const others = Object.keys(shape).filter((name) => !listed.has(name));
  const sections = [
    ...CONFIG_SECTIONS,
    ...(others.length > 0
      ? [
          {
            title: 'Other',
            vars: Object.fromEntries(others.map((n): [string, Entry] => [n, { note: 'see the README' }])),
          },
        ]
      : []),
  ];
  const out = [
    '# Guildhall configuration (generated from server/src/config.ts by `npm run env-example`; do not edit).',
    '# Every variable is optional: with none set, the portal runs on SQLite under ./data with a generated',
    '# access code. Copy this file to .env and uncomment what you need; the README describes each variable.',
  ];
  for (const section of sections) {
    out.push('', `# ---- ${section.title} ----`);
    for (const [name, entry] of Object.entries(section.vars)) {
      const schema = shape[name];
      if (!schema) continue; // a variable removed from the schema disappears from the file
      if (entry.note) out.push(`# ${entry.note}`);
      out.push(`# ${name}=${rawDefault(schema) ?? entry.example ?? ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}
