import { randomUUID } from 'node:crypto';
import {
  MUSIC_AUTOPLAY_AVOID_RECENT,
  MUSIC_AUTOPLAY_PICK_TIMEOUT_MS,
  MUSIC_AUTOPLAY_REQUESTER,
  MUSIC_PLATFORM_LABELS,
  type MusicAutoplayMiss,
  type SearchResult,
  type Song,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/feature.ts';
import type { HistoryStore } from './history/store.ts';
import { songKey } from './queue-order.ts';
import type { MusicSource } from './sources/types.ts';

/** Related songs asked of a source per pick. */
const RELATED_ASKED = 25;

/**
 * Autoplay's choice when a server's queue ends (issue 48): a song related to the one that ended, from the
 * source it came from (a song from the same library folder, SoundCloud's related tracks, YouTube Music's
 * radio for a YouTube song), never one of the last 50 played nor one playing or queued; null when there is
 * none, the source has no related songs, could not be asked (logged with the reason), or did not answer
 * within MUSIC_AUTOPLAY_PICK_TIMEOUT_MS. Never a song from another source in its place. A null pick says
 * why (`miss`), for the panel.
 */
export function createAutoplay(o: {
  sources: MusicSource[];
  history: HistoryStore;
  log: FastifyBaseLogger;
  /** The feature's clock: the pick's time limit runs on it. */
  clock: Clock;
}) {
  const told = new Set<string>();
  return async (guildId: string, finished: Song, queued: Song[]): Promise<AutoplayPick> => {
    const missed = (reason: MusicAutoplayMiss['reason']): AutoplayPick => ({
      song: null,
      miss: { afterTitle: finished.title, source: MUSIC_PLATFORM_LABELS[finished.platform], reason },
    });
    const source = o.sources.find((s) => s.platform === finished.platform);
    if (!source?.related) {
      if (!told.has(finished.platform)) {
        told.add(finished.platform);
        o.log.info({ platform: finished.platform }, 'music: autoplay has no related songs for this platform');
      }
      return missed('unsupported');
    }
    const related = source.related.bind(source);
    let timer: unknown;
    const late = new Promise<'late'>((resolve) => {
      timer = o.clock.setTimeout(() => {
        o.log.warn(
          { platform: finished.platform, guildId, limitMs: MUSIC_AUTOPLAY_PICK_TIMEOUT_MS },
          'music: autoplay: the source did not answer in time; the queue ends',
        );
        resolve('late');
      }, MUSIC_AUTOPLAY_PICK_TIMEOUT_MS);
    });
    try {
      const picked = await Promise.race([
        (async () => {
          const [candidates, recent] = await Promise.all([
            related(finished, RELATED_ASKED),
            o.history.recentKeys(guildId, MUSIC_AUTOPLAY_AVOID_RECENT),
          ]);
          const avoid = new Set([...recent, songKey(finished), ...queued.map(songKey)]);
          return candidates.find((c) => !avoid.has(songKey(c))) ?? null;
        })(),
        late,
      ]);
      if (picked === 'late') return missed('timeout');
      return picked ? { song: asAutoplay(picked), miss: null } : missed('none');
    } catch (err) {
      // The source could not be asked: the queue ends as without autoplay, and the log says why.
      o.log.warn(
        { err: (err as Error).message, platform: finished.platform, guildId },
        'music: autoplay could not ask the source for related songs; the queue ends',
      );
      return missed('unavailable');
    } finally {
      o.clock.clearTimeout(timer);
    }
  };
}

/** Autoplay's answer: a song, or none and why. */
export type AutoplayPick = { song: Song; miss: null } | { song: null; miss: MusicAutoplayMiss };

export type Autoplay = ReturnType<typeof createAutoplay>;

function asAutoplay(s: SearchResult): Song {
  return {
    ...s,
    entryId: randomUUID(),
    requestedBy: { avatar: null, displayName: MUSIC_AUTOPLAY_REQUESTER },
    autoplay: true,
  };
}
