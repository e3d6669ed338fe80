import { DEMO_USER_ID, DEMO_USERNAME } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { Clock } from '../../platform/feature.ts';
import { isoOn } from '../../platform/time.ts';
import { findUserById, insertUserIfMissing, setLevelAndApproval } from './repo.ts';

/**
 * Ensures the demo identity exists (approved viewer by default) and that every id in
 * ADMIN_DISCORD_IDS is an approved admin. The username is a placeholder until their first sign-in.
 */
export async function bootstrapUsers(db: Db, adminIds: string[], clock: Clock): Promise<void> {
  const now = isoOn(clock);
  await insertUserIfMissing(
    db,
    {
      discord_id: DEMO_USER_ID,
      username: DEMO_USERNAME,
      access_level: 'viewer',
      is_approved: 1,
      provider: 'access_code',
    },
    now,
  );
  for (const id of adminIds) {
    const existing = await findUserById(db, id);
    if (!existing) {
      await insertUserIfMissing(
        db,
        {
          discord_id: id,
          username: `admin-${id.slice(-4)}`,
          access_level: 'admin',
          is_approved: 1,
          provider: 'discord',
        },
        now,
      );
    } else if (existing.access_level !== 'admin' || existing.is_approved !== 1) {
      await setLevelAndApproval(db, id, 'admin', true, now);
    }
  }
}
