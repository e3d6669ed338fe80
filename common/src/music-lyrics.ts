import { z } from 'zod';

// ---- Synced lyrics of the song playing (issue 48): LRCLIB through the portal ----

/** How long one LRCLIB request may take before the answer is "could not check". */
export const MUSIC_LYRICS_TIMEOUT_MS = 5000;
/** Lyrics lookups per member per minute (each may reach LRCLIB twice: /api/get, then /api/search). */
export const MUSIC_LYRICS_PER_MINUTE = 60;
/** Songs whose answer (lyrics or "none") is remembered; the oldest is forgotten first. */
export const MUSIC_LYRICS_CACHE_SIZE = 500;
/** How long a found / not-found answer is remembered. "Could not check" is never remembered. */
export const MUSIC_LYRICS_CACHE_MS = 6 * 60 * 60 * 1000;
/** A search result counts as the song when its duration is within this many seconds of the song's. */
export const MUSIC_LYRICS_DURATION_TOLERANCE_S = 3;

export const MUSIC_LYRICS_TEXTS = {
  tab: 'Lyrics',
  nothingPlaying: 'Nothing is playing',
  notFound: 'No lyrics found',
  unavailable: 'Lyrics are unavailable right now',
  instrumental: 'Instrumental',
  loading: 'Looking for lyrics…',
  credit: 'Lyrics from LRCLIB',
} as const;

/**
 * synced: LRC lines with times; plain: lines without times; instrumental: LRCLIB says the song has no
 * words; not_found: LRCLIB answered and has none; unavailable: LRCLIB could not be asked (down, slow,
 * garbled): never reported as not_found; nothing_playing: no song to look up.
 */
export const MUSIC_LYRICS_STATES = [
  'synced',
  'plain',
  'instrumental',
  'not_found',
  'unavailable',
  'nothing_playing',
] as const;
export const MusicLyricsState = z.enum(MUSIC_LYRICS_STATES);
export type MusicLyricsState = z.infer<typeof MusicLyricsState>;

export const LyricsLine = z.object({
  /** Seconds into the song where the line starts (synced only; null for plain lines). */
  time: z.number().nonnegative().nullable(),
  text: z.string(),
});
export type LyricsLine = z.infer<typeof LyricsLine>;

export const MusicLyrics = z.object({
  guildId: z.string(),
  state: MusicLyricsState,
  /** The queue entry the lyrics belong to (null when nothing plays): the panel drops lyrics of an older song. */
  entryId: z.string().nullable(),
  title: z.string().nullable(),
  lines: z.array(LyricsLine),
  /** What LRCLIB matched (artist and track), when it found the song. */
  matched: z.object({ artist: z.string(), track: z.string() }).nullable(),
});
export type MusicLyrics = z.infer<typeof MusicLyrics>;

export const MusicLyricsResponse = z.object({ success: z.literal(true), data: MusicLyrics });
export type MusicLyricsResponse = z.infer<typeof MusicLyricsResponse>;

/** The index of the line sung at `position` seconds (-1 before the first): the last line that started. */
export function currentLineIndex(lines: readonly LyricsLine[], position: number): number {
  let found = -1;
  for (let i = 0; i < lines.length; i += 1) {
    const t = lines[i]?.time;
    if (t == null || t > position) break;
    found = i;
  }
  return found;
}
