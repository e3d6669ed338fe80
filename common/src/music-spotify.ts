import { z } from 'zod';

// ---- Spotify links (issue 48): read through Spotify's Web API, each track matched to a playable song ----

/** How long one Spotify Web API request may take. */
export const MUSIC_SPOTIFY_TIMEOUT_MS = 5000;
/** How long matching a link's tracks to playable songs may take in all; the tracks left are skipped. */
export const MUSIC_SPOTIFY_MATCH_BUDGET_MS = 20_000;
/** Tracks matched at once (each is one or two searches). */
export const MUSIC_SPOTIFY_MATCH_CONCURRENCY = 4;
/** A song matches a Spotify track only within this many seconds of its length. */
export const MUSIC_SPOTIFY_DURATION_TOLERANCE_S = 3;
/** Spotify links one member may paste per minute (each reaches Spotify and up to 200 searches). */
export const MUSIC_SPOTIFY_LINKS_PER_MINUTE = 5;

export const MUSIC_SPOTIFY_TEXTS = {
  notConfigured:
    'Spotify links need the Spotify Web API: an administrator sets SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET (docs/music.md)',
  unavailable: 'Spotify is not available right now',
  notFound: 'That Spotify link leads to nothing (a deleted or private track, album, playlist or artist)',
  unsupported: 'That Spotify link is not a track, album, playlist or artist',
  empty: 'That Spotify link has no tracks',
  noneMatched: 'No track of that Spotify link could be matched to a playable song',
  tooMany: 'Too many Spotify links in a minute: try again shortly',
} as const;

/** Why a Spotify track was not queued (it is never replaced by another song). */
export const MUSIC_SPOTIFY_SKIP_REASONS = {
  noMatch: 'no YouTube Music, YouTube or SoundCloud song has its ISRC or its artist, title and length (±3 s)',
  searchFailed: 'YouTube Music, YouTube and SoundCloud could not be searched right now',
  local: "a local file of the playlist's owner, not on Spotify",
  unavailable: 'Spotify gives no details of this track',
  outOfTime: 'matching took too long',
} as const;

export const SpotifySkipped = z.object({ title: z.string(), artist: z.string(), reason: z.string() });
export type SpotifySkipped = z.infer<typeof SpotifySkipped>;

/** The message of a Spotify link: what was queued, what the cap left out, what was skipped. */
export function spotifyQueuedText(o: {
  queued: number;
  total: number;
  cut: boolean;
  skipped: number;
  /** Matched songs the no-duplicates rule left out. */
  duplicates: number;
}): string {
  const what = o.queued === 1 ? '1 track' : `${o.queued} tracks`;
  const parts = [
    o.cut ? `Queued ${what} from the first 100 of ${o.total} (at most 100 per link)` : `Queued ${what}`,
  ];
  if (o.skipped > 0) parts.push(`${o.skipped} skipped (no matching song)`);
  if (o.duplicates > 0) parts.push(`${o.duplicates} already in the queue`);
  return parts.join('; ');
}
