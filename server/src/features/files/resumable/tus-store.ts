import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { CHUNK_SIZE_BYTES, DEFAULT_CATEGORY, nameProblem } from '@guildhall/common';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { StoreUnavailableError } from '../../../platform/blob-store/index.ts';
import { dateOn, isoIn, isoOn } from '../../../platform/time.ts';
import { readChunk } from '../../../platform/transfer/chunk-reader.ts';
import { storeInChunks, TooLargeError } from '../../../platform/transfer/chunker.ts';
import type { FileHash } from '../../../platform/transfer/hash-pool.ts';
import type { FilesContext } from '../context.ts';
import { watchBody } from '../fair-uploads.ts';
import { discardItems } from '../maintenance.ts';
import { parentKeyOf } from '../names.ts';
import { findItem, insertChunk, insertItem, listChunks, updateItem } from '../repo.ts';
import { admitUpload } from '../storage-limits/service.ts';
import type { FilesTable } from '../tables.ts';
import { chunkRow, resolveTarget } from '../upload.ts';
import { admitGuestUpload } from '../upload-requests/service.ts';
import { ResumableHashes } from './resumable-hashes.ts';

/**
 * What `files.upload_hash_state` holds for a resumable upload in progress: it marks the row as one (a
 * POST /upload still streaming has none). Before migration 012 it held the saved hash state.
 */
const RESUMABLE_MARK = 'resumable';

/** A resumable upload may sit unfinished this long (a dropped connection, a laptop asleep) before it is swept. */
export const RESUMABLE_UPLOAD_TTL_MS = 24 * 60 * 60_000;

export type ResumableCounters = { chunksStored: number; bytesReceived: number; bytesDiscarded: number };

/** A guest's upload through an upload request: it goes to the request's folder and counts against it. */
export type GuestUpload = { requestId: string; folderId: string };

/**
 * The tus protocol's storage (`@tus/server` DataStore), writing straight into the portal's chunk store:
 * the same chunker as POST /upload turns every 8 MiB received into a chunk (stored, hashed, recorded),
 * and the upload's offset is the bytes of its recorded chunks. A connection that drops mid-chunk loses
 * only that partial chunk; the client resumes from the last stored one. The whole-file SHA-256 runs on
 * a hash thread across the upload's requests (ResumableHashes), so each byte is hashed once and
 * finishing never re-reads the file. A finished upload is `stored`, then POST /upload/complete lists it.
 */
export class ChunkTusStore extends DataStore {
  /** Who is creating which upload (set by the route from the request's session, read by create()). */
  readonly owners = new Map<string, string>();
  /** The connection carrying each upload's body now, cut by write() if the body stalls. */
  readonly connections = new Map<string, IncomingMessage>();
  /** Which upload being created is a guest's, and for which request (set by the guest route). */
  readonly guests = new Map<string, GuestUpload>();
  /**
   * Called once a guest's upload has stored its last byte, to list it in the request's folder (set by
   * upload-requests/guest-routes.ts). A failure is logged: the guest page's receipt call lists it again.
   */
  onGuestStored: ((fileId: string, requestId: string) => Promise<void>) | null = null;
  readonly counters: ResumableCounters = { chunksStored: 0, bytesReceived: 0, bytesDiscarded: 0 };

  private readonly ctx: FilesContext;
  readonly hashes: ResumableHashes;

