import { z } from 'zod';
import {
  PICTIONARY_EVENTS,
  PictionaryClearPush,
  PictionaryGame,
  PictionaryStrokesPush,
  PictionaryUndoPush,
} from './games/pictionary-api.ts';
import { TICTACTOE_STATE_EVENT, TicTacToeGame } from './games/tictactoe-api.ts';
import { MUSIC_STATUS_EVENT, MusicStatusPush } from './music.ts';
import { OSINT_PROGRESS_EVENT } from './osint.ts';

/** The payload of OSINT_PROGRESS_EVENT (the `OsintProgress` type, as a schema). */
export const OsintProgressPush = z.object({
  searchId: z.string(),
  checked: z.number().int(),
  total: z.number().int(),
  hits: z.array(z.object({ name: z.string(), url: z.string() })),
});

/**
 * Every event the server pushes on the realtime channel, by name, with the schema of its payload: the
 * server's `publish` accepts only these payloads for these names, and the web's `useRealtimeEvent` hands
 * its handler the same type. A new push is one line here.
 */
export const FEATURE_EVENTS = {
  [TICTACTOE_STATE_EVENT]: z.object({ game: TicTacToeGame }),
  [PICTIONARY_EVENTS.state]: z.object({ game: PictionaryGame }),
  [PICTIONARY_EVENTS.strokes]: PictionaryStrokesPush,
  [PICTIONARY_EVENTS.clear]: PictionaryClearPush,
  [PICTIONARY_EVENTS.undo]: PictionaryUndoPush,
  [MUSIC_STATUS_EVENT]: MusicStatusPush,
  [OSINT_PROGRESS_EVENT]: OsintProgressPush,
} as const;

export type RealtimeEventName = keyof typeof FEATURE_EVENTS;
export type RealtimeEventPayload<E extends RealtimeEventName> = z.input<(typeof FEATURE_EVENTS)[E]>;
