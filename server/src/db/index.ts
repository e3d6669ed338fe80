import fs from 'node:fs';
import path from 'node:path';
import { type Dialect, Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Pool as PgPool } from 'pg';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { createSqliteDialect } from './sqlite-dialect.ts';

export type Db = Kysely<Database>;
export type { PgPool };

/**
 * Opens the database named by a `sqlite:<file>` or `postgres://` URL. On PostgreSQL the Db opens a pool of
 * its own and ends it when destroyed, unless `pgPool` hands it one that outlives it (tests keep one pool per
 * database copy, test/template-db.ts): destroying the Db then waits for the connections it took to come
 * back and leaves the pool open.
 */
export function openDb(databaseUrl: string, pgPool?: () => Promise<PgPool>): Db {
  return new Kysely<Database>({ dialect: dialectFor(databaseUrl, pgPool) });
}

function dialectFor(url: string, pgPool: (() => Promise<PgPool>) | undefined): Dialect {
  if (url.startsWith('postgres')) {
    // The driver is loaded when the first connection is asked for: a SQLite portal never loads it.
    return new PostgresDialect({
      pool: async () => (pgPool ? borrowed(await pgPool()) : owned(await newPostgresPool(url))),
    });
  }
  const file = url.replace(/^sqlite:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return createSqliteDialect(file);
}

/**
 * A PostgreSQL pool as the portal uses it. `options` only for tests (how long an idle connection is kept,
 * whether it holds the process open, how long a query waits for a connection).
 */
export async function newPostgresPool(
  url: string,
  options: { idleTimeoutMillis?: number; allowExitOnIdle?: boolean; connectionTimeoutMillis?: number } = {},
): Promise<PgPool> {
  const { default: pg } = await import('pg');
  // A database that does not answer fails a request after 5 s (503) instead of holding it indefinitely.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, ...options });
  // A connection cut by a database restart emits 'error' (on the pool when idle, on the client while
  // checked out); unhandled, either would end the process. Queries on it fail, the pool opens a new
  // connection for the next one, and /readyz reports the outage meanwhile.
  const lost = (err: Error) => console.warn(`database: connection lost (${err.message})`);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

/**
 * A connection that cannot be opened (refused, timed out) is marked, so the API answers 503 "cannot reach
 * its database" rather than 500; other network errors stay what they are.
 */
function connectMarked(pool: PgPool) {
  return pool.connect().catch((e: unknown) => {
    throw Object.assign(e instanceof Error ? e : new Error(String(e)), { databaseUnavailable: true });
  });
}

/** The Db's own pool: ended with it. */
function owned(pool: PgPool) {
  return { connect: () => connectMarked(pool), end: () => pool.end(), options: pool.options };
}

/** A pool the Db shares: ending the Db waits for the connections it has out, and leaves the pool open. */
function borrowed(pool: PgPool) {
  let out = 0;
  let idle: (() => void) | null = null;
  return {
    async connect() {
      const client = await connectMarked(pool);
      out += 1;
      const release = client.release;
      let back = false;
      client.release = (err?: Error | boolean) => {
        if (!back) {
          back = true;
          out -= 1;
          if (out === 0) idle?.();
        }
        return release(err);
      };
      return client;
    },
    end: () =>
      out === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            idle = resolve;
          }),
    options: pool.options,
  };
}

/** Names of the migrations this build knows that the database has not run yet (readiness reports them). */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema; migrations are untyped by design.
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}

/** Runs every pending migration; throws with the failing migration's error. */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema; migrations are untyped by design.
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  // With a non-default PostgreSQL schema (tests), the migrator's own tables must live there too.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (failed) {
    throw new Error(`Migration ${failed.migrationName} failed: ${String(error)}`, { cause: error });
  }
  if (error) {
    // Before any migration ran: the database could not be reached or opened (an operator's problem).
    throw new Error(`DATABASE_URL: could not open the database (${errorText(error)})`, { cause: error });
  }
}

/**
 * The schema a PostgreSQL URL selects through `options=-c search_path=…` (an operator's schema, or a
 * test's own): the migrator must keep its tables there, or it may find another schema's lock table in
 * the same database and never create its own.
 */
export function searchPathOf(url: string): string | undefined {
  if (!url.startsWith('postgres')) return undefined;
  return /search_path=([\w]+)/.exec(new URL(url).searchParams.get('options') ?? '')?.[1];
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message || e.constructor.name : String(e);
}
