import {
  MUSIC_SPOTIFY_DURATION_TOLERANCE_S,
  type SearchResult,
  MUSIC_SPOTIFY_SKIP_REASONS as WHY,
} from '@guildhall/common';
import type { SpotifyTrack } from './client.ts';

/** Where a Spotify track is looked for, in this order (YouTube Music's song search, then the sources' own). */
export type MatchPlatform = 'youtube-music' | 'youtube' | 'soundcloud';
/** Searches one platform: YouTube Music's songs, or the YouTube and SoundCloud sources' search. */
export type Search = (query: string, platform: MatchPlatform) => Promise<SearchResult[]>;
/** How a track was matched: YouTube Music by ISRC, or by artist and title on one of the platforms. */
export type MatchedBy = 'isrc' | MatchPlatform;

export type MatchResult =
  | { track: SpotifyTrack; song: SearchResult; by: MatchedBy }
  | { track: SpotifyTrack; reason: string };

/** Candidates looked at per platform. */
const CANDIDATES = 5;
const PLATFORMS: MatchPlatform[] = ['youtube-music', 'youtube', 'soundcloud'];

/**
 * Each Spotify track matched to a playable song: YouTube Music by the track's ISRC, then YouTube Music,
 * YouTube and SoundCloud by artist and title; a candidate counts only when its length is within ±3 s of
 * the track's and (by artist and title) its title and artist or channel name hold the track's title and
 * first artist. No candidate that passes: the track is skipped with the reason, never replaced by another
 * song. At most `concurrency` tracks at once; tracks not matched when `budgetMs` runs out are skipped
 * ("matching took too long").
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
  const failed = new Set<MatchPlatform>();
  const ask = (query: string, platform: MatchPlatform) =>
    search(query, platform).catch(() => {
      failed.add(platform);
      return [] as SearchResult[];
    });
  if (track.isrc) {
    // YouTube Music answers an ISRC with its recording first: only that top song is taken, and only when
    // its length is the track's and it names the title or the artist (a translated title still counts).
    const top = (await ask(track.isrc, 'youtube-music'))[0];
    if (top && isIsrcMatch(track, top)) return { track, song: top, by: 'isrc' };
  }
  const query = `${track.artists[0]} ${bareTitle(track.name)}`;
  for (const platform of PLATFORMS) {
    const candidates = await ask(query, platform);
    const song = candidates.slice(0, CANDIDATES).find((c) => isMatch(track, c));
    if (song) return { track, song, by: platform };
  }
  return { track, reason: failed.size === PLATFORMS.length ? WHY.searchFailed : WHY.noMatch };
}

/** An ISRC search's song: its length within the tolerance, and it names the track's title or first artist. */
export function isIsrcMatch(track: SpotifyTrack, c: SearchResult): boolean {
  if (!lengthFits(track, c)) return false;
  const haystack = ` ${words(`${c.title} ${c.uploader}`).join(' ')} `;
  const has = (text: string) => {
    const w = words(text);
    return w.length > 0 && w.every((x) => haystack.includes(` ${x} `));
  };
  return has(bareTitle(track.name)) || has(track.artists[0] ?? '');
}

function lengthFits(track: SpotifyTrack, c: SearchResult): boolean {
  const seconds = track.durationMs / 1000;
  return c.duration > 0 && Math.abs(c.duration - seconds) <= MUSIC_SPOTIFY_DURATION_TOLERANCE_S;
}

/** Whether a candidate is this track: its length within the tolerance, the title and first artist named. */
export function isMatch(track: SpotifyTrack, c: SearchResult): boolean {
  if (!lengthFits(track, c)) return false;
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
