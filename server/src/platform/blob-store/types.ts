import type { Readable } from 'node:stream';

/** An opaque id chosen by the store (a file name, an object key, a chat message id). */
export type BlobId = string;

/** Inclusive byte range inside one blob. */
export type ByteRange = { start: number; end: number };

export type StoredBlobInfo = { id: BlobId; createdAt: Date };

/**
 * Where file chunks live. Implementations: local disk (default), later S3-compatible object storage
 * and a chat-channel store. Callers address blobs only by the ids `put` returns, never by paths or
 * names derived from user input, so any store that hands out ids fits.
 */
export type BlobStore = {
  /** A short name for logs and docs ("local", "s3", "discord"). */
  readonly kind: string;
  /**
   * Stores the bytes of `body` (consumed exactly once, in order) and resolves with the new blob's id.
   * If `body` throws or the store fails, nothing is left behind and the promise rejects. The caller
   * may reuse the bytes' memory once the promise settles, so a store must not keep references to it.
   */
  put(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, size?: number): Promise<BlobId>;
  /** Streams the blob, or the inclusive range of it. Rejects when the blob does not exist. */
  get(id: BlobId, range?: ByteRange): Promise<Readable>;
  /** Deletes a blob; deleting a missing blob is not an error. */
  delete(id: BlobId): Promise<void>;
  /**
   * Every stored blob with its creation time, for the orphan sweep. Optional: stores that cannot
   * enumerate (a chat channel) rely on the database's garbage queue alone.
   */
  list?(): AsyncIterable<StoredBlobInfo>;
  /** Resolves when the store can be written to now; throws naming the problem (readiness probes call it). */
  check?(): Promise<void>;
  /** Removes half-written data left by a crash (temporary files older than `olderThan`). */
  removeIncomplete?(olderThan: Date): Promise<number>;
};
