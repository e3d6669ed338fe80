import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import type { BlobStore } from '../../../platform/blob-store/index.ts';
import type { Clock } from '../../../platform/feature.ts';
import { RangeLoopback } from '../../../platform/transfer/range-loopback.ts';
import { type LibraryFile, openLibraryFile } from '../../files/index.ts';

/** How long a track's address stays valid (longer than any song; a new one is made per ffmpeg start). */
const TICKET_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * Library files for ffmpeg through the platform's Range loopback: ffmpeg then seeks inside the file (`-ss`
 * jumps to the byte it needs) instead of decoding everything before the position from a pipe, so a seek
 * or an effect change late in a long file starts as fast as one at the start.
 */
export class LibraryLoopback {
  private readonly loopback: RangeLoopback;
  private readonly db: Db;
  private readonly store: BlobStore;

  constructor(db: Db, store: BlobStore, log: FastifyBaseLogger, clock: Clock) {
    this.db = db;
    this.store = store;
    this.loopback = new RangeLoopback(clock, (err) =>
      log.debug({ err: (err as Error).message }, 'music: library loopback read ended'),
    );
  }

  /** An address ffmpeg can read the file from. */
  async urlFor(file: LibraryFile): Promise<string> {
    const open = (start: number, end: number) => openLibraryFile(this.db, this.store, file, { start, end });
    return (await this.loopback.open(file.size, open, TICKET_TTL_MS)).url;
  }

  close(): Promise<void> {
    return this.loopback.close();
  }
}
