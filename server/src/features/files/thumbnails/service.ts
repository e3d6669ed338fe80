import { THUMBNAIL_MAX_IMAGE_BYTES, thumbnailSourceOf } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import type { BlobStore } from '../../../platform/blob-store/index.ts';
import { fail } from '../../../platform/errors.ts';
import type { Clock } from '../../../platform/feature.ts';
import type { ProcessSpawner } from '../../../platform/process/index.ts';
import { isoOn } from '../../../platform/time.ts';
import { RangeLoopback } from '../../../platform/transfer/range-loopback.ts';
import { streamRange } from '../../../platform/transfer/stored-bytes.ts';
import { listChunks } from '../repo.ts';
import type { FilesTable, FileThumbnailsTable } from '../tables.ts';
import { imageThumbnail, type Thumbnail } from './image.ts';
import { JobQueue } from './queue.ts';
import { findThumbnail, saveThumbnail } from './repo.ts';
import { videoPoster } from './video.ts';

export type Thumbnails = {
  /** The file's thumbnail (made now if it never was), or null when the file has no picture to show. */
  get(file: FilesTable): Promise<{ data: Buffer; etag: string } | null>;
  close(): Promise<void>;
  /** Jobs running or waiting. */
  readonly pending: number;
};

export const noThumbnail = () => fail('NO_THUMBNAIL', 'This file has no thumbnail');

/**
 * Thumbnails are made once per file, the first time one is asked for, from the file's bytes in whatever
 * store holds them, and kept in the database (a few KB each), so every instance serves them and a
 * file's thumbnail goes with its row. One job runs at a time (libvips or ffmpeg, both off the event loop),
 * at most 500 wait; a file that cannot be pictured is remembered as such and not tried again.
 */
/** A poster's address lives while its ffmpeg runs (released then); this only bounds a leak. */
const POSTER_ADDRESS_TTL_MS = 10 * 60 * 1000;

export function createThumbnails(opts: {
  db: Db;
  store: BlobStore;
  ffmpegPath: string;
  /** The platform's process spawner: video posters' ffmpeg starts through it. */
  processes: ProcessSpawner;
  log: FastifyBaseLogger;
  clock: Clock;
  concurrency?: number;
}): Thumbnails {
  const { db, store, log } = opts;
  const queue = new JobQueue<FileThumbnailsTable>(opts.concurrency ?? 1, 500);
  const loopback = new RangeLoopback(opts.clock);

  async function make(file: FilesTable): Promise<Thumbnail | null> {
    const size = Number(file.size);
    const source = thumbnailSourceOf(file.name);
    if (!source || size === 0) return null;
    const chunks = await listChunks(db, file.id);
    const open = (start: number, end: number) => streamRange(store, chunks, start, end);
    if (source === 'image') {
      if (size > THUMBNAIL_MAX_IMAGE_BYTES) return null;
      const input = await open(0, size - 1); // a store failure rejects here: not cached
      let readFailure: Error | null = null;
      input.once('error', (e) => {
        readFailure = e;
      });
      try {
        return await imageThumbnail(input);
      } catch (err) {
        input.destroy();
        // The store failed mid-read: not the file's fault, so nothing is remembered (asked again later).
        if (readFailure) throw readFailure;
        log.info({ err: (err as Error).message, fileId: file.id }, 'thumbnail: not a readable image');
        return null;
      }
    }
    const address = await loopback.open(size, open, POSTER_ADDRESS_TTL_MS);
    try {
      return await videoPoster(opts.processes, opts.ffmpegPath, address.url);
    } finally {
      address.release();
    }
  }

  return {
    async get(file) {
      let row = await findThumbnail(db, file.id);
      if (!row) {
        row = await queue.run(file.id, async () => {
          const again = await findThumbnail(db, file.id); // made by another instance meanwhile?
          if (again) return again;
          const made = await make(file);
          const fresh: FileThumbnailsTable = {
            file_id: file.id,
            status: made ? 'ready' : 'none',
            data: made ? made.data.toString('base64') : null,
            width: made?.width ?? null,
            height: made?.height ?? null,
            created_at: isoOn(opts.clock),
          };
          try {
            await saveThumbnail(db, fresh);
          } catch (err) {
            // The file was deleted meanwhile (foreign key): answer anyway, keep nothing.
            log.debug({ err: (err as Error).message }, 'thumbnail not saved');
          }
          return fresh;
        });
      }
      if (row.status !== 'ready' || !row.data) return null;
      return { data: Buffer.from(row.data, 'base64'), etag: `"t-${file.sha256 ?? file.id}"` };
    },
    close: () => loopback.close(),
    get pending() {
      return queue.size;
    },
  };
}
