import { TICTACTOE_STATE_EVENT, TicTacToeGameParams } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import type { RoomType } from '../../../platform/realtime/index.ts';
import { authorizeViewer, type GameContext, loadGame } from './service.ts';

/** Rooms `tictactoe:<gameId>`: a game's players may join; joining sends the full current state. */
export function ticTacToeRoom(game: GameContext): RoomType {
  return {
    async authorize(identity, key) {
      if (!TicTacToeGameParams.safeParse({ id: key }).success)
        throw fail('BAD_REQUEST', 'Game id must be a UUID');
      await authorizeViewer(game, identity.userId, key);
    },
    async snapshot(key) {
      return { event: TICTACTOE_STATE_EVENT, payload: { game: await loadGame(game, key) } };
    },
  };
}
