import { z } from 'zod';
import { MusicPlatform, RequestedBy } from './music.ts';

// ---- History of what played on a server (issue 48) ----

/** Songs kept per server; the oldest is forgotten first. */
export const MUSIC_HISTORY_MAX = 200;
/** The longest search text for the history. */
export const MUSIC_HISTORY_QUERY_MAX_CHARS = 100;

export const MUSIC_HISTORY_TEXTS = {
  tab: 'History',
  empty: 'Nothing has played on this server yet',
  noMatch: 'No song in the history matches',
  searchLabel: 'Search the history',
  searchPlaceholder: 'Title or artist',
  playAgain: 'Play again',
  loadFailed: 'Failed to load the history',
} as const;

/** One song that played: what it was, who asked for it, when it started. */
export const MusicHistoryEntry = z.object({
  id: z.string(),
  /** The source's id (as a search result's `id`). */
  songId: z.string(),
  youtube_id: z.string(),
  title: z.string(),
  uploader: z.string(),
  duration: z.number().int().nonnegative(),
  url: z.string(),
  thumbnail: z.string().nullable(),
  platform: MusicPlatform,
  requestedBy: RequestedBy,
  /** ISO time the song started playing. */
  playedAt: z.string(),
});
export type MusicHistoryEntry = z.infer<typeof MusicHistoryEntry>;

/** `GET /history/{guildId}?q=`: newest first; `q` keeps the songs whose title or artist contains it. */
export const MusicHistoryQuery = z.object({
  q: z
    .string({ error: 'q must be text' })
    .trim()
    .max(MUSIC_HISTORY_QUERY_MAX_CHARS, {
      error: `q must be at most ${MUSIC_HISTORY_QUERY_MAX_CHARS} characters`,
    })
    .optional(),
});
export type MusicHistoryQuery = z.infer<typeof MusicHistoryQuery>;

export const MusicHistoryResponse = z.object({
  success: z.literal(true),
  data: z.object({ entries: z.array(MusicHistoryEntry) }),
});
export type MusicHistoryResponse = z.infer<typeof MusicHistoryResponse>;
