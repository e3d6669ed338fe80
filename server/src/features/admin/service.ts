import {
  ADMIN_TEXTS,
  type AuditAction,
  type AuditEntry,
  DEMO_USER_ID,
  TEXTS,
  type UserCreateInput,
  type UserUpdateInput,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { fail } from '../../platform/errors.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { wallNowIso } from '../../platform/time.ts';
import type { UsersTable } from '../users/index.ts';
import {
  countRealAdmins,
  deleteUser,
  findUserById,
  findUserByUsername,
  insertUser,
  listAllUsers,
  type UserChanges,
  updateUser as updateUserRow,
} from '../users/index.ts';
import { presentAuditEntry, snapshotUser, type UserSnapshot } from './present.ts';
import { auditId, insertAuditEntry, listRecentAudit } from './repo.ts';

/** Who makes a change: a signed-in admin, or the host's command line. */
export type Actor = { kind: 'user'; id: string; username: string } | { kind: 'cli' };

export const CLI_ACTOR: Actor = { kind: 'cli' };

export async function listUsers(db: Db): Promise<UsersTable[]> {
  return listAllUsers(db);
}

export async function listAudit(db: Db, limit: number): Promise<AuditEntry[]> {
  return (await listRecentAudit(db, limit)).map(presentAuditEntry);
}

/** Adds a user (approved unless told otherwise). The id and the username (ignoring case) must be new. */
export async function createUser(db: Db, actor: Actor, input: UserCreateInput): Promise<UsersTable> {
  return db.transaction().execute(async (trx) => {
    if ((await findUserById(trx, input.discord_id)) || (await findUserByUsername(trx, input.username))) {
      throw fail('DUPLICATE_USER', TEXTS.duplicateUser);
    }
    const now = wallNowIso();
    const row: UsersTable = {
      discord_id: input.discord_id,
      username: input.username,
      discriminator: input.discriminator ?? null,
      avatar: input.avatar ?? null,
      email: input.email ?? null,
      global_name: input.global_name ?? null,
      notes: input.notes ?? null,
      access_level: input.access_level,
      is_approved: input.is_approved ? 1 : 0,
      provider: 'discord',
      created_at: now,
      updated_at: now,
      last_login: null,
      server_nick: null,
      server_avatar_url: null,
    };
    await insertUser(trx, row);
    await recordChange(trx, actor, 'user.create', row, null, snapshotUser(row));
    return row;
  });
}

/**
 * Changes a user's fields. Approving lets them sign in on their next attempt; unapproving ends their
 * sessions at once; lowering takes effect on their next request (the access hook reads the row).
 */
export async function updateUser(
  db: Db,
  actor: Actor,
  id: string,
  input: UserUpdateInput,
): Promise<UsersTable> {
  return db.transaction().execute(async (trx) => {
    const before = await findUserById(trx, id);
    if (!before) throw fail('NOT_FOUND', ADMIN_TEXTS.userNotFound);
    if (input.discord_id !== undefined && input.discord_id !== id) {
      throw fail('ID_IMMUTABLE', ADMIN_TEXTS.idImmutable);
    }
    const changes = toChanges(input);
    if (changes.username !== undefined && changes.username.toLowerCase() !== before.username.toLowerCase()) {
      const clash = await findUserByUsername(trx, changes.username);
      if (clash && clash.discord_id !== id) throw fail('DUPLICATE_USER', TEXTS.duplicateUser);
    }
    const after: UsersTable = { ...before, ...changes };
    const isUnapproving = before.is_approved === 1 && after.is_approved !== 1;
    if (isUnapproving && isSelf(actor, id)) throw fail('CANNOT_REMOVE_SELF', TEXTS.cannotRemoveSelf);
    await assertCommunityKeepsAnAdmin(trx, before, after);

    const snapBefore = snapshotUser(before);
    const snapAfter = snapshotUser(after);
    if (JSON.stringify(snapBefore) === JSON.stringify(snapAfter)) return before;

    after.updated_at = wallNowIso();
    await updateUserRow(trx, id, { ...changes, updated_at: after.updated_at });
    if (isUnapproving) await revokeUserSessions(trx, id);
    await recordChange(trx, actor, 'user.update', after, snapBefore, snapAfter);
    return after;
  });
}

/** Removes a user and ends their sessions. A later Discord sign-in brings them back as pending. */
export async function removeUser(
  db: Db,
  actor: Actor,
  id: string,
): Promise<{ removed: UsersTable; sessionsEnded: number }> {
  return db.transaction().execute(async (trx) => {
    const row = await findUserById(trx, id);
    if (!row) throw fail('NOT_FOUND', ADMIN_TEXTS.userNotFound);
    if (isSelf(actor, id)) throw fail('CANNOT_REMOVE_SELF', TEXTS.cannotRemoveSelf);
    // The row would come back at the next start (bootstrap) and re-enable the code; unapproving sticks.
    if (id === DEMO_USER_ID) throw fail('DEMO_NOT_REMOVABLE', ADMIN_TEXTS.demoNotRemovable);
    await assertCommunityKeepsAnAdmin(trx, row, null);
    const sessionsEnded = await revokeUserSessions(trx, id);
    await deleteUser(trx, id);
    await recordChange(trx, actor, 'user.delete', row, snapshotUser(row), null);
    return { removed: row, sessionsEnded };
  });
}

/** Ends every live session of a user (they must sign in again); recorded as sessions n → 0. */
export async function revokeSessions(db: Db, actor: Actor, id: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await findUserById(trx, id);
    if (!row) throw fail('NOT_FOUND', ADMIN_TEXTS.userNotFound);
    const ended = await revokeUserSessions(trx, id);
    await recordChange(trx, actor, 'user.sessions_revoke', row, { sessions: ended }, { sessions: 0 });
    return ended;
  });
}

