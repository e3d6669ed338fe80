import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { verifying } from './integrity.ts';
import type { BlobId, BlobReader, BlobStore, ByteRange, ChunkCheck, StoredBlobInfo } from './types.ts';

const ID_PATTERN = /^[0-9a-f]{32}$/;
// Large reads: fewer syscalls and event-loop turns per byte moved.
const READ_HIGH_WATER_MARK = 1024 * 1024;

/**
 * Blobs as files under `<root>/<aa>/<id>`, ids being 128 random bits the store picks. A blob is written
 * to `<root>/tmp/` first and renamed into place only when complete, so a crash leaves at most a
 * temporary file, which `removeIncomplete` clears.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';
  readonly root: string;
  readonly tmpDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  /**
   * The put before this one. Blobs are written one at a time: two 8 MiB writes at once fault fresh
   * page-cache pages in from two threads, and on a VM whose free memory goes back to the host that
   * made an upload's writes cost up to 1.4 CPU-s per GiB instead of 0.25 right after another process's
   * large write (bench/files; one at a time: at most 1.0). A write takes a few milliseconds: the chunks
   * of every upload still fill, hash and queue meanwhile.
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
      const final = this.pathOf(id);
      await fsp.mkdir(path.dirname(final), { recursive: true });
      await fsp.rename(tmp, final);
      return id;
    } catch (e) {
      await handle?.close().catch(() => {});
      await fsp.rm(tmp, { force: true });
      throw e;
    }
  }

  async get(id: BlobId, range?: ByteRange, check?: ChunkCheck): Promise<Readable> {
    const file = this.pathOf(id);
    // Open first so a missing blob rejects here instead of erroring mid-response.
    const handle = await fsp.open(file, 'r');
    // With a check the whole chunk is read (a checksum covers it whole) and the range cut from it.
    const stream = handle.createReadStream({
      start: check ? undefined : range?.start,
      end: check ? undefined : range?.end,
      highWaterMark: READ_HIGH_WATER_MARK,
      autoClose: true,
    });
    return check ? pipeline(stream, verifying(check, id, range), () => {}) : stream;
  }

  async openReader(id: BlobId): Promise<BlobReader> {
    const handle = await fsp.open(this.pathOf(id), 'r');
    return {
      read: async (into, position) => (await handle.read(into, 0, into.length, position)).bytesRead,
      close: () => handle.close(),
    };
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
