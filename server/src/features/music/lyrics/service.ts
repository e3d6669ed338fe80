import {
  MUSIC_LYRICS_CACHE_MS,
  MUSIC_LYRICS_CACHE_SIZE,
  type MusicLyrics,
  type Song,
} from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../platform/feature.ts';
import type { Outbound } from '../../../platform/outbound/fetcher.ts';
import { askLrclib, type LyricsVerdict } from './lrclib.ts';
import { lyricsQueryFor } from './query.ts';

type Known = Exclude<LyricsVerdict, { state: 'unavailable' }>;

export type LyricsDeps = {
  outbound: () => Promise<Outbound>;
  baseUrl: string;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Each LRCLIB request's limit (test seam; default MUSIC_LYRICS_TIMEOUT_MS). */
  timeoutMs?: number;
};

/**
 * The lyrics of songs, cached per track (platform and source id): found and not-found answers for
 * MUSIC_LYRICS_CACHE_MS, at most MUSIC_LYRICS_CACHE_SIZE songs; "could not check" is never cached, so
 * the next look after LRCLIB comes back asks again. Parallel looks at one song share one lookup.
 */
export function createLyricsService(deps: LyricsDeps) {
  const cache = new Map<string, { verdict: Known; at: number }>();
  const inFlight = new Map<string, Promise<LyricsVerdict>>();
  let lastFailure: string | null = null;

  const lookup = async (key: string, song: Song, owner: string): Promise<LyricsVerdict> => {
    const cached = cache.get(key);
    if (cached && deps.clock.now() - cached.at < MUSIC_LYRICS_CACHE_MS) return cached.verdict;
    const running = inFlight.get(key);
    if (running) return running;
    const task = (async () => {
      const outbound = await deps.outbound();
      const verdict = await askLrclib(outbound, deps.baseUrl, lyricsQueryFor(song), owner, deps.timeoutMs);
      if (verdict.state === 'unavailable') {
        // Logged once per change of reason: members see only "unavailable right now".
        if (verdict.reason !== lastFailure)
          deps.log.warn({ reason: verdict.reason }, 'music: LRCLIB lookup failed');
        lastFailure = verdict.reason;
        return verdict;
      }
      lastFailure = null;
      cache.delete(key);
      cache.set(key, { verdict, at: deps.clock.now() });
      while (cache.size > MUSIC_LYRICS_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return verdict;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, task);
    return task;
  };

  return {
    /** The lyrics of the song playing on a server (`song` null: nothing plays), for `owner`'s request. */
    async forSong(guildId: string, song: Song | null, owner: string): Promise<MusicLyrics> {
      const base = { guildId, entryId: song?.entryId ?? null, title: song?.title ?? null };
      if (!song) return { ...base, state: 'nothing_playing', lines: [], matched: null };
      const verdict = await lookup(`${song.platform}:${song.id}`, song, owner).catch(
        (err: unknown): LyricsVerdict => ({ state: 'unavailable', reason: String(err) }),
      );
      if (verdict.state === 'unavailable' || verdict.state === 'not_found') {
        return { ...base, state: verdict.state, lines: [], matched: null };
      }
      return { ...base, state: verdict.state, lines: verdict.lines, matched: verdict.matched };
    },
  };
}

export type LyricsService = ReturnType<typeof createLyricsService>;
