/** What the rest of the app may use of Pictionary: its feature definition. */
import {
  PICTIONARY_EVENTS,
  PICTIONARY_PRESENCE_TICK_MS,
  PICTIONARY_ROOM_TYPE,
  pictionaryRoom as roomName,
  TEXTS,
  userRoom,
} from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import { beatOn, defineFeature } from '../../../platform/feature.ts';
import { noteNewLobby, pictionaryCommand } from './discord.ts';
import { dropAbsent, noteOneSeen, noteSeen } from './presence.ts';
import { createRateWindow } from './rate-window.ts';
import { pictionaryRoom, socketsInGameRooms } from './room.ts';
import { pictionaryRoutes } from './routes.ts';
import { advanceDueGames, advanceIfDue, armTimers, draw, type PictionaryContext } from './service.ts';
import { type Clock, createTurnTimers } from './timers.ts';

/** Due turns whose timer ran on another (or a stopped) instance are picked up this often. */
export const SWEEP_EVERY_MS = 5_000;
/** Socket draws per user and second (the screen sends about 20). */
const SOCKET_DRAWS_PER_SECOND = 40;

/** Test seams: the clock (default the platform's; the sweep and presence beats run on it too) and the word draw. */
export type PictionaryOptions = { clock?: Clock; random?: () => number };

type PictionaryState = {
  game: PictionaryContext;
  /** Stop the sweep and the presence beat (set by start). */
  stopBeats: (() => void)[];
};

/**
 * Pictionary: turns advance with nobody connected (a timer per game on this instance, and a sweep for
 * due turns whose timer ran elsewhere); strokes arrive on the drawer's socket or through POST /:id/draw.
 */
export function pictionaryFeature(options: PictionaryOptions = {}) {
  return defineFeature<PictionaryState>({
    name: 'games/pictionary',
    setup: ({ db, clock: platformClock, log, realtime, publish, botHolder }) => {
      const clock = options.clock ?? platformClock;
      const game: PictionaryContext = {
        db,
        clock,
        random: options.random ?? Math.random,
        timers: createTurnTimers(clock, (id) => {
          advanceIfDue(game, id).catch((err: unknown) =>
            log.error({ err, gameId: id }, 'pictionary: advancing a turn failed'),
          );
        }),
        pushState: (userId, g) => publish(userRoom(userId), PICTIONARY_EVENTS.state, { game: g }),
        pushStrokes: (gameId, drawerId, turnNumber, segments, strokeId) =>
          publish(
            roomName(gameId),
            PICTIONARY_EVENTS.strokes,
            { gameId, turnNumber, segments, strokeId },
            { except: userRoom(drawerId) },
          ),
        pushUndo: (gameId, drawerId, turnNumber, strokeId) =>
          publish(
            roomName(gameId),
            PICTIONARY_EVENTS.undo,
            { gameId, turnNumber, strokeId },
            { except: userRoom(drawerId) },
          ),
        pushClear: (gameId, turnNumber) =>
          publish(roomName(gameId), PICTIONARY_EVENTS.clear, { gameId, turnNumber }),
        segmentCounts: new Map(),
        startedAt: clock.now(),
        lobbyOpened: noteNewLobby({ db, clock }, log),
      };
      botHolder.offerCommand(pictionaryCommand(game));
      // The live path for strokes: the drawer's open socket, with the same rules as POST /:id/draw.
      const socketDrawLimit = createRateWindow(SOCKET_DRAWS_PER_SECOND, 1000, () => clock.now());
      // The hub has validated the payload against PictionarySocketDraw (CLIENT_EVENTS in common/).
      realtime.onClientEvent(PICTIONARY_EVENTS.draw, async (identity, { gameId, strokeData }) => {
        if (!socketDrawLimit.allow(identity.userId)) throw fail('RATE_LIMITED', TEXTS.rateLimitGeneric);
        return draw(game, identity.userId, gameId, strokeData);
      });
      return { game, stopBeats: [] };
    },
    rooms: ({ log }, { game }) => ({
      [PICTIONARY_ROOM_TYPE]: pictionaryRoom(game, (gameId, userId) =>
        noteOneSeen(game, gameId, userId).catch((err: unknown) =>
          log.error({ err, gameId }, 'pictionary: noting a player as seen failed'),
        ),
      ),
    }),
    routes: (_ctx, { game }) => pictionaryRoutes(game),
    start: async ({ log, realtime }, state) => {
      const { game } = state;
      await advanceDueGames(game);
      await armTimers(game);
      // Both beats run on the game's clock: a test moves it instead of waiting a beat out.
      state.stopBeats.push(
        beatOn(game.clock, SWEEP_EVERY_MS, () =>
          advanceDueGames(game).then(
            () => {},
            (err: unknown) => log.error({ err }, 'pictionary: sweep failed'),
          ),
        ),
        // Notes who has a socket in a game's room, and acts on players gone too long.
        beatOn(game.clock, PICTIONARY_PRESENCE_TICK_MS, () =>
          noteSeen(game, socketsInGameRooms(realtime))
            .then(() => dropAbsent(game))
            .then(
              () => {},
              (err: unknown) => log.error({ err }, 'pictionary: presence check failed'),
            ),
        ),
      );
    },
    stop: (_ctx, state) => {
      for (const stopBeat of state.stopBeats.splice(0)) stopBeat();
      state.game.timers.cancelAll();
    },
  });
}