/**
 * No change may lock the community out:
 * - once a real (non-demo) approved admin exists, the last one cannot be removed, lowered or unapproved;
 * - in setup mode (no real admin) the access-code identity is the only admin, so it stays approved.
 * `after` is null for a removal.
 */
async function assertCommunityKeepsAnAdmin(
  db: Db,
  before: UsersTable,
  after: UsersTable | null,
): Promise<void> {
  const wasRealAdmin = isRealAdmin(before);
  if (wasRealAdmin && !(after && isRealAdmin(after)) && (await countRealAdmins(db)) <= 1) {
    throw fail('LAST_ADMIN', ADMIN_TEXTS.lastAdmin);
  }
  const isDisablingDemo =
    before.discord_id === DEMO_USER_ID && before.is_approved === 1 && after?.is_approved !== 1;
  if (isDisablingDemo && (await countRealAdmins(db)) === 0) {
    throw fail('SETUP_MODE_LOCKOUT', ADMIN_TEXTS.setupModeDemoLockout);
  }
}

function isRealAdmin(row: UsersTable): boolean {
  return row.discord_id !== DEMO_USER_ID && row.access_level === 'admin' && row.is_approved === 1;
}

function isSelf(actor: Actor, id: string): boolean {
  return actor.kind === 'user' && actor.id === id;
}

function toChanges(input: UserUpdateInput): UserChanges {
  const changes: UserChanges = {};
  if (input.username !== undefined) changes.username = input.username;
  if (input.access_level !== undefined) changes.access_level = input.access_level;
  if (input.is_approved !== undefined) changes.is_approved = input.is_approved ? 1 : 0;
  if (input.email !== undefined) changes.email = input.email;
  if (input.discriminator !== undefined) changes.discriminator = input.discriminator;
  if (input.avatar !== undefined) changes.avatar = input.avatar;
  if (input.global_name !== undefined) changes.global_name = input.global_name;
  if (input.notes !== undefined) changes.notes = input.notes;
  return changes;
}

async function recordChange(
  db: Db,
  actor: Actor,
  action: AuditAction,
  target: UsersTable,
  before: UserSnapshot | null,
  after: UserSnapshot | null,
): Promise<void> {
  await insertAuditEntry(db, {
    id: auditId(),
    at: wallNowIso(),
    actor: actor.kind === 'cli' ? 'cli' : actor.id,
    actor_name: actor.kind === 'cli' ? 'cli' : actor.username,
    action,
    target_id: target.discord_id,
    target_name: target.username,
    before: before ? JSON.stringify(before) : null,
    after: after ? JSON.stringify(after) : null,
  });
}

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
    at: wallNowIso(),
    actor: entry.actor.id,
    actor_name: entry.actor.username,
    action: entry.action,
    target_id: entry.target.id,
    target_name: entry.target.name,
    before: null,
    after: JSON.stringify(entry.details),
  });
}

/**
 * Writes one audit entry for a change the portal made by itself (Discord role sync): who acted (a
 * named system actor), on whom, and the fields before and after (the cause among them).
 */
export async function recordSystemChange(
  db: Db,
  entry: {
    actor: { id: string; name: string };
    action: AuditAction;
    target: { id: string; name: string };
    before: Record<string, AuditValue> | null;
    after: Record<string, AuditValue> | null;
  },
): Promise<void> {
  await insertAuditEntry(db, {
    id: auditId(),
    at: wallNowIso(),
    actor: entry.actor.id,
    actor_name: entry.actor.name,
    action: entry.action,
    target_id: entry.target.id,
    target_name: entry.target.name,
    before: entry.before ? JSON.stringify(entry.before) : null,
    after: entry.after ? JSON.stringify(entry.after) : null,
  });
}
