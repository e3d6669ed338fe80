import {
  MUSIC_SPOTIFY_DURATION_TOLERANCE_S,
  type SearchResult,
  MUSIC_SPOTIFY_SKIP_REASONS as WHY,
} from '@guildhall/common';
import type { SpotifyTrack } from './client.ts';

/** Searches one platform (the sources' own search: YouTube, then SoundCloud). */
export type Search = (query: string, platform: 'youtube' | 'soundcloud') => Promise<SearchResult[]>;

export type MatchResult =
  | { track: SpotifyTrack; song: SearchResult }
  | { track: SpotifyTrack; reason: string };

/** Candidates looked at per platform. */
const CANDIDATES = 5;

/**
 * Each Spotify track matched to a playable song: YouTube first, then SoundCloud, searched by artist and
 * title; a candidate counts only when its length is within ±3 s of the track's and its title and channel
 * name hold the track's title and first artist. No candidate that passes: the track is skipped with the
 * reason, never replaced by another song. At most `concurrency` tracks at once; tracks not matched when
 * `budgetMs` runs out are skipped ("matching took too long").
 */
export async function matchTracks(
  tracks: SpotifyTrack[],
  search: Search,
  o: { concurrency: number; budgetMs: number },
): Promise<MatchResult[]> {
  const results: MatchResult[] = new Array(tracks.length);
  let outOfTime = false;
  let budgetEnded: () => void = () => {};
  const ended = new Promise<'late'>((resolve) => {
    budgetEnded = () => resolve('late');
  });
  const timer = setTimeout(() => {
    outOfTime = true;
    budgetEnded();
  }, o.budgetMs);
  let next = 0;
  const worker = async () => {
    while (next < tracks.length) {
      const i = next++;
      const track = tracks[i] as SpotifyTrack;
      if (outOfTime) {
        results[i] = { track, reason: WHY.outOfTime };
        continue;
      }
      const found = await Promise.race([matchOne(track, search), ended]);
      results[i] = found === 'late' ? { track, reason: WHY.outOfTime } : found;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(o.concurrency, tracks.length) }, worker));
  } finally {
    clearTimeout(timer);
  }
  return results;
}

async function matchOne(track: SpotifyTrack, search: Search): Promise<MatchResult> {
  if (track.isLocal) return { track, reason: WHY.local };
  if (!track.name || track.artists.length === 0 || track.durationMs <= 0)
    return { track, reason: WHY.unavailable };
  const query = `${track.artists[0]} ${bareTitle(track.name)}`;
  let failures = 0;
  for (const platform of ['youtube', 'soundcloud'] as const) {
    const candidates = await search(query, platform).catch(() => {
      failures++;
      return [] as SearchResult[];
    });
    const song = candidates.slice(0, CANDIDATES).find((c) => isMatch(track, c));
    if (song) return { track, song };
  }
  return { track, reason: failures === 2 ? WHY.searchFailed : WHY.noMatch };
}

/** Whether a candidate is this track: its length within the tolerance, the title and first artist named. */
export function isMatch(track: SpotifyTrack, c: SearchResult): boolean {
  const seconds = track.durationMs / 1000;
  if (c.duration <= 0 || Math.abs(c.duration - seconds) > MUSIC_SPOTIFY_DURATION_TOLERANCE_S) return false;
  const haystack = ` ${words(`${c.title} ${c.uploader}`).join(' ')} `;
  const has = (text: string) => words(text).every((w) => haystack.includes(` ${w} `));
  return has(bareTitle(track.name)) && has(track.artists[0] ?? '');
}

/** A title without what versions add: "(feat. …)", "[Remastered]", " - 2011 Remaster". */
export function bareTitle(name: string): string {
  return (
    name
      .replace(/\s*[([][^)\]]*[)\]]/g, '')
      .replace(/\s+-\s+.*$/, '')
      .trim() || name
  );
}

/** Lower-case words without accents or punctuation. */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
