import { z } from 'zod';

/**
 * One Discord bot for the whole deployment (issue 42): a lease in the shared database decides which
 * instance logs the bot in and holds the voice connections; the others forward music commands to it.
 */

/** How long a holder's lease lasts without a renewal (MUSIC_BOT_LEASE_SECONDS's default). */
export const MUSIC_BOT_LEASE_SECONDS_DEFAULT = 10;
/** The holder renews this many times per lease period (a renewal every third of it). */
export const MUSIC_BOT_LEASE_RENEWALS = 3;
/** How often the holder stores each playing song's position (it is also stored on every change). */
export const MUSIC_POSITION_SAVE_MS = 1000;
/** How long a command forwarded to the holder may take before the caller gets a 503 (a play may join a channel and start ffmpeg). */
export const MUSIC_FORWARD_TIMEOUT_MS = 30_000;

/** Member-facing: a control while no instance holds the bot (a handover in progress). */
export const MUSIC_HANDOVER_TEXT =
  'The music bot is moving to another server of the portal and is reconnecting. Try again in a moment.';

/** Who holds the bot, as /readyz and the admin panel show it. */
export const MusicBotHolder = z.object({
  /** This instance's id (host, process and start). */
  thisInstance: z.string(),
  /** Whether a lease decides (PostgreSQL); false on a single SQLite process, which always holds it. */
  leased: z.boolean(),
  /** The instance holding the bot now, or null while none does (a handover, or no token configured). */
  holder: z.string().nullable(),
  /** The fencing token of the holder's lease (grows with every new holder). */
  epoch: z.number().int().nullable(),
  /** When the holder's lease runs out unless it is renewed (ISO time). */
  expiresAt: z.string().nullable(),
});
export type MusicBotHolder = z.infer<typeof MusicBotHolder>;

export const MusicBotHolderResponse = z.object({ success: z.literal(true), data: MusicBotHolder });
export type MusicBotHolderResponse = z.infer<typeof MusicBotHolderResponse>;
