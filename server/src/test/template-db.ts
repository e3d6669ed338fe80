import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest, newPostgresPool, openDb, type PgPool } from '../db/index.ts';
import { EVENT_DEADLINE_MS } from './time-scale.ts';

/**
 * Databases migrated once per test run and copied per test (a migration run costs ≈150 ms on SQLite
 * and ≈1 s on PostgreSQL; a copy ≈0.3 ms and ≈150 ms). Vitest's global setup (`prepareTemplates`)
 * builds them and names them in the environment its workers inherit; without it (a test started some
 * other way) each test migrates its own database as before.
 */
const SQLITE_TEMPLATE_ENV = 'GH_TEST_SQLITE_TEMPLATE';
const PG_TEMPLATE_ENV = 'GH_TEST_PG_TEMPLATE';
const RUN_ENV = 'GH_TEST_RUN';

/** The id of the Vitest run this process belongs to (set by its global setup), or null. */
export function testRunId(): string | null {
  return process.env[RUN_ENV] ?? null;
}

/** How the names of a run's throwaway PostgreSQL schemas begin (createPgSchema in test/app.ts). */
export function runSchemaPrefix(run: string): string {
  return `gh_test_${run}_`;
}

/** How the names of a run's PostgreSQL database copies begin. */
function runDatabasePrefix(run: string): string {
  return `gh_t_${run}_`;
}

/** A LIKE pattern for names beginning with `prefix` (its underscores taken literally). */
function startsWithPattern(prefix: string): string {
  return `${prefix.replaceAll('_', '\\_')}%`;
}

/** The migrated SQLite file to copy, when the run has one. */
export function sqliteTemplate(): string | null {
  const file = process.env[SQLITE_TEMPLATE_ENV];
  return file && fs.existsSync(file) ? file : null;
}

function withDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  url.searchParams.delete('options');
  return url.toString();
}

async function adminQuery(base: string, text: string): Promise<pg.QueryResult> {
  // A statement that waits on a lock (a schema still used by a connection a test left open) gives up
  // instead of holding the run open: a CI run once hung for minutes after Vitest's summary (issue 47).
  const client = new pg.Client({
    connectionString: base,
    options: '-c lock_timeout=20000 -c statement_timeout=120000',
  });
  client.on('error', () => {}); // a dropped connection surfaces through the query below
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * What makes a used copy as good as new (prepareTemplates writes it for the workers; a worker must not
 * connect to the template itself, or copying it fails while it has a visitor): the tables to empty, the
 * rows the migrations seed and the sequences' starting values, in one script that first refuses a copy
 * whose schema a test changed.
 */
type PgReset = { sql: string };
const PG_RESET_ENV = 'GH_TEST_PG_RESET';

/**
 * A schema change in a copy (any DDL: a table dropped or restored, a column, an index, a trigger…) leaves a
 * row in gh_copy.schema_changes, written by an event trigger the template carries (in the DDL's own
 * transaction, so a change rolled back leaves none). It replaced a fingerprint of the whole schema read
 * through information_schema before each reuse: 45–100 ms of the server's planning and execution per test
 * on the busy machine, against a read of an empty table. ENABLE ALWAYS: it fires in replica mode too.
 */
const SCHEMA_GUARD_SQL = `
  CREATE SCHEMA gh_copy;
  CREATE TABLE gh_copy.schema_changes (tag text NOT NULL);
  CREATE FUNCTION gh_copy.note_schema_change() RETURNS event_trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO gh_copy.schema_changes VALUES (tg_tag); END $$;
  CREATE EVENT TRIGGER gh_copy_schema_changes ON ddl_command_end EXECUTE FUNCTION gh_copy.note_schema_change();
  ALTER EVENT TRIGGER gh_copy_schema_changes ENABLE ALWAYS;`;
const REFUSE_CHANGED_SCHEMA = `DO $$ BEGIN
  IF EXISTS (SELECT FROM gh_copy.schema_changes) THEN RAISE EXCEPTION 'a test changed this copy''s schema'; END IF;
END $$`;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The reset of a migrated database, read from it (the template, before any copy is made). */
async function readPgReset(url: string): Promise<PgReset> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a dropped connection surfaces through the queries below
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely\\_%' ORDER BY 1`,
      )
    ).rows.map((r) => r.name);
    const statements = [
      REFUSE_CHANGED_SCHEMA,
      'BEGIN',
      // Foreign keys are not checked while every table empties (superuser; CI's PostgreSQL trusts it).
      'SET LOCAL session_replication_role = replica',
      ...tables.map((t) => `DELETE FROM ${quoteIdent(t)}`),
    ];
    for (const t of tables) {
      const { rows } = await client.query<{ rows: unknown }>(
        `SELECT coalesce(json_agg(t), '[]'::json) AS rows FROM ${quoteIdent(t)} AS t`,
      );
      const json = JSON.stringify(rows[0]?.rows ?? []);
      if (json !== '[]')
        statements.push(
          `INSERT INTO ${quoteIdent(t)} SELECT * FROM json_populate_recordset(null::${quoteIdent(t)}, ${quoteLiteral(json)})`,
        );
    }
    const sequences = await client.query<{ name: string; last: string | null }>(
      `SELECT sequencename AS name, last_value::text AS last FROM pg_sequences WHERE schemaname = 'public'`,
    );
    for (const q of sequences.rows)
      statements.push(
        `SELECT setval(${quoteLiteral(quoteIdent(q.name))}, ${q.last ?? 1}, ${q.last === null ? 'false' : 'true'})`,
      );
    statements.push('COMMIT');
    return { sql: statements.join(';\n') };
  } finally {
    await client.end();
  }
}

