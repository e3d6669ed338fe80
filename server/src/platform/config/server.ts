import path from 'node:path';
import { z } from 'zod';
import { defineConfig, type SliceOf } from './define.ts';
import { httpUrl, optionalString, positiveInt } from './env.ts';

/**
 * Which proxies' X-Forwarded-For entries to believe (Fastify's trustProxy): a hop count takes the
 * address that many hops from the right, a list believes only those proxies; `true` believes the
 * left-most entry, which a client can forge unless the proxy overwrites the header.
 */
export type TrustProxy = boolean | number | string[];

/** The server's own variables: where it listens, stores, logs, and how instances share work. */
export const serverConfig = defineConfig({
  title: 'Server',
  vars: {
    PORT: {
      field: 'port',
      schema: z.coerce
        .number({ error: 'PORT must be a number' })
        .int({ error: 'PORT must be an integer' })
        .min(0, { error: 'PORT must be between 0 and 65535' })
        .max(65535, { error: 'PORT must be between 0 and 65535' })
        .default(3000),
      doc: 'HTTP port',
    },
    HOST: {
      field: 'host',
      schema: z.string().trim().min(1, { error: 'HOST must not be empty' }).default('0.0.0.0'),
      doc: 'interface to listen on; behind a proxy on the same machine set `127.0.0.1` (a warning is logged when `TRUST_PROXY` is set and the portal listens beyond loopback)',
    },
    PUBLIC_URL: {
      field: 'publicUrl',
      schema: httpUrl('PUBLIC_URL').optional(),
      doc: "the portal's public origin, used in share links and the bot's \"Open portal\" buttons. **Set it** in production: without it links use the request's `Host` header (never `X-Forwarded-Host`), and a proxied portal warns at startup",
      example: 'https://guildhall.example.org',
    },
    DATA_DIR: {
      schema: z.string().trim().min(1, { error: 'DATA_DIR must not be empty' }).default('./data'),
      doc: 'where the SQLite database, uploaded files and the generated access code live',
    },
    DATABASE_URL: {
      schema: optionalString.refine(
        (v) =>
          v === undefined || v.startsWith('sqlite:') || (/^postgres(ql)?:\/\//.test(v) && URL.canParse(v)),
        { message: 'DATABASE_URL must be sqlite:<file> or a URL starting with postgres://' },
      ),
      doc: '`sqlite:<file>` or `postgres://user:pass@host:5432/db`',
      shownDefault: '`sqlite:$DATA_DIR/guildhall.db`',
      example: 'postgres://guildhall:secret@127.0.0.1:5432/guildhall',
    },
    TRUST_PROXY: {
      field: 'trustProxy',
      schema: z
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
      doc: "behind a reverse proxy: the number of proxies in front (`1` for one nginx using `$proxy_add_x_forwarded_for`) or their addresses/CIDRs (`10.0.0.2,10.0.0.3`), so rate limits see the client's real address. `true` believes the left-most `X-Forwarded-For` entry, which clients can forge: use it only behind a proxy that overwrites the header",
    },
    LOG_LEVEL: {
      field: 'logLevel',
      schema: z
        .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
          error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
        })
        .default('info'),
      doc: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
    },
    WEB_DIST_DIR: {
      schema: optionalString,
      doc: 'where the built web app is served from',
      shownDefault: '`web/dist`',
    },
    SHUTDOWN_GRACE_SECONDS: {
      field: 'shutdownGraceSeconds',
      schema: z.coerce
        .number({ error: 'SHUTDOWN_GRACE_SECONDS must be a number' })
        .int({ error: 'SHUTDOWN_GRACE_SECONDS must be an integer' })
        .min(0, { error: 'SHUTDOWN_GRACE_SECONDS must be between 0 and 3600' })
        .max(3600, { error: 'SHUTDOWN_GRACE_SECONDS must be between 0 and 3600' })
        .default(30),
      doc: 'on SIGTERM, how long transfers in flight may take to finish before their connections are cut',
    },
    METRICS_TOKEN: {
      field: 'metricsToken',
      schema: optionalString.refine((v) => v === undefined || v.length >= 16, {
        message: 'METRICS_TOKEN must be at least 16 characters',
      }),
      doc: '≥ 16 characters: enables Prometheus metrics at `GET /metrics` for `Authorization: Bearer <token>` (off without it)',
      example: 'a-long-random-metrics-token',
    },
    REDIS_URL: {
      field: 'redisUrl',
      schema: optionalString.refine((v) => v === undefined || (/^rediss?:\/\//.test(v) && URL.canParse(v)), {
        message:
          'REDIS_URL must be a URL starting with redis:// or rediss:// (redis://[user:password@]host:6379)',
      }),
      doc: '`redis://…`: for several server instances ([docs/operations.md](docs/operations.md)): fans realtime events out and shares the rate limits between them',
      example: 'redis://127.0.0.1:6379',
    },
    REDIS_PREFIX: {
      field: 'redisPrefix',
      schema: z
        .string()
        .trim()
        .regex(/^[\w:-]{1,64}$/, { error: 'REDIS_PREFIX must be 1–64 letters, digits, _, - or :' })
        .default('guildhall'),
      doc: 'prefix of every Redis key and channel; give each deployment sharing one Redis its own',
    },
    REALTIME_HANDSHAKES_PER_ADDRESS: {
      field: 'realtimeHandshakesPerAddress',
      schema: positiveInt('REALTIME_HANDSHAKES_PER_ADDRESS').default(30),
      doc: 'realtime connections one client address (IPv6: one /64) may open per 10 s; raise it when many members share one address without a proxy in front',
    },
  },
  // `webDist`: the built web app's default place, resolved by config.ts (two levels below the repository,
  // in the sources as in the bundle, server/dist/).
  // Paths resolved against the working directory, and the database's default inside the data directory.
  // `webDist`: the built web app's default place, resolved by config.ts (two levels below the repository,
  // in the sources as in the bundle, server/dist/).
  build: (e, webDist: { defaultDir: string }) => {
    const dataDir = path.resolve(e.DATA_DIR);
    return {
      dataDir,
      databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'guildhall.db')}`,
      webDistDir: path.resolve(e.WEB_DIST_DIR ?? webDist.defaultDir),
    };
  },
});

/** The process-wide values: the root of `Config` (`config.port`, `config.dataDir`, …). */
export type ServerConfig = SliceOf<typeof serverConfig>;
