import { type Mark, TICTACTOE_ABSENT_AFTER_MS } from '@guildhall/common';
import type { GameRow } from './repo.ts';

type Presence = Pick<GameRow, 'status' | 'player1_id' | 'player2_id' | 'player1_seen_at' | 'player2_seen_at'>;

/** Whether a player last seen at `seenAt` has left (no seat at all counts as left). */
export function isAbsent(seenAt: string | null, now: number): boolean {
  return seenAt === null || Date.parse(seenAt) < now - TICTACTOE_ABSENT_AFTER_MS;
}

/** How much longer a player last seen at `seenAt` must stay away before they count as left. */
export function msUntilAbsent(seenAt: string | null, now: number): number {
  return seenAt === null ? 0 : Math.max(0, Date.parse(seenAt) + TICTACTOE_ABSENT_AFTER_MS - now);
}

/**
 * The player of a game in progress who has left while the other stayed (whose opponent may claim the
 * win); null when both are there, or when neither is (nobody is there to claim).
 */
export function abandonedBy(row: Presence, now: number): Mark | null {
  if (row.status !== 'in_progress') return null;
  const xLeft = isAbsent(row.player1_seen_at, now);
  const oLeft = isAbsent(row.player2_seen_at, now);
  if (xLeft === oLeft) return null;
  return xLeft ? 'X' : 'O';
}

/**
 * The row with player `userId` seen at `at`: a row read before the request noted its player as seen still
 * shows them as there (anyone else gets the row unchanged).
 */
export function seenBy<R extends Presence>(row: R, userId: string, at: string): R {
  if (row.player1_id === userId) return { ...row, player1_seen_at: at };
  if (row.player2_id === userId) return { ...row, player2_seen_at: at };
  return row;
}
