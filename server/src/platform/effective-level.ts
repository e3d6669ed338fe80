import { type AccessLevel, DEMO_USER_ID, isAccessLevel } from '@guildhall/common';
import type { Db } from '../db/index.ts';
import type { UsersTable } from '../db/schema.ts';
import { countRealAdmins } from '../features/users/repo.ts';

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
