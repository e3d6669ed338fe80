import type { RealtimeHub, SocketIdentity } from '../../platform/realtime/index.ts';

/**
 * Who has a socket in the rooms `<type>:<key>` on THIS instance, by key (each instance notes its own
 * sockets). Read from the adapter's local rooms: no round trip to other instances. The games use it for
 * presence: an open tab keeps its socket (Socket.IO's own heartbeat, which browsers do not throttle in a
 * background tab as they throttle timers), a closed one drops it.
 */
export function socketsInRooms(hub: RealtimeHub, type: string): Map<string, string[]> {
  const prefix = `${type}:`;
  const nsp = hub.io.of('/');
  const byKey = new Map<string, string[]>();
  for (const [room, socketIds] of nsp.adapter.rooms) {
    if (!room.startsWith(prefix)) continue;
    const users = new Set<string>();
    for (const id of socketIds) {
      const identity = (nsp.sockets.get(id)?.data as { identity?: SocketIdentity } | undefined)?.identity;
      if (identity) users.add(identity.userId);
    }
    if (users.size > 0) byKey.set(room.slice(prefix.length), [...users]);
  }
  return byKey;
}