/** This worker's copies whose tests have ended, ready to be reset and used again. */
const released: string[] = [];
/** This worker's copies in use: how many open apps use each (a test's second instance shares one). */
const inUse = new Map<string, number>();

/** Another app on a copy (createTestApp's sameDatabaseAs): it is reused only once both have closed. */
export function shareCopy(url: string): void {
  const n = inUse.get(url);
  if (n !== undefined) inUse.set(url, n + 1);
}

/** An app on a copy has closed: when it was the last, another test may empty the copy and use it. */
export function leaveCopy(url: string): void {
  const n = inUse.get(url);
  if (n === undefined) return;
  if (n > 1) inUse.set(url, n - 1);
  else {
    inUse.delete(url);
    released.push(url);
  }
}

/**
 * Each copy's connections, kept from one test to the next (the copy's first app borrows them: openDb's
 * `pgPool`): a new connection is a new server process, whose first query on each table also reads the
 * catalog again; on the busy machine that was ≈25–40 ms per connection and several times a query's time
 * for each first query, several connections per test. An idle connection closes after 2 s, so a copy no
 * test is using holds none for long (the server is shared), and never holds the worker open.
 */
const pools = new Map<string, Promise<PgPool>>();

function copyPool(url: string): Promise<PgPool> {
  let pool = pools.get(url);
  if (!pool) {
    pool = newPostgresPool(url, {
      idleTimeoutMillis: 2_000,
      allowExitOnIdle: true,
      // The portal's 5 s also bounds a query's wait for a free connection (pg-pool counts the queue): on
      // the busy machine, 120 Find Game presses at once (tic-tac-toe's stampede, each holding a connection
      // while it waits its turn on the matchmaking row) queued longer and got 503 DATABASE_UNAVAILABLE in
      // both runs of a comparison. The suite's one event deadline instead; a database that does not
      // answer is still proven to give 503 by the suites that cut it (their own DATABASE_URL, the portal's
      // pool: observability, chaos/database-redis).
      connectionTimeoutMillis: EVENT_DEADLINE_MS,
    });
    pools.set(url, pool);
  }
  return pool;
}

/**
 * Makes a used copy as good as new: false when it cannot be, because a test changed its schema (dropped a
 * table, added a trigger…), which no reset of rows undoes; such a copy is left for the run's teardown.
 */
async function resetCopy(url: string, reset: PgReset): Promise<boolean> {
  const pool = await copyPool(url);
  try {
    await pool.query(reset.sql);
    return true;
  } catch {
    pools.delete(url);
    await pool.end().catch(() => {});
    return false;
  }
}

/**
 * A PostgreSQL database as the run's migrated template left it, or null when the run has none: one this
 * worker used before and emptied again (DELETE of every table and the migrations' seed rows back: ≈10 ms),
 * else a new copy of the template (CREATE DATABASE … TEMPLATE: ≈100 ms alone, several times that on the
 * busy machine, for each of some 250 tests). `leaveCopy` hands it back once its apps have closed. Copies are
 * dropped with the rest of the run's databases when the run ends (a DROP DATABASE waits for a checkpoint,
 * so tests do not wait for it).
 */
