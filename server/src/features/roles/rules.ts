import { type AccessLevel, levelRank, type RoleSyncSettings } from '@guildhall/common';

/** What the sync keeps about one member's access: the users row's two fields and its own bookkeeping. */
export type MemberAccess = {
  approved: boolean;
  level: AccessLevel;
  /** The mapped role that gave the level (null: no role did, e.g. an admin approved them by hand). */
  levelRoleId: string | null;
  /** The sync took access away (left the server, deny role, refused): coming back restores it. */
  revokedBySync: boolean;
  /** The level they had when the sync took access away. */
  priorLevel: AccessLevel | null;
};

export type RoleNames = Record<string, { name: string; color: number }>;

/** `refused`: the roles (a deny role, or none under the "refused" policy) keep them out. */
export type Decision = { next: MemberAccess; reason: string; refused?: boolean };

const nameOf = (names: RoleNames, id: string) => names[id]?.name ?? `#${id}`;

/**
 * A member's access from their FULL current role list (null: not in the server), never from a diff:
 * a deny role refuses; otherwise the highest mapped role wins; a member with no mapped role follows the
 * no-role policy. Under "pending", a member approved by hand (no role gave their level) is left as the
 * admin set them; one whose level came from a role goes back to pending when the role goes.
 */
export function decide(
  settings: Pick<RoleSyncSettings, 'roleLevels' | 'denyRoles' | 'noRole'>,
  roles: string[] | null,
  now: MemberAccess,
  names: RoleNames,
): Decision {
  const keep = (reason: string): Decision => ({ next: now, reason });
  const revoke = (reason: string): Decision =>
    now.approved
      ? {
          next: { ...now, approved: false, levelRoleId: null, revokedBySync: true, priorLevel: now.level },
          reason,
        }
      : keep(reason);

  if (roles === null) return revoke('left the Discord server');
  const deny = settings.denyRoles.find((r) => roles.includes(r));
  if (deny) return { ...revoke(`has the deny role ${nameOf(names, deny)} in Discord`), refused: true };

  let best: { roleId: string; level: AccessLevel } | null = null;
  for (const m of settings.roleLevels) {
    if (roles.includes(m.roleId) && (!best || levelRank(m.level) > levelRank(best.level))) best = m;
  }
  const lost = now.levelRoleId && now.levelRoleId !== best?.roleId ? now.levelRoleId : null;
  const lostText = lost
    ? roles.includes(lost)
      ? `role ${nameOf(names, lost)} no longer mapped`
      : `role ${nameOf(names, lost)} removed in Discord`
    : null;

  if (best) {
    const gives = `role ${nameOf(names, best.roleId)} in Discord gives ${best.level}`;
    return {
      next: {
        approved: true,
        level: best.level,
        levelRoleId: best.roleId,
        revokedBySync: false,
        priorLevel: null,
      },
      reason: lostText ? `${lostText}; ${gives}` : gives,
    };
  }
  const why = lostText ?? 'no mapped role in Discord';
  if (settings.noRole === 'viewer') {
    return {
      next: { approved: true, level: 'viewer', levelRoleId: null, revokedBySync: false, priorLevel: null },
      reason: why,
    };
  }
  if (settings.noRole === 'refused') {
    return { ...revoke(why), refused: true };
  }
  // pending
  if (lost) {
    return {
      next: { approved: false, level: 'viewer', levelRoleId: null, revokedBySync: false, priorLevel: null },
      reason: why,
    };
  }
  if (now.revokedBySync) {
    return {
      next: {
        approved: true,
        level: now.priorLevel ?? now.level,
        levelRoleId: null,
        revokedBySync: false,
        priorLevel: null,
      },
      reason: 'back in the Discord server',
    };
  }
  return keep(why);
}

/** Lower level, or access taken away: what the brake counts. */
export function isDemotion(before: MemberAccess, after: MemberAccess): boolean {
  if (!before.approved) return false;
  return !after.approved || levelRank(after.level) < levelRank(before.level);
}

/** The users row changes (level or approval), not only the sync's bookkeeping. */
export function changesAccess(before: MemberAccess, after: MemberAccess): boolean {
  return before.approved !== after.approved || before.level !== after.level;
}

export function sameAccess(a: MemberAccess, b: MemberAccess): boolean {
  return (
    a.approved === b.approved &&
    a.level === b.level &&
    a.levelRoleId === b.levelRoleId &&
    a.revokedBySync === b.revokedBySync &&
    a.priorLevel === b.priorLevel
  );
}
