import { randomUUID } from 'node:crypto';
import { MUSIC_HISTORY_MAX, type MusicHistoryEntry, type Song } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import type { Clock } from '../../../platform/feature.ts';
import type { MusicHistoryTable } from '../tables.ts';
import { insertHistory, listHistory } from './repo.ts';

/**
 * What played on each server (issue 48): the holder records every song as it starts, with its requester
 * and the time; any instance reads it (the History tab, autoplay's "not one of the last 50").
 */
export type HistoryStore = {
  /** Records a song that started playing (a failure is logged: the music goes on). */
  record(guildId: string, song: Song): Promise<void>;
  /** Newest first; `query` keeps the songs whose title or artist contains every word of it. */
  list(guildId: string, query?: string): Promise<MusicHistoryEntry[]>;
  /** The platform:id keys of the last `n` songs played. */
  recentKeys(guildId: string, n: number): Promise<Set<string>>;
};

export function createHistoryStore(db: Db, clock: Clock, log: FastifyBaseLogger): HistoryStore {
  /** Times only grow (a clock that stands still, two songs in one millisecond): the order is the order played. */
  let last = 0;
  const all = async (guildId: string, limit = MUSIC_HISTORY_MAX) =>
    (await listHistory(db, guildId, limit)).map(present);
  return {
    async record(guildId, song) {
      last = Math.max(clock.now(), last + 1);
      const row: MusicHistoryTable = {
        id: randomUUID(),
        guild_id: guildId,
        platform: song.platform,
        song_key: song.id,
        title: song.title,
        uploader: song.uploader,
        duration: song.duration,
        url: song.url,
        thumbnail: song.thumbnail,
        requester_id: song.requestedBy.id ?? null,
        requester_name: song.requestedBy.displayName,
        requester_avatar: song.requestedBy.avatar,
        played_at: new Date(last).toISOString(),
      };
      await insertHistory(db, row, MUSIC_HISTORY_MAX).catch((err: unknown) =>
        log.warn({ err, guildId }, 'music: could not record the song in the history'),
      );
    },
    async list(guildId, query) {
      const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      // At most 200 rows per server: matched here, with no LIKE escaping that differs between databases.
      return (await all(guildId)).filter((e) => {
        const text = `${e.title} ${e.uploader}`.toLowerCase();
        return words.every((w) => text.includes(w));
      });
    },
    async recentKeys(guildId, n) {
      return new Set((await all(guildId, n)).map((e) => `${e.platform}:${e.songId}`));
    },
  };
}

function present(r: MusicHistoryTable): MusicHistoryEntry {
  return {
    id: r.id,
    songId: r.song_key,
    youtube_id: r.song_key,
    title: r.title,
    uploader: r.uploader,
    duration: Number(r.duration),
    url: r.url,
    thumbnail: r.thumbnail,
    platform: r.platform,
    requestedBy: {
      ...(r.requester_id ? { id: r.requester_id } : {}),
      avatar: r.requester_avatar,
      displayName: r.requester_name,
    },
    playedAt: r.played_at,
  };
}
