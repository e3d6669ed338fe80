import { randomUUID } from 'node:crypto';
import {
  CategoryName,
  CHUNK_SIZE_BYTES,
  DEFAULT_CATEGORY,
  formatFileSize,
  nameProblem,
  type UploadCompleteBody,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { type BlobStore, StoreUnavailableError } from '../../platform/blob-store/index.ts';
import { fail } from '../../platform/errors.ts';
import { RETRY, retryOptimistic } from '../../platform/optimistic.ts';
import { dateOn, isoIn, isoOn } from '../../platform/time.ts';
import { BufferWaitTimeout } from '../../platform/transfer/buffer-pool.ts';
import { type StoredChunk, storeInChunks, TooLargeError } from '../../platform/transfer/chunker.ts';
import type { FilesContext } from './context.ts';
import { UploadTooSlowError, uploadBusy, uploadTooSlow } from './fair-uploads.ts';
import { discardItems, UPLOAD_LEASE_MS, UPLOAD_LEASE_RENEW_MS } from './maintenance.ts';
import { isUniqueViolation, nameKey, numberedName, parentKeyOf } from './names.ts';
import {
  findItem,
  findListedItem,
  type ItemRow,
  insertChunk,
  insertItem,
  listChunks,
  publishStoredUpload,
  takenNameKeys,
  updateItem,
} from './repo.ts';
import { requireFolder } from './service.ts';
import { admitUpload, diskFull, growReservation, isNoSpace } from './storage-limits/service.ts';
import type { FilesTable } from './tables.ts';

/** A multipart part as the upload needs it (a structural subset of @fastify/multipart's parts). */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: AsyncIterable<Uint8Array> };

export const tooLarge = (maxBytes: number) =>
  fail('FILE_TOO_LARGE', `File is too large: the limit is ${formatFileSize(maxBytes)} (${maxBytes} bytes)`);

export const storageUnavailable = () =>
  fail('STORAGE_UNAVAILABLE', 'File storage is unavailable right now; try again in a moment');

const ID = /^[A-Za-z0-9_-]{1,64}$/;

type Target = { parentId: string | null; category: string };

/** folderId and category from the form fields; a bad value is a 400, an unknown folder a 404. */
export async function resolveTarget(db: Db, fields: Record<string, string>): Promise<Target> {
  const folderId = fields.folderId?.trim() || null;
  if (folderId !== null) {
    if (!ID.test(folderId)) throw fail('VALIDATION', 'folderId is not a valid id');
    await requireFolder(db, folderId);
  }
  let category = DEFAULT_CATEGORY;
  if (fields.category !== undefined && fields.category.trim() !== '') {
    const parsed = CategoryName.safeParse(fields.category);
    if (!parsed.success) throw fail('VALIDATION', parsed.error.issues[0]?.message ?? 'category is invalid');
    category = parsed.data;
  }
  return { parentId: folderId, category };
}

/** How much more an upload of unknown length reserves each time it needs room (see receiveUpload). */
const RESERVATION_STEP_BYTES = 64 * 1024 * 1024;

/**
 * POST /upload: streams the one file of a multipart form into chunks in the store. The item stays
 * unlisted ("stored") until POST /upload/complete. Any failure (bad fields, too large, client gone)
 * removes the row and its chunks before the error propagates.
 *
 * Storage admission (quota, disk reserve) happens before the body is read: the row is inserted with
 * `declared` bytes reserved, checked and reserved in one transaction (admitUpload), so concurrent
 * uploads cannot each take the same room. A file larger than that (a body of unknown length, or one a
 * little over its Content-Length estimate) grows the reservation before each further chunk is stored,
 * and the final update swaps the reservation for the stored size in the same write.
 */