export async function databaseFromPgTemplate(): Promise<{
  url: string;
  pool: () => Promise<PgPool>;
} | null> {
  const base = process.env.TEST_DATABASE_URL;
  const template = process.env[PG_TEMPLATE_ENV];
  const run = process.env[RUN_ENV];
  if (!base || !template || !run) return null;
  const reset = process.env[PG_RESET_ENV] ? (JSON.parse(process.env[PG_RESET_ENV]) as PgReset) : null;
  const hand = (url: string) => {
    inUse.set(url, 1);
    return { url, pool: () => copyPool(url) };
  };
  while (reset && released.length > 0) {
    const url = released.pop() as string;
    if (await resetCopy(url, reset)) return hand(url);
  }
  return hand(await createRunDatabase(base, run, `TEMPLATE ${template} STRATEGY WAL_LOG`));
}

/**
 * A new empty PostgreSQL database of this run's (dropped with the rest when the run ends), or null outside
 * a run. Kysely's migrator lists the tables of every schema of its database (with
 * pg_get_serial_sequence on each), so a server starting in a schema of the shared database failed with
 * "relation … does not exist" when another suite dropped or restored tables of its own schema meanwhile.
 */
export async function emptyRunDatabase(): Promise<string | null> {
  const base = process.env.TEST_DATABASE_URL;
  const run = process.env[RUN_ENV];
  if (!base || !run) return null;
  return createRunDatabase(base, run, '');
}

/** A new database named for the run (its teardown drops it), made with `options`; its URL. */
async function createRunDatabase(base: string, run: string, options: string): Promise<string> {
  const name = `${runDatabasePrefix(run)}${randomBytes(5).toString('hex')}`;
  await adminQuery(base, `CREATE DATABASE ${name} ${options}`);
  // A commit need not wait for its WAL to reach the disk in a throwaway database: the tests' many small
  // commits waited on fsync behind each other (a crash of the server loses the last commits, never
  // consistency; no test restarts PostgreSQL itself).
  await adminQuery(base, `ALTER DATABASE ${name} SET synchronous_commit = off`);
  return withDatabase(base, name);
}

/** Vitest global setup: migrates the templates once; the returned teardown drops the run's databases. */
export async function prepareTemplates(): Promise<() => Promise<void>> {
  const run = randomBytes(4).toString('hex');
  process.env[RUN_ENV] = run;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-template-'));
  const file = path.join(dir, 'guildhall.db');
  const sqlite = openDb(`sqlite:${file}`);
  await migrateToLatest(sqlite);
  await sqlite.destroy();
  process.env[SQLITE_TEMPLATE_ENV] = file;

  const base = process.env.TEST_DATABASE_URL;
  let template: string | null = null;
  if (base) {
    template = `gh_tmpl_${run}`;
    await adminQuery(base, `CREATE DATABASE ${template}`);
    await adminQuery(base, `ALTER DATABASE ${template} SET synchronous_commit = off`);
    const db = openDb(withDatabase(base, template));
    await migrateToLatest(db);
    await db.destroy();
    await adminQuery(withDatabase(base, template), SCHEMA_GUARD_SQL);
    process.env[PG_RESET_ENV] = JSON.stringify(await readPgReset(withDatabase(base, template)));
    process.env[PG_TEMPLATE_ENV] = template;
  }
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (!base) return;
    const { rows } = await adminQuery(
      base,
      `SELECT datname FROM pg_database WHERE datname LIKE '${startsWithPattern(runDatabasePrefix(run))}' OR datname = '${template}'`,
    );
    const names = rows.map((r: { datname: string }) => r.datname);
    const schemas = await adminQuery(
      base,
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE '${startsWithPattern(runSchemaPrefix(run))}'`,
    );
    const schemaNames = schemas.rows.map((r: { nspname: string }) => r.nspname);
    // A drop that fails (a lock it gave up on) leaves a throwaway schema or database behind, named for
    // this run; it never fails or holds up the run.
    const dropOrWarn = (what: string, sql: string) =>
      adminQuery(base, sql).then(
        () => undefined,
        (err: unknown) => console.warn(`test teardown: could not drop ${what}: ${(err as Error).message}`),
      );
    if (schemaNames.length > 0)
      await dropOrWarn(schemaNames.join(', '), `DROP SCHEMA IF EXISTS ${schemaNames.join(', ')} CASCADE`);
    // A few at a time: each drop waits on the server's checkpoint.
    for (let i = 0; i < names.length; i += 4) {
      await Promise.all(
        names.slice(i, i + 4).map((n) => dropOrWarn(n, `DROP DATABASE IF EXISTS ${n} WITH (FORCE)`)),
      );
    }
  };
}
