import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { type Db, openDb } from '../db/index.ts';
import { migrations } from '../db/migrations/index.ts';
import { backupMigrations, backupRows, type DbKind, kindOfUrl, sqliteFileOf } from './database.ts';

// biome-ignore lint/suspicious/noExplicitAny: rows are copied table by table whatever their schema.
type AnyDb = Kysely<any>;

/** Whether the target database holds anything (a restore refuses to overwrite it without --force). */
export async function targetDatabaseInUse(url: string): Promise<boolean> {
  if (kindOfUrl(url) === 'sqlite') {
    const file = sqliteFileOf(url);
    return fs.existsSync(file) && fs.statSync(file).size > 0;
  }
  const db = openDb(url);
  try {
    return (await pgTables(db)).length > 0;
  } finally {
    await db.destroy();
  }
}

/** Empties the target database (restore --force). */
export async function clearTargetDatabase(url: string): Promise<void> {
  if (kindOfUrl(url) === 'sqlite') {
    const file = sqliteFileOf(url);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    return;
  }
  const ours = await guildhallTables();
  const db = openDb(url);
  try {
    for (const t of await pgTables(db)) {
      // Only Guildhall's own tables: a database shared with something else keeps the rest.
      if (ours.has(t)) await sql`DROP TABLE IF EXISTS ${sql.table(t)} CASCADE`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

/** The tables this build's migrations create (and the migrator's own), found on a scratch database. */
async function guildhallTables(): Promise<Set<string>> {
  const scratch = openDb('sqlite::memory:');
  try {
    await migrate(scratch, null, 'sqlite');
    const r = await sql<{ name: string }>`SELECT name FROM sqlite_master
      WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(scratch);
    return new Set(r.rows.map((x) => x.name));
  } finally {
    await scratch.destroy();
  }
}

async function pgTables(db: AnyDb): Promise<string[]> {
  const r = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
  return r.rows.map((x) => x.table_name);
}

/**
 * Puts the backup's database into the (empty) target: a SQLite backup into a SQLite target is the
 * snapshot file itself; otherwise the target gets the backup's schema version by running the same
 * migrations, then every row (parents before children), then any newer migrations. Returns the
 * target, opened and migrated to this build's latest.
 */
export async function restoreDatabase(
  kind: DbKind,
  file: string,
  url: string,
): Promise<{ db: Db; rows: number }> {
  const known = Object.keys(migrations).sort();
  const had = await backupMigrations(kind, file);
  const unknown = had.filter((m) => !known.includes(m));
  if (unknown.length > 0) {
    throw new Error(
      `The backup was made by a newer Guildhall (migrations ${unknown.join(', ')}); upgrade first`,
    );
  }
  if (kind === 'sqlite' && kindOfUrl(url) === 'sqlite') {
    const target = sqliteFileOf(url);
    fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    fs.copyFileSync(file, target);
    const db = openDb(url);
    await migrate(db, null, 'sqlite');
    const rows = await countRows(db);
    return { db, rows };
  }
  const db = openDb(url);
  try {
    if (had.length > 0) await migrate(db, had[had.length - 1]!, kindOfUrl(url));
    const byTable = new Map<string, Record<string, unknown>[]>();
    for await (const [table, row] of backupRows(kind, file)) {
      const list = byTable.get(table);
      if (list) list.push(row);
      else byTable.set(table, [row]);
    }
    let rows = 0;
    await db.transaction().execute(async (trx) => {
      const fks = await foreignKeys(trx, kindOfUrl(url));
      const order = insertionOrder([...byTable.keys()], fks);
      // Migrations seed some rows (single-row tables); the backup's rows replace them.
      for (const table of [...order].reverse()) await (trx as AnyDb).deleteFrom(table).execute();
      for (const table of order) {
        const self = fks.find((f) => f.table === table && f.ref === table);
        const list = self
          ? parentsFirst(byTable.get(table)!, self.column, self.refColumn)
          : byTable.get(table)!;
        for (let i = 0; i < list.length; i += 100) {
          await (trx as AnyDb)
            .insertInto(table)
            .values(list.slice(i, i + 100))
            .execute();
        }
        rows += list.length;
      }
    });
    await migrate(db, null, kindOfUrl(url));
    return { db, rows };
  } catch (e) {
    await db.destroy();
    throw e;
  }
}

/** Runs migrations up to `target` (or all); on PostgreSQL the bookkeeping goes to the current schema. */
async function migrate(db: AnyDb, target: string | null, kind: DbKind): Promise<void> {
  const schema =
    kind === 'postgres'
      ? (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(db)).rows[0]?.s
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

async function countRows(db: AnyDb): Promise<number> {
  const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master
    WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`.execute(db);
  let n = 0;
  for (const { name } of tables.rows) {
    const r = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(name)}`.execute(db);
    n += Number(r.rows[0]?.n ?? 0);
  }
  return n;
}

type ForeignKey = { table: string; column: string; ref: string; refColumn: string };

async function foreignKeys(db: AnyDb, kind: DbKind): Promise<ForeignKey[]> {
  if (kind === 'sqlite') {
    const r = await sql<ForeignKey>`SELECT m.name AS "table", p."from" AS "column", p."table" AS ref,
      p."to" AS "refColumn" FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) p
      WHERE m.type = 'table'`.execute(db);
    return r.rows;
  }
  const r = await sql<ForeignKey>`SELECT kcu.table_name AS "table", kcu.column_name AS "column",
      ccu.table_name AS ref, ccu.column_name AS "refColumn"
    FROM information_schema.table_constraints tc
    JOIN information_schema.key_column_usage kcu
      ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
    JOIN information_schema.constraint_column_usage ccu
      ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
    WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`.execute(db);
  return r.rows;
}

/** Tables ordered so every table comes after those it references. */
export function insertionOrder(tables: string[], fks: ForeignKey[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (seen.has(t) || path.has(t)) return;
    path.add(t);
    for (const f of fks) if (f.table === t && f.ref !== t && tables.includes(f.ref)) visit(f.ref, path);
    seen.add(t);
    out.push(t);
  };
  for (const t of [...tables].sort()) visit(t, new Set());
  return out;
}

/** Rows of a self-referencing table (folders) ordered so each row's parent comes first. */
function parentsFirst(
  rows: Record<string, unknown>[],
  column: string,
  refColumn: string,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const placed = new Set<unknown>();
  let pending = rows;
  while (pending.length > 0) {
    const next: Record<string, unknown>[] = [];
    for (const r of pending) {
      if (r[column] === null || placed.has(r[column])) {
        out.push(r);
        placed.add(r[refColumn]);
      } else next.push(r);
    }
    // A parent missing from the backup: insert the rest and let the constraint say so.
    if (next.length === pending.length) return [...out, ...next];
    pending = next;
  }
  return out;
}
