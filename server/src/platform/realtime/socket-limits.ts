import { RateLimiterMemory } from 'rate-limiter-flexible';

/** How much one client may ask of the realtime channel (issue 15: socket floods). */
export type SocketLimits = {
  /** Sockets one account may hold open; a new one beyond it drops the account's oldest. */
  maxSocketsPerUser: number;
  /** Handshakes per client address (IPv6 by /64) per window: each one costs a database lookup. */
  handshakesPerWindow: number;
  /** Events one socket may send per window; past it they are refused, past twice it the socket is dropped. */
  eventsPerWindow: number;
  windowSeconds: number;
  /**
   * Connections one address may hold open before signing in (an engine.io connection that has not
   * completed the Socket.IO handshake): each holds a socket and memory, and none is counted elsewhere.
   */
  pendingPerAddress: number;
  /** How long a connection may stay open without completing the handshake (a real client needs < 1 s). */
  connectTimeoutMs: number;
};

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  maxSocketsPerUser: 10,
  handshakesPerWindow: 30,
  // Pictionary strokes at 20 batches a second stay well inside.
  eventsPerWindow: 300,
  windowSeconds: 10,
  pendingPerAddress: 10,
  connectTimeoutMs: 5_000,
};

/**
 * Counts the connections of each address that have not signed in yet (issue 26 #14): `tryOpen` refuses
 * past the limit, `release` is called once per opened connection, when it signs in or closes.
 */
export function createPendingCounter(limit: number) {
  const pending = new Map<string, number>();
  return {
    isFull: (key: string) => (pending.get(key) ?? 0) >= limit,
    tryOpen(key: string): boolean {
      const n = pending.get(key) ?? 0;
      if (n >= limit) return false;
      pending.set(key, n + 1);
      return true;
    },
    release(key: string): void {
      const n = (pending.get(key) ?? 1) - 1;
      if (n <= 0) pending.delete(key);
      else pending.set(key, n);
    },
    count: (key: string) => pending.get(key) ?? 0,
  };
}

export type SocketGate = {
  /** False when this address has opened too many sockets lately. */
  allowHandshake(addressKey: string): Promise<boolean>;
  /** `ok`, `refuse` (over the limit) or `drop` (far over it: a flood). */
  judgeEvent(socketId: string): Promise<'ok' | 'refuse' | 'drop'>;
  forget(socketId: string): void;
};

export function createSocketGate(limits: SocketLimits): SocketGate {
  const handshakes = new RateLimiterMemory({
    points: limits.handshakesPerWindow,
    duration: limits.windowSeconds,
  });
  // One counter per socket; refusing starts at the limit and dropping at twice it.
  const events = new RateLimiterMemory({
    points: limits.eventsPerWindow * 2,
    duration: limits.windowSeconds,
  });
  return {
    allowHandshake: (key) =>
      handshakes.consume(key).then(
        () => true,
        () => false,
      ),
    async judgeEvent(socketId) {
      try {
        const used = await events.consume(socketId);
        return used.consumedPoints > limits.eventsPerWindow ? 'refuse' : 'ok';
      } catch {
        return 'drop';
      }
    },
    forget(socketId) {
      void events.delete(socketId);
    },
  };
}
