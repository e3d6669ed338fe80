import type { AuditEntry } from '@guildhall/common';
import type { UsersTable } from '../users/index.ts';
import type { AdminAuditTable } from './tables.ts';

type AuditValue = string | number | boolean | null;
/** The fields of a user the audit trail records (what an admin can change). */
export type UserSnapshot = Record<string, AuditValue>;

const AUDITED_FIELDS = [
  'username',
  'access_level',
  'is_approved',
  'email',
  'discriminator',
  'avatar',
  'global_name',
  'notes',
] as const;

export function snapshotUser(row: UsersTable): UserSnapshot {
  const snap: UserSnapshot = {};
  for (const f of AUDITED_FIELDS) snap[f] = f === 'is_approved' ? row.is_approved === 1 : row[f];
  return snap;
}

/** before → after for every field that differs (a missing snapshot counts as all-null). */
export function diffSnapshots(
  before: UserSnapshot | null,
  after: UserSnapshot | null,
): AuditEntry['changes'] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: AuditEntry['changes'] = [];
  for (const field of fields) {
    const b = before?.[field] ?? null;
    const a = after?.[field] ?? null;
    if (b !== a) changes.push({ field, before: b, after: a });
  }
  return changes;
}

/** Audit row → API shape: the stored snapshots become a list of changed fields. */
export function presentAuditEntry(row: AdminAuditTable): AuditEntry {
  const parse = (json: string | null): UserSnapshot | null =>
    json ? (JSON.parse(json) as UserSnapshot) : null;
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    actor_name: row.actor_name,
    action: row.action,
    target_id: row.target_id,
    target_name: row.target_name,
    changes: diffSnapshots(parse(row.before), parse(row.after)),
  };
}
