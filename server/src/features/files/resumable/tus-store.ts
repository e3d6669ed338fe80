import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { CHUNK_SIZE_BYTES, nameProblem } from '@guildhall/common';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { createSHA256 } from 'hash-wasm';
import { isoIn, nowIso } from '../../../platform/time.ts';
import type { FilesContext } from '../context.ts';
import { watchBody } from '../fair-uploads.ts';
import { discardItems } from '../maintenance.ts';
import { parentKeyOf } from '../names.ts';
import { findItem, insertChunk, insertItem, listChunks, updateItem } from '../repo.ts';
import { resolveTarget } from '../upload.ts';

/** A resumable upload may sit unfinished this long (a dropped connection, a laptop asleep) before it is swept. */
export const RESUMABLE_UPLOAD_TTL_MS = 24 * 60 * 60_000;

export type ResumableCounters = { chunksStored: number; bytesReceived: number; bytesDiscarded: number };

/**
 * The tus protocol's storage (`@tus/server` DataStore), writing straight into the portal's chunk store:
 * every 8 MiB received becomes a chunk (put into the configured store, hashed, recorded), and the
 * upload's offset is the bytes of its recorded chunks. A connection that drops mid-chunk loses only
 * that partial chunk; the client resumes from the last stored one. The whole-file SHA-256 is carried
 * across requests (and server instances) as hash-wasm's saved state in the row, so finishing never
 * re-reads the file. A finished upload is `stored`, then POST /upload/complete lists it as usual.
 */
export class ChunkTusStore extends DataStore {
  /** Who is creating which upload (set by the route from the request's session, read by create()). */
  readonly owners = new Map<string, string>();
  /** The connection carrying each upload's body now, cut by write() if the body stalls. */
  readonly connections = new Map<string, IncomingMessage>();
  readonly counters: ResumableCounters = { chunksStored: 0, bytesReceived: 0, bytesDiscarded: 0 };

  private readonly ctx: FilesContext;

  constructor(ctx: FilesContext) {
    super();
    this.ctx = ctx;
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const owner = this.owners.get(upload.id);
    this.owners.delete(upload.id);
    if (!owner) throw ERRORS.UNKNOWN_ERROR;
    if (upload.size === undefined) throw ERRORS.INVALID_LENGTH;
    const meta = upload.metadata ?? {};
    const target = await resolveTarget(this.ctx.db, {
      ...(meta.folderId ? { folderId: meta.folderId } : {}),
      ...(meta.category ? { category: meta.category } : {}),
    });
    const name = (meta.filename ?? '').trim();
    const now = nowIso();
    const hasher = await createSHA256();
    hasher.init();
    await insertItem(this.ctx.db, {
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
      lease_expires_at: isoIn(RESUMABLE_UPLOAD_TTL_MS),
      created_at: now,
      updated_at: now,
      upload_hash_state: Buffer.from(hasher.save()).toString('base64'),
    });
    if (upload.size === 0) await this.finish(upload.id, 0, hasher);
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await findItem(this.ctx.db, id);
    if (row?.type !== 'file' || row.upload_hash_state === undefined || row.upload_hash_state === null) {
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
    if (row?.status !== 'uploading' || !row.upload_hash_state) throw ERRORS.FILE_NOT_FOUND;
    const size = Number(row.size);
    const hasher = await createSHA256();
    hasher.load(Buffer.from(row.upload_hash_state, 'base64'));
    let idx = Math.floor(offset / CHUNK_SIZE_BYTES);
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
    let stored = offset;
    let buffer = Buffer.allocUnsafe(Math.min(CHUNK_SIZE_BYTES, size - stored));
    let filled = 0;
    let storeFailure = false;
    const flush = async () => {
      const bytes = buffer.subarray(0, filled);
      const blobId = await fileStore.put([bytes], bytes.length);
      try {
        await insertChunk(db, {
          file_id: id,
          idx,
          blob_id: blobId,
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        });
      } catch (e) {
        await fileStore.delete(blobId).catch(() => {});
        throw e;
      }
      hasher.update(bytes);
      stored += bytes.length;
      idx += 1;
      this.counters.chunksStored += 1;
      await updateItem(db, id, {
        upload_hash_state: Buffer.from(hasher.save()).toString('base64'),
        lease_expires_at: isoIn(RESUMABLE_UPLOAD_TTL_MS),
      });
      filled = 0;
      if (stored < size) buffer = Buffer.allocUnsafe(Math.min(CHUNK_SIZE_BYTES, size - stored));
    };
    try {
      const connection = this.connections.get(id);
      this.connections.delete(id);
      const body = watchBody(stream as AsyncIterable<Buffer>, this.ctx.fairness, () =>
        connection?.socket?.destroy(),
      );
      for await (const piece of body) {
        this.counters.bytesReceived += piece.length;
        let at = 0;
        while (at < piece.length) {
          if (stored + filled >= size) throw ERRORS.ERR_SIZE_EXCEEDED;
          const n = Math.min(piece.length - at, buffer.length - filled);
          piece.copy(buffer, filled, at, at + n);
          filled += n;
          at += n;
          if (filled === buffer.length) {
            try {
              await flush();
            } catch (e) {
              storeFailure = true;
              throw e;
            }
          }
        }
      }
    } catch (e) {
      // A dropped connection: what was stored stays; the partial chunk is dropped and sent again.
      this.counters.bytesDiscarded += filled;
      // A refusal (too many bytes) or a store failure is the answer; only a lost body is not.
      if (storeFailure || (e && typeof e === 'object' && 'status_code' in e)) throw e;
      return stored;
    }
    this.counters.bytesDiscarded += filled;
    if (stored === size) await this.finish(id, idx, hasher);
    return stored;
  }

  override async remove(id: string): Promise<void> {
    const row = await findItem(this.ctx.db, id);
    if (!row || row.status === 'complete') throw ERRORS.FILE_NOT_FOUND;
    await discardItems(this.ctx.db, [id]);
    this.ctx.garbage.kick();
  }

  private async finish(id: string, chunks: number, hasher: Awaited<ReturnType<typeof createSHA256>>) {
    await updateItem(this.ctx.db, id, {
      status: 'stored',
      sha256: hasher.digest('hex'),
      total_chunks: chunks,
      upload_hash_state: null,
      lease_expires_at: null,
      updated_at: nowIso(),
    });
  }
}
