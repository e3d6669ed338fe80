import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/index.ts';
import {
  type BlobStore,
  checkChunkBytes,
  kindOf,
  type RoutingBlobStore,
  type StoreKind,
  threadGarbageId,
} from '../../platform/blob-store/index.ts';
import { type Clock, realClock } from '../../platform/feature.ts';
import { isoOn } from '../../platform/time.ts';
import { chunkCheck } from '../../platform/transfer/chunk-reader.ts';
import { collectGarbage } from './maintenance.ts';
import { listChunks, queueGarbage } from './repo.ts';
import {
  currentChunkBlobs,
  forgetCopies,
  forgetCopiesOfFile,
  listCopies,
  listStoredFiles,
  recordCopy,
  setFileThread,
  switchChunk,
} from './repo-migration.ts';
import type { FileChunksTable } from './tables.ts';

/**
 * `storage migrate --to <store>`: copies every listed file's chunks to another store, reads each copy
 * back from the destination and checks its SHA-256, and only then switches the file to the copies (one
 * transaction per file, which queues the old blobs for deletion). Copies are recorded in
 * `storage_copies` as they are made, so a run that is killed leaves nothing behind: the next run deletes
 * the unfinished file's copies and does that file again. Files already in the destination are skipped,
 * so running it again continues where it stopped.
 */
export type MigrationProgress = {
  done: number;
  total: number;
  bytes: number;
  file: { id: string; name: string; size: number };
};

export type MigrationReport = { migrated: number; skipped: number; failed: number; bytes: number };

export async function migrateStorage(
  db: Db,
  store: RoutingBlobStore,
  to: StoreKind,
  opts: {
    onProgress?: (p: MigrationProgress) => void;
    onError?: (file: string, e: unknown) => void;
    /** What copies and queued garbage are dated by (the CLI's process: the real clock). */
    clock?: Clock;
  } = {},
): Promise<MigrationReport> {
  const clock = opts.clock ?? realClock;
  if (!store.storeOf(to)) throw new Error(`The ${to} store is not configured (see docs/files.md, "Stores")`);
  await dropUnfinishedCopies(db, store);
  const dest = store.writingTo(to);
  const files = await listStoredFiles(db);
  const report: MigrationReport = { migrated: 0, skipped: 0, failed: 0, bytes: 0 };
  let done = 0;
  for (const file of files) {
    const chunks = await listChunks(db, file.id);
    const size = Number(file.size);
    if (chunks.every((c) => kindOf(c.blob_id) === to)) {
      report.skipped += 1;
    } else {
      try {
        await migrateFile(db, store, dest, file.id, file.thread_id ?? null, chunks, clock);
        report.migrated += 1;
        report.bytes += size;
      } catch (e) {
        report.failed += 1;
        opts.onError?.(file.name, e);
        await dropUnfinishedCopies(db, store).catch(() => {});
      }
    }
    done += 1;
    opts.onProgress?.({
      done,
      total: files.length,
      bytes: report.bytes,
      file: { id: file.id, name: file.name, size },
    });
  }
  await collectGarbage(db, store);
  return report;
}

async function migrateFile(
  db: Db,
  store: RoutingBlobStore,
  dest: RoutingBlobStore,
  fileId: string,
  oldThread: string | null,
  chunks: FileChunksTable[],
  clock: Clock,
): Promise<void> {
  let newThread: string | null = null;
  // On Discord this is called with the thread's name first (recorded before the thread is asked for, so a
  // run killed before Discord's answer is recorded still finds the thread by it), then with its id.
  const scoped = dest.forFile(fileId, async (thread) => {
    newThread = thread;
    await recordCopy(db, threadGarbageId(thread), fileId, isoOn(clock));
  });
  const copies: string[] = [];
  for (const c of chunks) {
    const check = chunkCheck(c);
    const bytes = await readAll(await store.get(c.blob_id));
    checkChunkBytes(bytes, check, `${c.idx} in the source store`);
    const id = await scoped.put([bytes], bytes.length);
    await recordCopy(db, id, fileId, isoOn(clock));
    // Verified at the destination: read back from there and checked against the chunk's record.
    const back = await readAll(await dest.get(id));
    checkChunkBytes(back, check, `${c.idx} at the destination`);
    copies.push(id);
  }
  await db.transaction().execute(async (trx) => {
    const current = await currentChunkBlobs(trx, fileId);
    const unchanged =
      current.length === chunks.length && current.every((r, i) => r.blob_id === chunks[i]?.blob_id);
    if (!unchanged) throw new Error('the file changed or was deleted during the copy');
    for (const [i, c] of chunks.entries()) await switchChunk(trx, fileId, c.idx, copies[i]!);
    await setFileThread(trx, fileId, newThread);
    const old = chunks.map((c) => c.blob_id);
    if (oldThread) old.push(threadGarbageId(oldThread));
    await queueGarbage(trx, old, isoOn(clock));
    await forgetCopiesOfFile(trx, fileId);
  });
}

/** Copies of a run that stopped before switching: deleted from their store, never used. */
async function dropUnfinishedCopies(db: Db, store: BlobStore): Promise<number> {
  const ids = await listCopies(db);
  if (ids.length === 0) return 0;
  const deleted = store.deleteMany ? await store.deleteMany(ids) : [];
  await forgetCopies(db, deleted);
  return deleted.length;
}

export type VerifyReport = {
  files: number;
  chunks: number;
  bytes: number;
  problems: { fileId: string; name: string; idx: number | null; problem: string }[];
};

/** `storage verify`: re-reads every chunk of every stored file, checking each chunk's checksum and the file's SHA-256. */
export async function verifyStorage(
  db: Db,
  store: BlobStore,
  opts: { onProgress?: (done: number, total: number) => void } = {},
): Promise<VerifyReport> {
  const files = await listStoredFiles(db);
  const report: VerifyReport = { files: 0, chunks: 0, bytes: 0, problems: [] };
  for (const file of files) {
    const chunks = await listChunks(db, file.id);
    const whole = createHash('sha256');
    let ok = chunks.length === file.total_chunks;
    if (!ok)
      report.problems.push({ fileId: file.id, name: file.name, idx: null, problem: 'chunks are missing' });
    for (const c of chunks) {
      try {
        const bytes = await readAll(await store.get(c.blob_id));
        try {
          checkChunkBytes(bytes, chunkCheck(c), String(c.idx));
        } catch {
          report.problems.push({ fileId: file.id, name: file.name, idx: c.idx, problem: 'corrupt' });
          ok = false;
        }
        whole.update(bytes);
        report.chunks += 1;
        report.bytes += bytes.length;
      } catch (e) {
        report.problems.push({
          fileId: file.id,
          name: file.name,
          idx: c.idx,
          problem: `missing (${e instanceof Error ? e.message : String(e)})`,
        });
        ok = false;
      }
    }
    if (ok && file.sha256 && whole.digest('hex') !== file.sha256) {
      report.problems.push({
        fileId: file.id,
        name: file.name,
        idx: null,
        problem: "the file's SHA-256 differs",
      });
    }
    report.files += 1;
    opts.onProgress?.(report.files, files.length);
  }
  return report;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p as Buffer);
  return Buffer.concat(parts);
}
