import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

export type DbKind = 'sqlite' | 'postgres';

/** A chunk row as the snapshot holds it, with its file's name for the manifest. */
export type SnapshotChunk = {
  file_id: string;
  name: string;
  idx: number;
  blob_id: string;
  size: number;
  /** Chunks stored since migration 012 carry a CRC32C; older ones a SHA-256. */
  crc32c: string | null;
  sha256: string | null;
};

export type SnapshotFile = { id: string; name: string; size: number; sha256: string | null; status: string };

export type Snapshot = {
  kind: DbKind;
  /** The file written into the backup dir (relative name). */
  file: string;
  migrations: string[];
  files: SnapshotFile[];
  chunks: SnapshotChunk[];
};

export const SQLITE_FILE = 'database.sqlite';
export const PG_FILE = 'database.jsonl';
/** Kysely's own bookkeeping: restored by running the migrations, not by copying rows. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

export function kindOfUrl(url: string): DbKind {
  return url.startsWith('postgres') ? 'postgres' : 'sqlite';
}

export function sqliteFileOf(url: string): string {
  return url.replace(/^sqlite:/, '');
}

const FILES_SQL = 'SELECT id, name, size, sha256, status FROM files WHERE type = ? ORDER BY id';
const CHUNKS_SQL = `SELECT c.file_id, f.name, c.idx, c.blob_id, c.size, c.crc32c, c.sha256
  FROM file_chunks c JOIN files f ON f.id = c.file_id ORDER BY c.file_id, c.idx`;

/**
 * One consistent snapshot of the whole database, written to `dir`, with the file and chunk lists as
 * of that snapshot. SQLite: `VACUUM INTO` (SQLite's online copy: one read transaction, the server keeps
 * writing). PostgreSQL: every table's rows read inside one REPEATABLE READ READ ONLY transaction and
 * written as JSON lines (see docs/operations.md, "Backups", for why not pg_dump).
 */
export async function snapshotDatabase(db: Db, url: string, dir: string): Promise<Snapshot> {
  if (kindOfUrl(url) === 'sqlite') {
    const file = `${dir}/${SQLITE_FILE}`;
    await sql`VACUUM INTO ${file}`.execute(db);
    const snap = new DatabaseSync(file, { readOnly: true });
    try {
      const migrations = snap
        .prepare('SELECT name FROM kysely_migration ORDER BY name')
        .all()
        .map((r) => String(r.name));
      const files = snap.prepare(FILES_SQL).all('file').map(toFile);
      const chunks = snap.prepare(CHUNKS_SQL).all().map(toChunk);
      return { kind: 'sqlite', file: SQLITE_FILE, migrations, files, chunks };
    } finally {
      snap.close();
    }
  }
  const out = createWriteStream(`${dir}/${PG_FILE}`);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  try {
    const snapshot = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`SET TRANSACTION READ ONLY`.execute(trx);
        const tables = (
          await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(
            trx,
          )
        ).rows
          .map((r) => r.table_name)
          .filter((t) => !MIGRATION_TABLES.has(t));
        const migrations = (
          await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(trx)
        ).rows.map((r) => r.name);
        await write(JSON.stringify({ migrations, tables }));
        for (const table of tables) {
          const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(trx))
            .rows;
          for (const row of rows) await write(JSON.stringify([table, row]));
        }
        const files = (
          await sql<Record<string, unknown>>`SELECT id, name, size, sha256, status FROM files
            WHERE type = 'file' ORDER BY id`.execute(trx)
        ).rows.map(toFile);
        const chunks = (
          await sql<
            Record<string, unknown>
          >`SELECT c.file_id, f.name, c.idx, c.blob_id, c.size, c.crc32c, c.sha256
            FROM file_chunks c JOIN files f ON f.id = c.file_id ORDER BY c.file_id, c.idx`.execute(trx)
        ).rows.map(toChunk);
        return { kind: 'postgres' as const, file: PG_FILE, migrations, files, chunks };
      });
    out.end();
    await once(out, 'finish');
    return snapshot;
  } catch (e) {
    out.destroy();
    throw e;
  }
}

function toFile(r: Record<string, unknown>): SnapshotFile {
  return {
    id: String(r.id),
    name: String(r.name),
    size: Number(r.size),
    sha256: r.sha256 === null ? null : String(r.sha256),
    status: String(r.status),
  };
}

function toChunk(r: Record<string, unknown>): SnapshotChunk {
  return {
    file_id: String(r.file_id),
    name: String(r.name),
    idx: Number(r.idx),
    blob_id: String(r.blob_id),
    size: Number(r.size),
    crc32c: r.crc32c === null || r.crc32c === undefined ? null : String(r.crc32c),
    sha256: r.sha256 === null || r.sha256 === undefined ? null : String(r.sha256),
  };
}

/** The rows of a backup's database, table by table (PostgreSQL dump or SQLite snapshot). */
export async function* backupRows(
  kind: DbKind,
  file: string,
): AsyncGenerator<[table: string, row: Record<string, unknown>]> {
  if (kind === 'sqlite') {
    const snap = new DatabaseSync(file, { readOnly: true });
    try {
      const tables = snap
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all()
        .map((r) => String(r.name))
        .filter((t) => !MIGRATION_TABLES.has(t));
      for (const t of tables) {
        for (const row of snap.prepare(`SELECT * FROM "${t.replaceAll('"', '""')}"`).iterate()) {
          yield [t, row as Record<string, unknown>];
        }
      }
    } finally {
      snap.close();
    }
    return;
  }
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let first = true;
  for await (const line of lines) {
    if (first) {
      first = false;
      continue;
    }
    if (line) yield JSON.parse(line) as [string, Record<string, unknown>];
  }
}

/** The migrations a backup's database had run. */
export async function backupMigrations(kind: DbKind, file: string): Promise<string[]> {
  if (kind === 'sqlite') {
    const snap = new DatabaseSync(file, { readOnly: true });
    try {
      return snap
        .prepare('SELECT name FROM kysely_migration ORDER BY name')
        .all()
        .map((r) => String(r.name));
    } finally {
      snap.close();
    }
  }
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    lines.close();
    return (JSON.parse(line) as { migrations: string[] }).migrations;
  }
  return [];
}
