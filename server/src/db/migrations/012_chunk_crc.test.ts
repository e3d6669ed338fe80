import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, test } from 'vitest';
import { createPgSchema, defaultTestDatabase } from '../../test/app.ts';
import { type Db, openDb } from '../index.ts';
import { migrations } from './index.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A fresh database of the suite's kind, migrated up to (and including) `last`. */
async function databaseAt(last: string): Promise<{ db: Db; migrator: Migrator }> {
  let url: string;
  let schema: string | undefined;
  if (defaultTestDatabase() === 'postgres') {
    const pg = await createPgSchema();
    url = pg.url;
    schema = pg.schema;
    cleanups.push(pg.drop);
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-mig-'));
    url = `sqlite:${path.join(dir, 'db.sqlite')}`;
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  const db = openDb(url);
  cleanups.unshift(() => db.destroy());
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
  return { db, migrator };
}

describe('migration 012: chunk CRC32C', () => {
  test('chunks stored before keep their SHA-256; new chunks need no SHA-256 and carry a CRC32C', async () => {
    const { db, migrator } = await databaseAt('011_security');
    const now = new Date().toISOString();
    await db
      .insertInto('files')
      .values({
        id: 'f1',
        parent_id: null,
        parent_key: '',
        type: 'file',
        name: 'old.bin',
        name_key: 'old.bin',
        category: 'uncategorized',
        size: 7,
        total_chunks: 1,
        sha256: 'a'.repeat(64),
        status: 'complete',
        owner_id: null,
        lease_expires_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // biome-ignore lint/suspicious/noExplicitAny: the table as it was before 012 (no crc32c column yet).
    await (db as any)
      .insertInto('file_chunks')
      .values({ file_id: 'f1', idx: 0, blob_id: 'b0', size: 7, sha256: 'b'.repeat(64) })
      .execute();

    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    const [old] = await db.selectFrom('file_chunks').selectAll().execute();
    expect(old).toMatchObject({
      file_id: 'f1',
      idx: 0,
      blob_id: 'b0',
      size: 7,
      sha256: 'b'.repeat(64),
      crc32c: null,
    });
    await db
      .insertInto('file_chunks')
      .values({ file_id: 'f1', idx: 1, blob_id: 'b1', size: 3, sha256: null, crc32c: '0a1b2c3d' })
      .execute();
    // The cascade from files still holds after SQLite's rebuild of the table.
    await db.deleteFrom('files').where('id', '=', 'f1').execute();
    expect(await db.selectFrom('file_chunks').selectAll().execute()).toEqual([]);
  });
});
