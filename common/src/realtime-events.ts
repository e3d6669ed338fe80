import { z } from 'zod';
import { ERROR_CODE_NAMES } from './error-codes.ts';
import {
  PICTIONARY_EVENTS,
  PictionaryClearPush,
  PictionaryDrawResult,
  PictionaryGame,
  PictionarySocketDraw,
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

/**
 * Every event a client sends on its socket (client → server), by name, with the schema of its payload and
 * of the result its ack carries. The hub validates the payload once (a refusal names the field:
 * BAD_REQUEST), so a feature's handler gets it typed and returns its result typed; the web's
 * `emitClientEvent` sends only these payloads and parses the ack. A new client event is one line here.
 */
export const CLIENT_EVENTS = {
  [PICTIONARY_EVENTS.draw]: { payload: PictionarySocketDraw, result: PictionaryDrawResult },
} as const;

export type ClientEventName = keyof typeof CLIENT_EVENTS;
/** What a client sends for `E`. */
export type ClientEventInput<E extends ClientEventName> = z.input<(typeof CLIENT_EVENTS)[E]['payload']>;
/** What the server's handler of `E` receives: the payload once validated. */
export type ClientEventPayload<E extends ClientEventName> = z.output<(typeof CLIENT_EVENTS)[E]['payload']>;
/** What the server's handler of `E` answers (the ack adds `ok: true`). */
export type ClientEventResult<E extends ClientEventName> = z.input<(typeof CLIENT_EVENTS)[E]['result']>;

/** The refusal an ack carries: the message, and a code of the catalogue (error-codes.ts). */
export const ClientEventRefusal = z.object({
  ok: z.literal(false),
  error: z.string(),
  code: z.enum(ERROR_CODE_NAMES),
});

/** The schema of `E`'s ack: `{ok: true, ...result}` or a refusal. */
export function clientEventAck<E extends ClientEventName>(event: E) {
  return z.discriminatedUnion('ok', [
    CLIENT_EVENTS[event].result.extend({ ok: z.literal(true) }),
    ClientEventRefusal,
  ]);
}
export type ClientEventAck<E extends ClientEventName> = z.output<ReturnType<typeof clientEventAck<E>>>;
