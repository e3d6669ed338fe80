import type { Db } from '../../../db/index.ts';
import type { ArchiveTicketsTable } from '../tables.ts';

/** Kysely queries of ZIP archives: their tickets and the items a selection holds; no rules here. */

/** Deletes the tickets expired at `nowIso`, then stores this one. */
export async function insertArchiveTicket(db: Db, row: ArchiveTicketsTable, nowIso: string): Promise<void> {
  await db.deleteFrom('archive_tickets').where('expires_at', '<=', nowIso).execute();
  await db.insertInto('archive_tickets').values(row).execute();
}

export async function findArchiveTicket(db: Db, tokenHash: string): Promise<ArchiveTicketsTable | undefined> {
  return db.selectFrom('archive_tickets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export type ArchiveChildRow = {
  id: string;
  parent_id: string | null;
  name: string;
  type: 'file' | 'folder';
  size: number | string;
  updated_at: string;
};

/** The complete items directly inside these folders, by name. */
export async function listCompleteChildren(db: Db, parentIds: string[]): Promise<ArchiveChildRow[]> {
  return db
    .selectFrom('files')
    .select(['id', 'parent_id', 'name', 'type', 'size', 'updated_at'])
    .where('parent_id', 'in', parentIds)
    .where('status', '=', 'complete')
    .orderBy('name_key')
    .execute();
}
