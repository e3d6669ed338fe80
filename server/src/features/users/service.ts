import { type AccessLevel, DEMO_USER_ID, hasLevel, isAccessLevel } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { AuthContext } from '../../platform/access.ts';
import { fail } from '../../platform/errors.ts';
import { countRealAdmins, findUserById, listApprovedUsers } from './repo.ts';
import type { UsersTable } from './tables.ts';

/** True while no approved admin other than the demo identity exists (setup mode). */
export async function isSetupMode(db: Db): Promise<boolean> {
  return (await countRealAdmins(db)) === 0;
}

/** The level a user acts with: their row's level, except the demo identity is admin in setup mode. */
export async function effectiveLevel(db: Db, user: UsersTable): Promise<AccessLevel> {
  const stored = isAccessLevel(user.access_level) ? user.access_level : 'viewer';
  if (user.discord_id === DEMO_USER_ID && (await isSetupMode(db))) return 'admin';
  return stored;
}

export { listApprovedUsers };

/** What anyone signed in may learn about an id: approval and level; the full record only for yourself or an admin. */
export async function checkUser(db: Db, viewer: AuthContext, id: string) {
  const row = await findUserById(db, id);
  const maySee = !!row && (row.discord_id === viewer.user.discord_id || hasLevel(viewer.level, 'admin'));
  const level = row ? await effectiveLevel(db, row) : null;
  return {
    isApproved: row?.is_approved === 1,
    level: row?.is_approved === 1 ? level : null,
    visible: maySee && row && level ? { row, level } : null,
  };
}

/** Your own record, or anyone's for an admin. */
export async function viewUser(
  db: Db,
  viewer: AuthContext,
  id: string,
): Promise<{ row: UsersTable; level: AccessLevel }> {
  if (id !== viewer.user.discord_id && !hasLevel(viewer.level, 'admin')) {
    throw fail('FORBIDDEN', 'You can only view your own account');
  }
  const row = await findUserById(db, id);
  if (!row) throw fail('NOT_FOUND', 'User not found');
  return { row, level: await effectiveLevel(db, row) };
}
