import {
  isAccessLevel,
  ROLE_SYNC_PROBLEMS,
  type RoleSyncProblemCode,
  type RoleSyncState,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import type { RolesConfig } from './config.ts';
import { listHeld, listPinned } from './repo.ts';
import { loadSettings } from './service.ts';

/** Everything the admin panel shows of the sync: settings in force, the problem banner, held changes, pins. */
export async function presentState(db: Db, config: RolesConfig): Promise<RoleSyncState> {
  const { row, settings } = await loadSettings(db, config);
  const code = row?.problem_code;
  const isKnownCode = (c: unknown): c is RoleSyncProblemCode =>
    (ROLE_SYNC_PROBLEMS as readonly unknown[]).includes(c);
  return {
    settings,
    guildName: row?.guild_name ?? null,
    status: {
      // A problem recorded before the sync was switched off no longer holds anything back.
      problem:
        settings.enabled && isKnownCode(code) && row?.problem_since
          ? { code, message: row.problem_message ?? '', since: row.problem_since }
          : null,
      lastRunAt: row?.last_run_at ?? null,
      paused: row?.paused === 1,
      memberEvents: !config.memberEvents ? 'off' : code === 'MEMBER_INTENT_DISALLOWED' ? 'refused' : 'on',
    },
    held: (await listHeld(db)).map((h) => ({
      discordId: h.discord_id,
      username: h.username,
      fromLevel: isAccessLevel(h.from_level) ? h.from_level : 'viewer',
      fromApproved: h.from_approved === 1,
      toLevel: isAccessLevel(h.to_level) ? h.to_level : 'viewer',
      toApproved: h.to_approved === 1,
      reason: h.reason,
      heldAt: h.held_at,
    })),
    pinned: (await listPinned(db)).map((p) => ({ discordId: p.discord_id, username: p.username })),
  };
}
