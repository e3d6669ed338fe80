import { DatabaseSync } from 'node:sqlite';
import { type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';

type Params = readonly unknown[];
type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 interface; Node 24's built-in node:sqlite is
 * close enough to adapt in a few lines, which spares every machine a native addon build.
 */
function adapt(db: DatabaseSync): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
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
    },
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
