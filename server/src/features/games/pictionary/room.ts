import { PICTIONARY_EVENTS, PICTIONARY_ROOM_TYPE, PictionaryGameParams } from '@guildhall/common';
import { httpError } from '../../../platform/errors.ts';
import type { RealtimeHub, RoomType, SocketIdentity } from '../../../platform/realtime/index.ts';
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
        throw httpError(400, 'Game id must be a UUID', 'BAD_REQUEST');
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

const PREFIX = `${PICTIONARY_ROOM_TYPE}:`;

/**
 * Who has a socket in a game's room on THIS instance (each instance notes its own sockets), by game id.
 * Read from the adapter's local rooms: no round trip to other instances.
 */
export function socketsInGameRooms(hub: RealtimeHub): Map<string, string[]> {
  const nsp = hub.io.of('/');
  const byGame = new Map<string, string[]>();
  for (const [room, socketIds] of nsp.adapter.rooms) {
    if (!room.startsWith(PREFIX)) continue;
    const users = new Set<string>();
    for (const id of socketIds) {
      const identity = (nsp.sockets.get(id)?.data as { identity?: SocketIdentity } | undefined)?.identity;
      if (identity) users.add(identity.userId);
    }
    if (users.size > 0) byGame.set(room.slice(PREFIX.length), [...users]);
  }
  return byGame;
}
