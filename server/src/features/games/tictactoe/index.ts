/** Tic-tac-toe (portal-tools §2–3): its feature definition (routes, realtime room, presence beat). */
import { TICTACTOE_ROOM_TYPE } from '@guildhall/common';
import { defineFeature } from '../../../platform/feature.ts';
import { socketsInRooms } from '../room-members.ts';
import { ticTacToeRoom } from './room.ts';
import { ticTacToeRoutes } from './routes.ts';
import { markManySeen } from './service.ts';

export type { TicTacToeTables } from './tables.ts';

/** How often the sockets in game rooms are noted as present. */
const PRESENCE_TICK_MS = 5_000;

type TicTacToeState = { presence: NodeJS.Timeout | undefined };

/**
 * Presence through the socket as well as the polls: a tab in the background keeps its socket even when
 * the browser slows its timers, so a waiting player is matched while the tab is open, and only then.
 */
export const ticTacToeFeature = defineFeature<TicTacToeState>({
  name: 'games/tictactoe',
  setup: () => ({ presence: undefined }),
  rooms: ({ db }) => ({ [TICTACTOE_ROOM_TYPE]: ticTacToeRoom(db) }),
  routes: (ctx) => ticTacToeRoutes(ctx),
  start: ({ db, log, realtime }, state) => {
    let ticking = false;
    state.presence = setInterval(() => {
      if (ticking) return; // a slow database: never two beats at once
      ticking = true;
      const here = new Set([...socketsInRooms(realtime, TICTACTOE_ROOM_TYPE).values()].flat());
      markManySeen(db, here)
        .catch((err: unknown) => log.error({ err }, 'tic-tac-toe: presence beat failed'))
        .finally(() => {
          ticking = false;
        });
    }, PRESENCE_TICK_MS);
    state.presence.unref();
  },
  stop: (_ctx, state) => {
    clearInterval(state.presence);
    state.presence = undefined;
  },
});
