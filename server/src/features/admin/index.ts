/** What other features may use of the admin feature. */
import type { AuditAction } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { nowIso } from '../../platform/time.ts';
import { auditId, insertAuditEntry } from './repo.ts';

export { adminRoutes } from './routes.ts';

type AuditValue = string | number | boolean | null;

/**
 * Writes one entry of the admin audit trail for something a member did (e.g. an OSINT search):
 * who, what, and the details as the entry's "after" fields.
 */
export async function recordActivity(
  db: Db,
  entry: {
    actor: { id: string; username: string };
    action: AuditAction;
    target: { id: string; name: string };
    details: Record<string, AuditValue>;
  },
): Promise<void> {
  await insertAuditEntry(db, {
    id: auditId(),
    at: nowIso(),
    actor: entry.actor.id,
    actor_name: entry.actor.username,
    action: entry.action,
    target_id: entry.target.id,
    target_name: entry.target.name,
    before: null,
    after: JSON.stringify(entry.details),
  });
}
