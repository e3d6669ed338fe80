import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { UploadRequestsTable } from '../tables.ts';

/** Kysely queries of upload requests (issue 45). */

type Reader = Pick<Db, 'selectFrom'>;

export async function insertUploadRequest(db: Db, row: UploadRequestsTable): Promise<void> {
  await db.insertInto('upload_requests').values(row).execute();
}

export async function findRequestByToken(
  db: Reader,
  token: string,
): Promise<UploadRequestsTable | undefined> {
  return db.selectFrom('upload_requests').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function findRequestById(db: Reader, id: string): Promise<UploadRequestsTable | undefined> {
  return db.selectFrom('upload_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A member's requests with their folder's name, newest first. */
export async function listMemberRequests(db: Db, ownerId: string) {
  return db
    .selectFrom('upload_requests')
    .leftJoin('files', 'files.id', 'upload_requests.folder_id')
    .selectAll('upload_requests')
    .select('files.name as folder_name')
    .where('upload_requests.owner_id', '=', ownerId)
    .orderBy('upload_requests.created_at', 'desc')
    .orderBy('upload_requests.id')
    .execute();
}

export async function findRequestWithFolder(db: Db, id: string) {
  return db
    .selectFrom('upload_requests')
    .leftJoin('files', 'files.id', 'upload_requests.folder_id')
    .selectAll('upload_requests')
    .select('files.name as folder_name')
    .where('upload_requests.id', '=', id)
    .executeTakeFirst();
}

/** Requests of a member neither closed nor expired at `now`. */
export async function countOpenRequests(db: Db, ownerId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('upload_requests')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('owner_id', '=', ownerId)
    .where('closed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markRequestClosed(db: Db, id: string, ownerId: string, now: string): Promise<number> {
  const r = await db
    .updateTable('upload_requests')
    .set({ closed_at: now })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Guest uploads of a request still under way (uploading, or stored and not yet listed): count and bytes. */
export async function uploadsUnderWay(
  db: Reader,
  requestId: string,
): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom('files')
    .select([
      (eb) => eb.fn.countAll<number | string>().as('n'),
      sql<number | string | null>`sum(size)`.as('bytes'),
    ])
    .where('upload_request_id', '=', requestId)
    .where('type', '=', 'file')
    .where('status', 'in', ['uploading', 'stored'])
    .executeTakeFirst();
  return { files: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** Adds one received file to a request's counts, in one atomic update. */
export async function countReceived(db: Db, id: string, bytes: number): Promise<void> {
  await db
    .updateTable('upload_requests')
    .set({
      files_received: sql<number>`files_received + 1`,
      bytes_received: sql<number>`bytes_received + ${bytes}`,
    })
    .where('id', '=', id)
    .execute();
}

/** The owner's name as the guest page shows it ("… asks you for files"). */
export async function findOwnerName(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('username')
    .where('discord_id', '=', userId)
    .executeTakeFirst();
  return row?.username;
}

/** Ends the leases of a request's guest uploads still receiving bytes: the maintenance sweep drops them. */
export async function expireUnfinishedUploads(db: Db, requestId: string, now: string): Promise<void> {
  await db
    .updateTable('files')
    .set({ lease_expires_at: now })
    .where('upload_request_id', '=', requestId)
    .where('status', '=', 'uploading')
    .execute();
}
