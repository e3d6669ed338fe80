/** Tic-tac-toe (portal-tools §2–3): its feature definition (routes, realtime room, presence beat). */
import { TICTACTOE_ROOM_TYPE, TICTACTOE_STATE_EVENT, tictactoeRoom } from '@guildhall/common';
import { beatOn, defineFeature } from '../../../platform/feature.ts';
import { noteNewRoom, ticTacToeCommand } from './discord.ts';
import { ticTacToeRoom } from './room.ts';
import { ticTacToeRoutes } from './routes.ts';
import { type GameContext, markManySeen } from './service.ts';

export type { TicTacToeTables } from './tables.ts';

/** How often the sockets in game rooms are noted as present. */
const PRESENCE_TICK_MS = 5_000;

type TicTacToeState = { game: GameContext; stopPresence: (() => void) | undefined };

/**
 * Presence through the socket as well as the polls: a tab in the background keeps its socket even when
 * the browser slows its timers, so a waiting player is matched while the tab is open, and only then.
 */
export const ticTacToeFeature = defineFeature<TicTacToeState>({
  name: 'games/tictactoe',
  // The game service, built once: routes, the room and the presence beat all use this one.
  setup: ({ db, clock, log, publish, botHolder }) => {
    const game: GameContext = {
      db,
      clock,
      publish: (g) => publish(tictactoeRoom(g.id), TICTACTOE_STATE_EVENT, { game: g }),
      lobbyOpened: noteNewRoom({ db, clock }, log),
    };
    botHolder.offerCommand(ticTacToeCommand(game, log));
    return { game, stopPresence: undefined };
  },
  rooms: (_ctx, { game }) => ({ [TICTACTOE_ROOM_TYPE]: ticTacToeRoom(game) }),
  routes: (_ctx, { game }) => ticTacToeRoutes(game),
  // On the feature's clock; the next beat is armed once this one is done (never two at once).
  start: ({ log, realtime }, state) => {
    state.stopPresence = beatOn(state.game.clock, PRESENCE_TICK_MS, () => {
      const here = new Set([...realtime.localMembersByKey(TICTACTOE_ROOM_TYPE).values()].flat());
      return markManySeen(state.game, here).catch((err: unknown) =>
        log.error({ err }, 'tic-tac-toe: presence beat failed'),
      );
    });
  },
  stop: (_ctx, state) => {
    state.stopPresence?.();
    state.stopPresence = undefined;
  },
});
