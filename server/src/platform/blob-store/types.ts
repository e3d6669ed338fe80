import type { Readable } from 'node:stream';

/** An opaque id chosen by the store (a file name, an object key, a chat message id). */
export type BlobId = string;

/** Inclusive byte range inside one blob. */
export type ByteRange = { start: number; end: number };

export type StoredBlobInfo = { id: BlobId; createdAt: Date };

/** A blob opened for reads at any position into the caller's buffer. */
export type BlobReader = {
  /** Reads up to `into.length` bytes from `position`; resolves with how many (0 at the end). */
  read(into: Uint8Array, position: number): Promise<number>;
  close(): Promise<void>;
};

/**
 * What the database knows of a chunk, checked against the bytes on every read of a whole chunk: its
 * size and its CRC32C (8 hex digits), or for chunks stored before migration 012 its SHA-256.
 */
export type ChunkCheck = { size: number; crc32c: string | null; sha256: string | null };

/**
 * Where file chunks live. Implementations: local disk (default), S3-compatible object storage and a
 * Discord-channel store. Callers address blobs only by the ids `put` returns, never by paths or
 * names derived from user input, so any store that hands out ids fits.
 */
export type BlobStore = {
  /** A short name for logs and docs ("local", "s3", "discord"). */
  readonly kind: string;
  /**
   * How many chunks of one upload may be sent at once. Remote stores gain from more (each put waits
   * for a round trip); the default is 2.
   */
  readonly parallelPuts?: number;
  /**
   * Stores the bytes of `body` (consumed exactly once, in order) and resolves with the new blob's id.
   * If `body` throws or the store fails, nothing is left behind and the promise rejects. The caller
   * may reuse the bytes' memory once the promise settles, so a store must not keep references to it.
   */
  put(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, size?: number): Promise<BlobId>;
  /**
   * Streams the blob, or the inclusive range of it. Rejects when the blob does not exist. With
   * `check`, the store verifies the chunk's checksum as it passes and fails the stream on a mismatch
   * (local disk and Discord read the whole chunk to do so; S3 checks whole-chunk reads only, as a
   * partial range there would cost a network transfer of the rest).
   */
  get(id: BlobId, range?: ByteRange, check?: ChunkCheck): Promise<Readable>;
  /**
   * Opens a blob for reads into the caller's buffers, or resolves null when this store cannot (remote
   * stores stream). Optional: downloads from a store that has it reuse a few buffers instead of a new
   * one per read, which keeps the garbage collector out of large transfers. Rejects for a missing blob.
   */
  openReader?(id: BlobId): Promise<BlobReader | null>;
  /** Deletes a blob; deleting a missing blob is not an error. */
  delete(id: BlobId): Promise<void>;
  /**
   * Deletes many blobs at once (the garbage collector's batches), resolving with those deleted.
   * Optional: stores that can delete a whole file's chunks in one call (a Discord thread) use it.
   */
  deleteMany?(ids: BlobId[]): Promise<BlobId[]>;
  /**
   * A view of the store whose puts belong to one file. Optional: the Discord store keeps each file's
   * chunks in one thread; `onGroup` is awaited with the thread's name (`named:file-<id>`, a garbage id that
   * finds it) before the thread is asked for, and again with its id once it exists, before any chunk goes
   * into it; `group()` then names it (the spec's `threadId`). `group` continues a file whose container
   * exists (a resumable upload's next request).
   */
  forFile?(
    fileId: string,
    onGroup?: (group: string) => Promise<void>,
    group?: string | null,
  ): FileScopedStore;
  /**
   * Every stored blob with its creation time, for the orphan sweep. Optional: stores that cannot
   * enumerate (a chat channel) rely on the database's garbage queue alone.
   */
  list?(): AsyncIterable<StoredBlobInfo>;
  /** Resolves when the store can be written to now; throws naming the problem (readiness probes call it). */
  check?(): Promise<void>;
  /** Removes half-written data left by a crash (temporary files older than `olderThan`). */
  removeIncomplete?(olderThan: Date): Promise<number>;
  /** Releases connections and timers (the CLI's migration opens stores and closes them). */
  close?(): Promise<void>;
};

export type FileScopedStore = BlobStore & {
  /** The container the file's chunks went into (a Discord thread id), once the first put began. */
  group(): string | null;
};
