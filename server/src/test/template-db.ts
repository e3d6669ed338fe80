import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDb } from '../db/index.ts';

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
  const client = new pg.Client({ connectionString: base });
  client.on('error', () => {}); // a dropped connection surfaces through the query below
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A fresh PostgreSQL database copied from the run's migrated template, or null when the run has none.
 * It is dropped with the rest of the run's databases when the run ends (a DROP DATABASE waits for a
 * checkpoint, so tests do not wait for it).
 */
export async function databaseFromPgTemplate(): Promise<{ url: string } | null> {
  const base = process.env.TEST_DATABASE_URL;
  const template = process.env[PG_TEMPLATE_ENV];
  const run = process.env[RUN_ENV];
  if (!base || !template || !run) return null;
  const name = `${runDatabasePrefix(run)}${randomBytes(5).toString('hex')}`;
  await adminQuery(base, `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY WAL_LOG`);
  return { url: withDatabase(base, name) };
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
  const name = `${runDatabasePrefix(run)}${randomBytes(5).toString('hex')}`;
  await adminQuery(base, `CREATE DATABASE ${name}`);
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
    const db = openDb(withDatabase(base, template));
    await migrateToLatest(db);
    await db.destroy();
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
    if (schemaNames.length > 0)
      await adminQuery(base, `DROP SCHEMA IF EXISTS ${schemaNames.join(', ')} CASCADE`);
    // A few at a time: each drop waits on the server's checkpoint.
    for (let i = 0; i < names.length; i += 4) {
      await Promise.all(
        names.slice(i, i + 4).map((n) => adminQuery(base, `DROP DATABASE IF EXISTS ${n} WITH (FORCE)`)),
      );
    }
  };
}