export async function receiveUpload(
  ctx: FilesContext,
  ownerId: string,
  parts: AsyncIterable<UploadPart>,
  /** The file's expected size (Content-Length less the multipart framing), or null if unknown. */
  declared: number | null = null,
): Promise<{ fileId: string; totalChunks: number }> {
  const { db, store } = ctx;
  const maxUploadBytes = ctx.maxUploadBytes;
  const fields: Record<string, string> = {};
  const id = randomUUID();
  let fileId: string | null = null;
  let stored: { size: number; sha256: string; chunks: number } | null = null;
  let provisional = 'upload';
  let lease: NodeJS.Timeout | undefined;
  const now = isoOn(ctx.clock);
  await admitUpload(
    ctx.db,
    ctx.limits,
    { userId: ownerId, declared: declared ?? 0, resumable: false },
    (trx) =>
      insertItem(trx, {
        id,
        parent_id: null,
        parent_key: '',
        type: 'file',
        name: 'upload',
        name_key: '',
        category: DEFAULT_CATEGORY,
        size: 0,
        total_chunks: 0,
        sha256: null,
        status: 'uploading',
        owner_id: ownerId,
        lease_expires_at: isoIn(ctx.clock, UPLOAD_LEASE_MS),
        created_at: now,
        updated_at: now,
        reserved_bytes: declared ?? 0,
      }),
  );
  fileId = id;
  try {
    lease = setInterval(() => {
      updateItem(db, id, { lease_expires_at: isoIn(ctx.clock, UPLOAD_LEASE_MS) }).catch(() => {});
    }, UPLOAD_LEASE_RENEW_MS);
    let hasFile = false;
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file') {
        throw fail(
          'VALIDATION',
          `Unexpected file field "${part.fieldname}": send the file in the field "file"`,
        );
      }
      if (hasFile) throw fail('VALIDATION', 'Send one file per upload');
      hasFile = true;
      // Fields sent before the file are checked before any byte is stored.
      await resolveTarget(db, fields);
      const name = part.filename?.trim() || 'upload';
      if (!nameProblem(name)) provisional = name;
      // The Discord store keeps a file's chunks in one thread: its id is recorded before any chunk goes in.
      const fileStore =
        store.forFile?.(id, async (thread) => {
          await updateItem(db, id, { thread_id: thread });
        }) ?? store;
      const fileHash = ctx.hashes.openFileHash();
      try {
        const chunked = await storeInChunks(part.file, {
          store: reservingStore(fileStore, ctx, ownerId, id, declared),
          buffers: ctx.buffers,
          fileHash,
          maxBytes: maxUploadBytes,
          bufferWaitMs: ctx.fairness.bufferWaitMs,
          unrecorded: ctx.limits.unrecorded,
          onChunk: (c) => insertChunk(db, chunkRow(id, c)),
        });
        stored = { ...chunked, sha256: await fileHash.final() };
      } catch (e) {
        fileHash.drop();
        throw e;
      }
    }
    if (!stored) throw fail('VALIDATION', 'No file in the upload: send it in the multipart field "file"');
    const target = await resolveTarget(db, fields);
    try {
      await updateItem(db, id, {
        status: 'stored',
        name: provisional,
        size: stored.size,
        // The stored size now counts what the reservation held, in the same write.
        reserved_bytes: 0,
        sha256: stored.sha256,
        total_chunks: stored.chunks,
        parent_id: target.parentId,
        parent_key: parentKeyOf(target.parentId),
        category: target.category,
        lease_expires_at: null,
        updated_at: isoOn(ctx.clock),
      });
    } catch (e) {
      if (/FOREIGN KEY|foreign key/.test(String(e))) throw fail('NOT_FOUND', 'Folder not found');
      throw e;
    }
    return { fileId: id, totalChunks: stored.chunks };
  } catch (e) {
    if (fileId) {
      await discardItems(db, [fileId], dateOn(ctx.clock)).catch((err: unknown) =>
        ctx.log.error({ err }, 'could not discard upload'),
      );
      ctx.garbage.kick();
    }
    if (e instanceof TooLargeError) throw tooLarge(maxUploadBytes);
    if (e instanceof BufferWaitTimeout) throw uploadBusy();
    if (e instanceof UploadTooSlowError) throw uploadTooSlow();
    if (isNoSpace(e)) {
      ctx.log.error({ err: e }, 'the blob disk is full');
      throw diskFull();
    }
    if (e instanceof StoreUnavailableError) {
      ctx.log.error({ err: e }, 'file storage failed during an upload');
      throw storageUnavailable();
    }
    throw e;
  } finally {
    clearInterval(lease);
  }
}

/**
 * The file's store, with the upload's reservation grown before each chunk goes in once the chunks
 * would pass it: to the exact size for a file over its estimate, in steps for a body of unknown length.
 */
function reservingStore(
  store: BlobStore,
  ctx: FilesContext,
  ownerId: string,
  fileId: string,
  declared: number | null,
): BlobStore {
  let admitted = declared ?? 0;
  let sent = 0;
  const ensure = async (bytes: number) => {
    sent += bytes;
    if (sent <= admitted) return;
    const want =
      declared !== null
        ? sent
        : Math.min(ctx.maxUploadBytes, Math.max(sent, admitted + RESERVATION_STEP_BYTES));
    await growReservation(ctx.db, ctx.limits, ownerId, fileId, want);
    admitted = Math.max(admitted, want);
  };
  return {
    kind: store.kind,
    parallelPuts: store.parallelPuts,
    put: async (body, size) => {
      await ensure(size ?? 0);
      return store.put(body, size);
    },
    get: (blobId, range, check) => store.get(blobId, range, check),
    delete: (blobId) => store.delete(blobId),
  };
}