  constructor(ctx: FilesContext) {
    super();
    this.ctx = ctx;
    this.hashes = new ResumableHashes(ctx.hashes, ctx.clock);
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const owner = this.owners.get(upload.id);
    this.owners.delete(upload.id);
    const guest = this.guests.get(upload.id);
    this.guests.delete(upload.id);
    if (!owner) throw ERRORS.UNKNOWN_ERROR;
    if (upload.size === undefined) throw ERRORS.INVALID_LENGTH;
    const meta = upload.metadata ?? {};
    // A guest chooses nothing: the request names the folder.
    const target = guest
      ? { parentId: guest.folderId, category: DEFAULT_CATEGORY }
      : await resolveTarget(this.ctx.db, {
          ...(meta.folderId ? { folderId: meta.folderId } : {}),
          ...(meta.category ? { category: meta.category } : {}),
        });
    const name = (meta.filename ?? '').trim();
    const now = isoOn(this.ctx.clock);
    const row: FilesTable = {
      id: upload.id,
      parent_id: target.parentId,
      parent_key: parentKeyOf(target.parentId),
      type: 'file',
      name: name && !nameProblem(name) ? name : 'upload',
      name_key: '',
      category: target.category,
      // While uploading: the length the client declared (Upload-Length).
      size: upload.size,
      total_chunks: 0,
      sha256: null,
      status: 'uploading',
      owner_id: owner,
      lease_expires_at: isoIn(this.ctx.clock, RESUMABLE_UPLOAD_TTL_MS),
      created_at: now,
      updated_at: now,
      upload_hash_state: RESUMABLE_MARK,
      ...(guest ? { upload_request_id: guest.requestId } : {}),
    };
    // The quota, the disk reserve and the cap on open resumable uploads are checked and the row (whose
    // size, the declared length, counts until the upload finishes or expires) inserted in one step; a
    // guest's upload passes its request's limits in that same step.
    const size = upload.size;
    await admitUpload(
      this.ctx.db,
      this.ctx.limits,
      { userId: owner, declared: size, resumable: true },
      async (trx) => {
        if (guest) {
          await admitGuestUpload(
            trx,
            guest.requestId,
            { name: row.name, type: meta.filetype ?? undefined, size },
            this.ctx.clock.now(),
          );
        }
        await insertItem(trx, row);
      },
    );
    if (upload.size === 0) await this.finish(upload.id, 0, this.ctx.hashes.openFileHash(), guest?.requestId);
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await findItem(this.ctx.db, id);
    if (row?.type !== 'file' || row.status !== 'uploading' || !row.upload_hash_state) {
      if (row?.status === 'stored' || row?.status === 'complete') {
        return new Upload({
          id,
          size: Number(row.size),
          offset: Number(row.size),
          creation_date: row.created_at,
        });
      }
      throw ERRORS.FILE_NOT_FOUND;
    }
    const chunks = await listChunks(this.ctx.db, id);
    const offset = chunks.reduce((sum, c) => sum + c.size, 0);
    return new Upload({ id, size: Number(row.size), offset, creation_date: row.created_at });
  }

