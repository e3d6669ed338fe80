/** Tic-tac-toe (portal-tools §2–3): its feature definition (routes and realtime room). */
import { TICTACTOE_ROOM_TYPE } from '@guildhall/common';
import { defineFeature } from '../../../platform/feature.ts';
import { ticTacToeRoom } from './room.ts';
import { ticTacToeRoutes } from './routes.ts';

export type { TicTacToeTables } from './tables.ts';

export const ticTacToeFeature = defineFeature({
  name: 'games/tictactoe',
  rooms: ({ db }) => ({ [TICTACTOE_ROOM_TYPE]: ticTacToeRoom(db) }),
  routes: (ctx) => ticTacToeRoutes(ctx),
});
