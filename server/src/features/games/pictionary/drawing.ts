import type { DrawLogEntry, PictionaryDrawItem } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import * as repo from './repo.ts';

type LogRow = Awaited<ReturnType<typeof repo.findDrawLog>>[number];

/**
 * Stored rows → the log the shared rules read (common/src/games/pictionary-drawing.ts). A row without a
 * stroke id (a batch sent without one, or stored before migration 045) is a stroke of its own, named by its
 * `seq`: always above the ids a drawer's screen may use, so the two never meet.
 */
export function logEntries(rows: readonly LogRow[]): DrawLogEntry[] {
  return rows.map((r) => {
    const strokeId = r.stroke_id ?? r.seq;
    if (r.kind === 'undo') return { kind: 'undo', strokeId };
    if (r.kind === 'clear') return { kind: 'clear' };
    return { kind: r.kind, strokeId, items: JSON.parse(r.segments) as PictionaryDrawItem[] };
  });
}

export async function readDrawLog(db: Db, gameId: string, turn: number, withSegments: boolean) {
  return logEntries(await repo.findDrawLog(db, gameId, turn, withSegments));
}
