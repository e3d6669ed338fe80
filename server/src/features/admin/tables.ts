import type { AuditAction } from '@guildhall/common';

/** Tables of the admin feature; joined into `Database` in db/schema.ts. */
export type AdminAuditTable = {
  id: string;
  at: string;
  /** The acting user's Discord id, or "cli" for the host's command line. */
  actor: string;
  actor_name: string;
  action: AuditAction;
  target_id: string;
  target_name: string;
  /** JSON snapshot of the user before the change (null on create). */
  before: string | null;
  /** JSON snapshot of the user after the change (null on delete). */
  after: string | null;
};

export type AdminTables = { admin_audit: AdminAuditTable };
