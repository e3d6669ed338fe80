import { TICTACTOE_STATE_EVENT, TicTacToeGameParams } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { fail } from '../../../platform/errors.ts';
import type { RoomType } from '../../../platform/realtime/index.ts';
import { authorizeViewer, loadGame } from './service.ts';

/** Rooms `tictactoe:<gameId>`: a game's players may join; joining sends the full current state. */
export function ticTacToeRoom(db: Db): RoomType {
  return {
    async authorize(identity, key) {
      if (!TicTacToeGameParams.safeParse({ id: key }).success)
        throw fail('BAD_REQUEST', 'Game id must be a UUID');
      await authorizeViewer(db, identity.userId, key);
    },
    async snapshot(key) {
      return { event: TICTACTOE_STATE_EVENT, payload: { game: await loadGame(db, key) } };
    },
  };
}
