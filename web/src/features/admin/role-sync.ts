import type { AccessLevel, RoleLevel } from '@guildhall/common';

/** What the panel's select says a role does: a level, "deny", or nothing. */
export type RoleChoice = AccessLevel | 'deny' | '';

export function choiceOf(roleId: string, roleLevels: RoleLevel[], denyRoles: string[]): RoleChoice {
  if (denyRoles.includes(roleId)) return 'deny';
  return roleLevels.find((m) => m.roleId === roleId)?.level ?? '';
}

/** The mapping and deny list after choosing `choice` for one role (each role in at most one of them). */
export function withChoice(
  roleId: string,
  choice: RoleChoice,
  roleLevels: RoleLevel[],
  denyRoles: string[],
): { roleLevels: RoleLevel[]; denyRoles: string[] } {
  const levels = roleLevels.filter((m) => m.roleId !== roleId);
  const deny = denyRoles.filter((r) => r !== roleId);
  if (choice === 'deny') return { roleLevels: levels, denyRoles: [...deny, roleId] };
  if (choice === '') return { roleLevels: levels, denyRoles: deny };
  return { roleLevels: [...levels, { roleId, level: choice }], denyRoles: deny };
}
