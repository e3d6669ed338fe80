import type { Db } from '../../db/index.ts';
import type { FileChunksTable, FilesTable } from './tables.ts';

/** Kysely queries of `storage migrate` and `storage verify` (storage-migration.ts); no rules here. */

type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable' | 'deleteFrom'>;

/** Every stored file (trashed ones too: they may still be restored, so their bytes move with the rest), by id. */
export async function listStoredFiles(
  db: Db,
): Promise<Pick<FilesTable, 'id' | 'name' | 'size' | 'thread_id' | 'sha256' | 'total_chunks'>[]> {
  return db
    .selectFrom('files')
    .select(['id', 'name', 'size', 'thread_id', 'sha256', 'total_chunks'])
    .where('type', '=', 'file')
    .where('status', 'in', ['complete', 'trashed'])
    .orderBy('id')
    .execute();
}

/** A file's chunks as they are now (inside the switching transaction), by index. */
export async function currentChunkBlobs(
  db: Executor,
  fileId: string,
): Promise<Pick<FileChunksTable, 'idx' | 'blob_id'>[]> {
  return db
    .selectFrom('file_chunks')
    .select(['idx', 'blob_id'])
    .where('file_id', '=', fileId)
    .orderBy('idx')
    .execute();
}

/** Points chunk `idx` of a file at its copy, and the file at its new thread (Discord) or none. */
export async function switchChunk(db: Executor, fileId: string, idx: number, blobId: string): Promise<void> {
  await db
    .updateTable('file_chunks')
    .set({ blob_id: blobId })
    .where('file_id', '=', fileId)
    .where('idx', '=', idx)
    .execute();
}

export async function setFileThread(db: Executor, fileId: string, threadId: string | null): Promise<void> {
  await db.updateTable('files').set({ thread_id: threadId }).where('id', '=', fileId).execute();
}

/** Records a copy written by a run, so a run that stops before switching can delete it. */
export async function recordCopy(db: Executor, blobId: string, fileId: string, now: string): Promise<void> {
  await db
    .insertInto('storage_copies')
    .values({ blob_id: blobId, file_id: fileId, created_at: now })
    // A thread name left over from a run whose clean-up could not reach Discord is recorded already.
    .onConflict((oc) => oc.column('blob_id').doNothing())
    .execute();
}

export async function forgetCopiesOfFile(db: Executor, fileId: string): Promise<void> {
  await db.deleteFrom('storage_copies').where('file_id', '=', fileId).execute();
}

export async function listCopies(db: Db): Promise<string[]> {
  return (await db.selectFrom('storage_copies').select('blob_id').execute()).map((r) => r.blob_id);
}

export async function forgetCopies(db: Db, blobIds: string[]): Promise<void> {
  if (blobIds.length > 0) await db.deleteFrom('storage_copies').where('blob_id', 'in', blobIds).execute();
}
