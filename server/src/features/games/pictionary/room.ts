import { PICTIONARY_EVENTS, PictionaryGameParams } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { httpError } from '../../../platform/errors.ts';
import type { RoomType } from '../../../platform/realtime/index.ts';
import { authorizeViewer, viewOf } from './service.ts';
import type { Clock } from './timers.ts';

/**
 * Rooms `pictionary:<gameId>`: the game's players may join. Joining sends that player's own view with the
 * turn's drawing, so a late or reconnecting player sees the canvas as it is.
 */
export function pictionaryRoom(db: Db, clock: Clock): RoomType {
  return {
    async authorize(identity, key) {
      if (!PictionaryGameParams.safeParse({ id: key }).success) {
        throw httpError(400, 'Game id must be a UUID', 'BAD_REQUEST');
      }
      await authorizeViewer(db, identity.userId, key);
    },
    async snapshot(key, identity) {
      return {
        event: PICTIONARY_EVENTS.state,
        payload: { game: await viewOf({ db, clock }, key, identity.userId, true) },
      };
    },
  };
}
