import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import type { Clock } from '../../../platform/feature.ts';
import { noteSongRequested } from '../../discord-notes/index.ts';
import type { MusicCommands } from '../front.ts';

/**
 * The "song requested" channel note (issue 44): every successful `play` (the panel's, a command's, or one
 * forwarded from another instance, which is noted there once) queues a note if the admin wants them. A list
 * link is one note ("… and 11 more"), never one per track. Never awaited: the answer does not wait on it.
 */
export function withSongNotes(
  front: MusicCommands,
  o: { db: Db; log: FastifyBaseLogger; clock: Clock },
): MusicCommands {
  return {
    ...front,
    async play(...args) {
      const r = await front.play(...args);
      const more = 'added' in r && typeof r.added === 'number' ? r.added - 1 : 0;
      const note = { who: r.song.requestedBy.displayName, title: r.song.title, more, now: o.clock.now() };
      noteSongRequested(o.db, note).catch((err: unknown) =>
        o.log.warn({ err }, 'music: the song note could not be queued'),
      );
      return r;
    },
  };
}
