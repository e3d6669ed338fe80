import { DatabaseSync } from 'node:sqlite';
import { type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';

type Params = readonly unknown[];
type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 interface; Node 24's built-in node:sqlite is
 * close enough to adapt in a few lines, which spares every machine a native addon build.
 * Prepared statements are cached by SQL text: Kysely prepares on every query, and preparing was a
 * fifth of the server's CPU under the realtime benchmark. Kysely runs one query at a time on this
 * connection, so sharing a statement is safe; SQLite re-prepares it itself after a schema change.
 */
function adapt(db: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached) return cached;
      const statement = prepareStatement(db, sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

function prepareStatement(db: DatabaseSync, sql: string): SqliteStatement {
  const stmt = db.prepare(sql);
  const values = (p: Params) => p.map(toSqlite);
  return {
    reader: stmt.columns().length > 0,
    all: (p: Params) => stmt.all(...values(p)),
    run: (p: Params) => {
      const r = stmt.run(...values(p));
      return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
    },
    iterate: (p: Params) => stmt.iterate(...values(p)),
  };
}

function toSqlite(v: unknown): SqliteValue {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  return v as SqliteValue;
}

export function createSqliteDialect(file: string): SqliteDialect {
  return new SqliteDialect({
    database: async () => {
      const db = new DatabaseSync(file);
      // WAL lets readers proceed during a write; busy_timeout covers a second process (the admin CLI).
      db.exec(
        'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;',
      );
      return adapt(db);
    },
  });
}