/** The row of a stored chunk (new chunks carry a CRC32C; the SHA-256 column is for older ones). */
export function chunkRow(fileId: string, c: StoredChunk) {
  return { file_id: fileId, idx: c.idx, blob_id: c.blobId, size: c.size, crc32c: c.crc32c, sha256: null };
}

async function findOwnUpload(db: Db, ownerId: string, fileId: string): Promise<FilesTable> {
  const row = await findItem(db, fileId);
  if (row?.type !== 'file' || row.owner_id !== ownerId) {
    throw fail('NOT_FOUND', 'Upload not found or expired');
  }
  return row;
}

/** GET /upload/status/:fileId: the bytes are all stored once POST /upload has answered. */
export async function uploadStatus(db: Db, ownerId: string, fileId: string) {
  const row = await findOwnUpload(db, ownerId, fileId);
  const completed = row.status !== 'uploading';
  return { completed, progress: completed ? 1 : 0 };
}

/**
 * POST /upload/complete: checks the client's size and chunk count against what was stored and the
 * chunk rows against each other, then lists the file. A name taken in the folder gets a number
 * ("a (1).txt"): uploads keep both, as browsers and file managers do when copying in.
 */
export async function completeUpload(
  ctx: FilesContext,
  ownerId: string,
  body: UploadCompleteBody,
  /** The upload request a guest's upload came through: only its own completion lists it (and counts it). */
  forRequest?: string,
): Promise<ItemRow> {
  const { db } = ctx;
  const row = await findOwnUpload(db, ownerId, body.fileId);
  if ((row.upload_request_id ?? undefined) !== forRequest) {
    throw fail('NOT_FOUND', 'Upload not found or expired');
  }
  if (row.status === 'uploading') throw fail('UPLOAD_IN_PROGRESS', 'The upload is still being received');
  if (row.status === 'complete') throw fail('ALREADY_COMPLETE', 'This upload is already complete');
  const size = Number(row.size);
  if (body.fileSize !== size) {
    throw fail('SIZE_MISMATCH', `fileSize ${body.fileSize} does not match the ${size} bytes received`);
  }
  if (body.totalChunks !== row.total_chunks) {
    throw fail(
      'CHUNKS_MISMATCH',
      `totalChunks ${body.totalChunks} does not match the ${row.total_chunks} chunks stored`,
    );
  }
  const chunks = await listChunks(db, row.id);
  const isConsistent =
    chunks.length === row.total_chunks &&
    chunks.every((c, i) => c.idx === i && (i === chunks.length - 1 || c.size === CHUNK_SIZE_BYTES)) &&
    chunks.reduce((sum, c) => sum + c.size, 0) === size;
  if (!isConsistent) {
    await discardItems(db, [row.id], dateOn(ctx.clock));
    ctx.garbage.kick();
    throw fail('UPLOAD_CORRUPT', 'The stored data is incomplete; upload the file again');
  }
  await publishUnderFreeName(db, row, body.fileName, isoOn(ctx.clock));
  return (await findListedItem(db, row.id))!;
}

/** Rounds of 50 candidate names a listing looks through, and the races it may lose on the way. */
const NAME_ROUNDS = 20;
const NAME_RACES = 10;

/** Lists the upload under `name`, or the first free numbered variant; retries if another wins a race. */
async function publishUnderFreeName(db: Db, row: FilesTable, name: string, now: string): Promise<void> {
  const tooMany = () => fail('NAME_TAKEN', `Too many items named like "${name}" in this folder`);
  let round = 0; // which 50 names are looked at; a lost race looks again from the same round
  let races = 0;
  await retryOptimistic(NAME_ROUNDS + NAME_RACES, tooMany, async () => {
    if (round >= NAME_ROUNDS) throw tooMany();
    const candidates = Array.from({ length: 50 }, (_, i) => {
      const n = round * 50 + i;
      return n === 0 ? name : numberedName(name, n);
    });
    const taken = await takenNameKeys(db, row.parent_key, candidates.map(nameKey));
    const free = candidates.find((c) => !taken.has(nameKey(c)));
    if (!free) {
      round += 1;
      return RETRY;
    }
    try {
      if (!(await publishStoredUpload(db, row.id, free, nameKey(free), now))) {
        throw fail('ALREADY_COMPLETE', 'This upload is already complete');
      }
      return null;
    } catch (e) {
      if (!isUniqueViolation(e) || ++races > NAME_RACES) throw e;
      return RETRY; // someone took the name meanwhile
    }
  });
}
