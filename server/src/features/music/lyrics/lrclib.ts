import {
  type LyricsLine,
  MUSIC_LYRICS_DURATION_TOLERANCE_S,
  MUSIC_LYRICS_TIMEOUT_MS,
} from '@guildhall/common';
import type { Outbound } from '../../../platform/outbound/fetcher.ts';
import { parseLrc, plainLines } from './lrc.ts';
import type { LyricsQuery } from './query.ts';

/** What LRCLIB said about a song: found (synced or plain), instrumental, none, or it could not be asked. */
export type LyricsVerdict =
  | { state: 'synced' | 'plain'; lines: LyricsLine[]; matched: { artist: string; track: string } }
  | { state: 'instrumental'; lines: []; matched: { artist: string; track: string } }
  | { state: 'not_found' }
  | { state: 'unavailable'; reason: string };

/** One LRCLIB record, as `/api/get` answers it and `/api/search` lists them. */
type LrclibRecord = {
  trackName?: unknown;
  artistName?: unknown;
  duration?: unknown;
  instrumental?: unknown;
  plainLyrics?: unknown;
  syncedLyrics?: unknown;
};

/** LRCLIB asks clients to name themselves. */
const USER_AGENT = 'Guildhall music lyrics (https://github.com/guildhall; LRCLIB client)';

/** Thrown inside a lookup when LRCLIB's answer cannot be used: the verdict is "could not check". */
class Unchecked extends Error {}

/**
 * Asks LRCLIB for a song's lyrics: `/api/get` by artist, track and duration (its exact match), then
 * `/api/search?q=<track>` as the fallback, whose results count only within ±3 s of the song's duration (a wrong
 * song's lyrics are worse than none). Every request goes through the platform's outbound fetcher (its
 * address policy, body cap and fair share per member) with a 5 s limit; any failure of either request
 * is "unavailable", never "not found".
 */
export async function askLrclib(
  outbound: Outbound,
  baseUrl: string,
  query: LyricsQuery,
  owner: string,
  /** The limit of each request (a test seam; MUSIC_LYRICS_TIMEOUT_MS otherwise). */
  timeoutMs = MUSIC_LYRICS_TIMEOUT_MS,
): Promise<LyricsVerdict> {
  const getJson = async (path: string, params: Record<string, string>): Promise<unknown> => {
    const url = `${baseUrl}${path}?${new URLSearchParams(params).toString()}`;
    const res = await outbound.fetch(url, {
      headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' },
      timeoutMs,
      followRedirects: true,
      owner,
    });
    if (res.status === 404) return null;
    if (res.status !== 200) throw new Unchecked(`LRCLIB answered HTTP ${res.status}`);
    if (res.truncated) throw new Unchecked('LRCLIB answered more than the body limit');
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      throw new Unchecked('LRCLIB answered something that is not JSON');
    }
  };
  try {
    if (query.artist) {
      const params: Record<string, string> = { artist_name: query.artist, track_name: query.track };
      if (query.duration > 0) params.duration = String(query.duration);
      const exact = await getJson('/api/get', params);
      if (exact !== null) {
        if (!isRecord(exact)) throw new Unchecked('LRCLIB answered /api/get with an unexpected shape');
        const verdict = verdictOf(exact);
        if (verdict) return verdict;
      }
    }
    // By the track alone: the artist is the guess most often wrong (a channel's name, a label's upload).
    const found = await getJson('/api/search', { q: query.track });
    if (found === null) return { state: 'not_found' };
    if (!Array.isArray(found)) throw new Unchecked('LRCLIB answered /api/search with an unexpected shape');
    return bestOf(found.filter(isRecord), query) ?? { state: 'not_found' };
  } catch (err) {
    return { state: 'unavailable', reason: err instanceof Error ? err.message : String(err) };
  }
}

function isRecord(v: unknown): v is LrclibRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/** A record's lyrics, or null when it has none worth showing. */
function verdictOf(r: LrclibRecord): LyricsVerdict | null {
  const matched = { artist: String(r.artistName ?? ''), track: String(r.trackName ?? '') };
  const synced = text(r.syncedLyrics);
  if (synced) {
    const lines = parseLrc(synced);
    if (lines.length > 0) return { state: 'synced', lines, matched };
  }
  const plain = text(r.plainLyrics);
  if (plain) return { state: 'plain', lines: plainLines(plain), matched };
  if (r.instrumental === true) return { state: 'instrumental', lines: [], matched };
  return null;
}

/**
 * The search result to show: within the duration tolerance (when the song's is known), the guessed
 * artist's first, synced before plain.
 */
function bestOf(records: LrclibRecord[], { duration, artist }: LyricsQuery): LyricsVerdict | null {
  const sameArtist = (r: LrclibRecord) =>
    artist !== null && String(r.artistName ?? '').toLowerCase() === artist.toLowerCase();
  const close = [...records.filter(sameArtist), ...records.filter((r) => !sameArtist(r))].filter(
    (r) =>
      duration <= 0 ||
      (typeof r.duration === 'number' &&
        Math.abs(r.duration - duration) <= MUSIC_LYRICS_DURATION_TOLERANCE_S),
  );
  const verdicts = close.map(verdictOf).filter((v): v is LyricsVerdict => v !== null);
  const first = verdicts[0];
  if (first && first.state !== 'synced' && 'matched' in first) {
    // A synced record of the same song (same artist) beats the plain one listed first.
    const synced = verdicts.find((v) => v.state === 'synced' && v.matched.artist === first.matched.artist);
    if (synced) return synced;
  }
  return first ?? null;
}
