import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import type { AdminAuditTable } from './tables.ts';

let lastMs = 0;

/**
 * A text id that sorts in creation order: milliseconds (bumped so ids from one process never tie)
 * plus randomness so two processes (server and CLI) never collide.
 */
export function auditId(): string {
  lastMs = Math.max(Date.now(), lastMs + 1);
  return `${lastMs.toString(36).padStart(10, '0')}${randomBytes(5).toString('hex')}`;
}

export async function insertAuditEntry(db: Db, row: AdminAuditTable): Promise<void> {
  await db.insertInto('admin_audit').values(row).execute();
}

/** The most recent entries first. */
export async function listRecentAudit(db: Db, limit: number): Promise<AdminAuditTable[]> {
  return db.selectFrom('admin_audit').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
