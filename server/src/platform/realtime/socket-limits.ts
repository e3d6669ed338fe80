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
};

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  maxSocketsPerUser: 10,
  handshakesPerWindow: 30,
  // Pictionary strokes at 20 batches a second stay well inside.
  eventsPerWindow: 300,
  windowSeconds: 10,
};

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
