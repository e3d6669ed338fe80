import { z } from 'zod';

// ---- Per-server queue options (issue 48): fair queue, no duplicates ----

/** The options a server keeps for its queue; all off by default. */
export const MusicServerOptions = z.object({
  /** Songs are taken round-robin by requester instead of first come, first served. */
  fairQueue: z.boolean(),
  /** A song already playing or queued is refused (a list link leaves it out). */
  noDuplicates: z.boolean(),
});
export type MusicServerOptions = z.infer<typeof MusicServerOptions>;

export const DEFAULT_MUSIC_OPTIONS: MusicServerOptions = { fairQueue: false, noDuplicates: false };

/** The options a route may switch, each at its own path (`/api/music/<path>/:guildId`). */
export const MUSIC_OPTION_PATHS = { fairQueue: 'fair-queue', noDuplicates: 'no-duplicates' } as const;
export type MusicOptionKey = keyof typeof MUSIC_OPTION_PATHS;

export const MusicOptionBody = z.object(
  { enabled: z.boolean({ error: 'enabled must be true or false' }) },
  { error: 'Request body must be a JSON object with enabled' },
);
export type MusicOptionBody = z.infer<typeof MusicOptionBody>;

export const MUSIC_QUEUE_TEXTS = {
  fairQueue: 'Fair queue',
  fairQueueHint: 'Songs take turns by requester, so one member cannot fill the queue',
  noDuplicates: 'No duplicates',
  noDuplicatesHint: 'A song already playing or in the queue cannot be added again',
  optionsNeedModerator: 'Moderators and above change these options',
  duplicate: 'That song is already playing or in the queue (this server allows each song once)',
} as const;

export const MUSIC_OPTION_MESSAGES: Record<MusicOptionKey, { on: string; off: string }> = {
  fairQueue: { on: 'Fair queue on: songs take turns by requester', off: 'Fair queue off' },
  noDuplicates: { on: 'No duplicates in the queue', off: 'Duplicates allowed in the queue' },
};

/** A list link's message when some of its songs were already queued (no-duplicates rule). */
export const duplicatesLeftOutText = (n: number) =>
  n === 1 ? '1 song already in the queue was left out' : `${n} songs already in the queue were left out`;