  /** Reads one PATCH body into 8 MiB chunks; each full chunk (or the file's last) is stored and recorded. */
  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const { db, store } = this.ctx;
    const row = await findItem(db, id);
    // Only a resumable upload takes PATCHes (not a POST /upload still streaming).
    if (row?.type !== 'file' || row.status !== 'uploading' || !row.upload_hash_state)
      throw ERRORS.FILE_NOT_FOUND;
    const size = Number(row.size);
    if (offset % CHUNK_SIZE_BYTES !== 0) throw ERRORS.INVALID_OFFSET; // offsets are always chunk boundaries
    const fileStore =
      // A file's chunks stay together (one Discord thread) across its requests.
      store.forFile?.(
        id,
        async (thread) => {
          await updateItem(db, id, { thread_id: thread });
        },
        row.thread_id,
      ) ?? store;
    const held = await this.hashes.take(id, offset, (fresh) => this.rehashOrRefuse(id, offset, fresh));
    // Bytes the hash has been fed: equal to the bytes recorded unless a dispatched chunk failed to record.
    let fed = offset;
    const hash: FileHash = {
      ...held,
      chunk: (buffer, length) => {
        fed += length;
        return held.chunk(buffer, length);
      },
    };
    let stored = offset;
    let received = 0;
    const connection = this.connections.get(id);
    this.connections.delete(id);
    const body = watchBody(stream as AsyncIterable<Buffer>, this.ctx.fairness, () =>
      connection?.socket?.destroy(),
    );
    let bodyLost = false;
    const counters = this.counters;
    const counted = (async function* () {
      try {
        for await (const piece of body) {
          counters.bytesReceived += piece.length;
          received += piece.length;
          yield piece;
        }
      } catch (e) {
        bodyLost = true; // the connection dropped or stalled (as opposed to a failure of the store)
        throw e;
      }
    })();
    try {
      const result = await storeInChunks(counted, {
        store: fileStore,
        buffers: this.ctx.buffers,
        fileHash: hash,
        maxBytes: size - offset,
        firstIdx: offset / CHUNK_SIZE_BYTES,
        completesAt: size - offset,
        bufferWaitMs: this.ctx.fairness.bufferWaitMs,
        unrecorded: this.ctx.limits.unrecorded,
        onChunk: async (c) => {
          await insertChunk(db, chunkRow(id, c));
          stored += c.size;
          this.counters.chunksStored += 1;
          await updateItem(db, id, { lease_expires_at: isoIn(this.ctx.clock, RESUMABLE_UPLOAD_TTL_MS) });
        },
      });
      this.counters.bytesDiscarded += result.discarded;
    } catch (e) {
      if (e instanceof TooLargeError) {
        this.hashes.forget(id, hash);
        throw ERRORS.ERR_SIZE_EXCEEDED;
      }
      // A lost body: what was stored stays, the partial chunk is sent again, and the hash (fed exactly
      // the chunks dispatched, all of them recorded as the store did not fail) waits for the next request.
      if (bodyLost && !(e instanceof StoreUnavailableError)) {
        this.counters.bytesDiscarded += received - (stored - offset);
        if (fed === stored) this.hashes.keep(id, hash, stored);
        else this.hashes.forget(id, hash); // rebuilt from the store by the next request
        return stored;
      }
      this.hashes.forget(id, hash); // the store failed: the hash may hold a chunk that was not recorded
      throw e;
    }
    if (stored === size) {
      await this.finish(id, Math.ceil(size / CHUNK_SIZE_BYTES), hash, row.upload_request_id ?? undefined);
    } else if (fed === stored) this.hashes.keep(id, hash, stored);
    else this.hashes.forget(id, hash);
    return stored;
  }

  /** Feeds a fresh hash the upload's first `offset` bytes, read back from the store (each chunk checked). */
  private async rehash(id: string, offset: number, hash: FileHash): Promise<void> {
    const chunks = await listChunks(this.ctx.db, id);
    let fed = 0;
    for (const c of chunks) {
      if (fed >= offset) break;
      const buffer = await this.ctx.buffers.acquire();
      try {
        const view = new Uint8Array(buffer);
        let at = 0;
        for await (const piece of await readChunk(this.ctx.store, c)) {
          view.set(piece as Buffer, at);
          at += (piece as Buffer).length;
        }
        await hash.chunk(buffer, at);
        fed += at;
      } finally {
        this.ctx.buffers.release(buffer);
      }
    }
    if (fed !== offset) throw ERRORS.INVALID_OFFSET;
  }

  /** rehash(), with a stored part that cannot be read back answered as such (the store being down is a 503). */
  private async rehashOrRefuse(id: string, offset: number, hash: FileHash): Promise<void> {
    try {
      await this.rehash(id, offset, hash);
    } catch (e) {
      if (e instanceof StoreUnavailableError || (e && typeof e === 'object' && 'status_code' in e)) throw e;
      this.ctx.log.error(
        { err: e, uploadId: id },
        'the stored part of a resumable upload could not be read back',
      );
      throw {
        status_code: 410,
        body: 'The part of this upload already received can no longer be read; upload the file again\n',
      };
    }
  }

  override async remove(id: string): Promise<void> {
    const row = await findItem(this.ctx.db, id);
    if (!row || row.status === 'complete') throw ERRORS.FILE_NOT_FOUND;
    this.hashes.forget(id);
    await discardItems(this.ctx.db, [id], dateOn(this.ctx.clock));
    this.ctx.garbage.kick();
  }

  private async finish(id: string, chunks: number, hash: FileHash, requestId?: string) {
    const sha256 = await hash.final();
    this.hashes.forget(id);
    await updateItem(this.ctx.db, id, {
      status: 'stored',
      sha256,
      total_chunks: chunks,
      upload_hash_state: null,
      lease_expires_at: null,
      updated_at: isoOn(this.ctx.clock),
    });
    if (requestId && this.onGuestStored) {
      await this.onGuestStored(id, requestId).catch((err: unknown) =>
        this.ctx.log.warn({ err, uploadId: id }, 'a guest upload could not be listed yet'),
      );
    }
  }
}
