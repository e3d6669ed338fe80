import { z } from 'zod';

// ---- Per-server queue options (issue 48): fair queue, no duplicates ----

/** The options a server keeps for its queue; all off by default. */
export const MusicServerOptions = z.object({
  /** Songs are taken round-robin by requester instead of first come, first served. */
  fairQueue: z.boolean(),
  /** A song already playing or queued is refused (a list link leaves it out). */
  noDuplicates: z.boolean(),
  /** When the queue ends, a related song is added (marked Autoplay); a member's request goes first. */
  autoplay: z.boolean(),
});
export type MusicServerOptions = z.infer<typeof MusicServerOptions>;

export const DEFAULT_MUSIC_OPTIONS: MusicServerOptions = {
  fairQueue: false,
  noDuplicates: false,
  autoplay: false,
};

/** The options a route may switch, each at its own path (`/api/music/<path>/:guildId`). */
export const MUSIC_OPTION_PATHS = {
  fairQueue: 'fair-queue',
  noDuplicates: 'no-duplicates',
  autoplay: 'autoplay',
} as const;
/** Autoplay is switched by any member in the bot's channel (like loop); the queue rules by moderators. */
export const MUSIC_MEMBER_OPTIONS: readonly MusicOptionKey[] = ['autoplay'];
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
  autoplay: 'Autoplay',
  autoplayHint: 'When the queue ends, a related song plays (never one of the last 50 played)',
  optionsNeedModerator: 'Moderators and above change the queue rules',
  duplicate: 'That song is already playing or in the queue (this server allows each song once)',
} as const;

export const MUSIC_OPTION_MESSAGES: Record<MusicOptionKey, { on: string; off: string }> = {
  fairQueue: { on: 'Fair queue on: songs take turns by requester', off: 'Fair queue off' },
  noDuplicates: { on: 'No duplicates in the queue', off: 'Duplicates allowed in the queue' },
  autoplay: { on: 'Autoplay on: a related song plays when the queue ends', off: 'Autoplay off' },
};

// ---- Autoplay (issue 48) ----

/** Autoplay never picks one of the last this many songs played on the server. */
export const MUSIC_AUTOPLAY_AVOID_RECENT = 50;
/** How long autoplay may look for a related song once the queue ends (then the music stops as before). */
export const MUSIC_AUTOPLAY_PICK_TIMEOUT_MS = 1500;
/** The requester shown for autoplay's songs (queue, Now Playing, history). */
export const MUSIC_AUTOPLAY_REQUESTER = 'Autoplay';

/**
 * Why autoplay added nothing when the queue ended (issue 48): the source has no related songs for this kind
 * of song, it had none that were not played recently, it could not be asked, or it did not answer in time.
 */
export const MusicAutoplayMissReason = z.enum(['unsupported', 'none', 'unavailable', 'timeout']);
export type MusicAutoplayMissReason = z.infer<typeof MusicAutoplayMissReason>;

/** Shown once the queue has ended with autoplay on and nothing added: after which song, from which source, why. */
export const MusicAutoplayMiss = z.object({
  afterTitle: z.string(),
  /** The source's name as members read it (YouTube, SoundCloud, the file library…). */
  source: z.string(),
  reason: MusicAutoplayMissReason,
});
export type MusicAutoplayMiss = z.infer<typeof MusicAutoplayMiss>;

/** The panel's line for an autoplay that added nothing: says what was tried and why it stopped. */
export function autoplayMissText(m: MusicAutoplayMiss): string {
  const after = `“${m.afterTitle}”`;
  switch (m.reason) {
    case 'unsupported':
      return `The queue ended: autoplay has no related songs for ${m.source} songs.`;
    case 'none':
      return `The queue ended: autoplay found no ${m.source} song related to ${after} that was not played recently.`;
    case 'unavailable':
      return `The queue ended: autoplay could not reach ${m.source} for a song related to ${after}.`;
    case 'timeout':
      return `The queue ended: ${m.source} did not answer autoplay in time for a song related to ${after}.`;
  }
}

/** A list link's message when some of its songs were already queued (no-duplicates rule). */
export const duplicatesLeftOutText = (n: number) =>
  n === 1 ? '1 song already in the queue was left out' : `${n} songs already in the queue were left out`;
