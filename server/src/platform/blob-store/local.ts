import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { directReadable, directWritable, O_DIRECT, writeDirect } from './direct-io.ts';
import { BlobMissingError, verifying } from './integrity.ts';
import type { BlobId, BlobReader, BlobStore, ByteRange, ChunkCheck, StoredBlobInfo } from './types.ts';

const ID_PATTERN = /^[0-9a-f]{32}$/;
// Large reads: fewer syscalls and event-loop turns per byte moved.
const READ_HIGH_WATER_MARK = 1024 * 1024;

export type LocalStoreOptions = {
  /**
   * Write and read whole chunks with O_DIRECT, past the page cache (FILES_DIRECT_IO, on by default). Only
   * bodies of one piece in a buffer from `allocateDirectBuffer` can; anything else is written buffered,
   * as is everything once the file system has refused direct I/O.
   */
  directWrites?: boolean;
};

/**
 * Blobs as files under `<root>/<aa>/<id>`, ids being 128 random bits the store picks. A blob is written
 * to `<root>/tmp/` first and renamed into place only when complete, so a crash leaves at most a
 * temporary file, which `removeIncomplete` clears.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';
  readonly root: string;
  readonly tmpDir: string;
  /** How blobs were written since start (the direct ones skipped the page cache): docs and tests. */
  readonly writes = { direct: 0, buffered: 0 };
  /** False when turned off, or once the file system refused a direct write (EINVAL). */
  private direct: boolean;

  constructor(root: string, options: LocalStoreOptions = {}) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
    this.direct = (options.directWrites ?? true) && O_DIRECT !== undefined;
  }

  /** Whether whole chunks are now written with O_DIRECT. */
  get writesDirect(): boolean {
    return this.direct;
  }

  /**
   * The put before this one. Blobs are written one at a time: a disk takes sequential writes best, and
   * two buffered 8 MiB writes at once faulted fresh page-cache pages in from two threads, which on a VM
   * whose free memory goes back to the host cost up to 1.4 CPU-s per GiB instead of 0.25 (bench/files).
   * A write takes a few milliseconds: the chunks of every upload still fill, hash and queue meanwhile.
   */
  private lastWrite: Promise<unknown> = Promise.resolve();

  async put(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<BlobId> {
    const turn = this.lastWrite;
    let done = () => {};
    this.lastWrite = new Promise<void>((r) => {
      done = r;
    });
    await turn;
    try {
      return await this.putNow(body);
    } finally {
      done();
    }
  }

  private async putNow(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<BlobId> {
    const id = randomUUID().replaceAll('-', '');
    const tmp = path.join(this.tmpDir, id);
    // A chunk comes as one piece; only that can go to the disk in one direct write.
    const whole = this.direct && Array.isArray(body) && body.length === 1 ? (body[0] as Uint8Array) : null;
    const padded = whole ? directWritable(whole) : null;
    if (whole && padded) {
      try {
        await writeDirect(tmp, padded, whole.length);
        await this.placeFinal(tmp, id);
        this.writes.direct += 1;
        return id;
      } catch (e) {
        await fsp.rm(tmp, { force: true });
        if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
        this.direct = false; // this file system refuses O_DIRECT (some FUSE, older tmpfs): buffered from now on
      }
    }
    let handle: fsp.FileHandle | null = null;
    try {
      handle = await fsp.open(tmp, 'wx');
      for await (const piece of body) {
        let written = 0;
        while (written < piece.length) {
          const r = await handle.write(piece, written, piece.length - written);
          written += r.bytesWritten;
        }
      }
      await handle.close();
      handle = null;
      await this.placeFinal(tmp, id);
      this.writes.buffered += 1;
      return id;
    } catch (e) {
      await handle?.close().catch(() => {});
      await fsp.rm(tmp, { force: true });
      throw e;
    }
  }

  /** Moves a complete temporary file to where its id says (the rename makes it a blob). */
  private async placeFinal(tmp: string, id: BlobId): Promise<void> {
    const final = this.pathOf(id);
    await fsp.mkdir(path.dirname(final), { recursive: true });
    await fsp.rename(tmp, final);
  }

  async get(id: BlobId, range?: ByteRange, check?: ChunkCheck): Promise<Readable> {
    const file = this.pathOf(id);
    // Open first so a missing blob rejects here instead of erroring mid-response.
    const handle = await openBlob(id, file, 'r');
    // With a check the whole chunk is read (a checksum covers it whole) and the range cut from it.
    const stream = handle.createReadStream({
      start: check ? undefined : range?.start,
      end: check ? undefined : range?.end,
      highWaterMark: READ_HIGH_WATER_MARK,
      autoClose: true,
    });
    return check ? pipeline(stream, verifying(check, id, range), () => {}) : stream;
  }

  /**
   * Reads into the caller's buffers: with O_DIRECT where the buffer allows (`directReadable`), past the
   * page cache as the chunk was written, otherwise through it. A chunk written direct is not in the
   * page cache, and filling fresh cache pages to read it cost as much as writing through them did.
   */
  async openReader(id: BlobId): Promise<BlobReader> {
    const file = this.pathOf(id);
    const direct = this.direct ? await this.openDirect(id, file) : null;
    let buffered = direct ? null : await openBlob(id, file, 'r');
    return {
      read: async (into, position) => {
        if (direct && directReadable(into, position)) {
          return (await direct.read(into, 0, into.length, position)).bytesRead;
        }
        buffered ??= await fsp.open(file, 'r');
        return (await buffered.read(into, 0, into.length, position)).bytesRead;
      },
      close: async () => {
        await direct?.close();
        await buffered?.close();
      },
    };
  }

  /** The file opened for direct reads, or null once the file system has refused them. */
  private async openDirect(id: BlobId, file: string): Promise<fsp.FileHandle | null> {
    try {
      return await openBlob(id, file, fs.constants.O_RDONLY | (O_DIRECT ?? 0));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
      this.direct = false;
      return null;
    }
  }

  async delete(id: BlobId): Promise<void> {
    await fsp.rm(this.pathOf(id), { force: true });
  }

  async *list(): AsyncIterable<StoredBlobInfo> {
    for (const dir of await fsp.readdir(this.root, { withFileTypes: true })) {
      if (!dir.isDirectory() || !/^[0-9a-f]{2}$/.test(dir.name)) continue;
      for (const name of await fsp.readdir(path.join(this.root, dir.name))) {
        if (!ID_PATTERN.test(name)) continue;
        const stat = await fsp.stat(path.join(this.root, dir.name, name)).catch(() => null);
        if (stat) yield { id: name, createdAt: stat.mtime };
      }
    }
  }

  async removeIncomplete(olderThan: Date): Promise<number> {
    let removed = 0;
    for (const name of await fsp.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const stat = await fsp.stat(file).catch(() => null);
      if (stat && stat.mtime < olderThan) {
        await fsp.rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /** The only place a path is built, and only from an id this store generated. */
  async check(): Promise<void> {
    await fs.promises.access(this.tmpDir, fs.constants.W_OK);
  }

  private pathOf(id: BlobId): string {
    if (!ID_PATTERN.test(id)) throw new Error(`Not a local blob id: ${JSON.stringify(id.slice(0, 80))}`);
    return path.join(this.root, id.slice(0, 2), id);
  }
}

/** Opens a blob's file; a file that is not there is a missing blob (named as such), not a bare ENOENT. */
async function openBlob(id: string, file: string, flags: string | number): Promise<fsp.FileHandle> {
  try {
    return await fsp.open(file, flags);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BlobMissingError(`Blob ${id} is missing from ${file}`);
    throw e;
  }
}
