import { PICTIONARY_EVENTS, PICTIONARY_ROOM_TYPE, PictionaryGameParams } from '@guildhall/common';
import { fail } from '../../../platform/errors.ts';
import type { FeatureRealtime, RoomType } from '../../../platform/realtime/index.ts';
import { authorizeViewer, type PictionaryContext, viewOf } from './service.ts';

/**
 * Rooms `pictionary:<gameId>`: the game's players may join. Joining sends that player's own view with the
 * turn's drawing, so a late or reconnecting player sees the canvas as it is; it also counts as being seen
 * (a player coming back is no longer away).
 */
export function pictionaryRoom(
  ctx: Pick<PictionaryContext, 'db' | 'clock'>,
  onSeen: (gameId: string, userId: string) => Promise<unknown>,
): RoomType {
  return {
    async authorize(identity, key) {
      if (!PictionaryGameParams.safeParse({ id: key }).success) {
        throw fail('BAD_REQUEST', 'Game id must be a UUID');
      }
      await authorizeViewer(ctx.db, identity.userId, key);
    },
    async snapshot(key, identity) {
      await onSeen(key, identity.userId);
      return {
        event: PICTIONARY_EVENTS.state,
        payload: { game: await viewOf(ctx, key, identity.userId, true) },
      };
    },
  };
}

/** Who has a socket in a game's room on this instance, by game id (what the presence beat notes). */
export function socketsInGameRooms(
  realtime: Pick<FeatureRealtime, 'localMembersByKey'>,
): Map<string, string[]> {
  return realtime.localMembersByKey(PICTIONARY_ROOM_TYPE);
}
