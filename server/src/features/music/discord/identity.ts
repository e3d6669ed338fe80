import { type AccessLevel, hasLevel, TEXTS } from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { effectiveLevel, findUserById } from '../../users/index.ts';
import type { Caller } from '../service.ts';

export type Identity = { ok: true; caller: Caller } | { ok: false; message: string };

/**
 * The member behind an interaction, as the portal knows them: their Discord id is their portal identity.
 * Not approved (or unknown to the portal) and below the level are refused with the routes' own texts.
 * The level is read on every interaction, like the routes' access hook reads the user row per request.
 */
export async function identify(db: Db, discordId: string, access: 'login' | AccessLevel): Promise<Identity> {
  const user = await findUserById(db, discordId);
  if (user?.is_approved !== 1) return { ok: false, message: TEXTS.notApproved };
  const level = await effectiveLevel(db, user);
  if (access !== 'login' && !hasLevel(level, access)) {
    return { ok: false, message: TEXTS.insufficientLevel(access) };
  }
  return { ok: true, caller: { user, level } };
}
