import {
  type AccessLevel,
  type DiscordRole,
  LEVEL_LABELS,
  type NoRolePolicy,
  ROLE_SYNC_BRAKE_MAX,
  ROLE_SYNC_INTERVAL_MAX_SECONDS,
  ROLE_SYNC_INTERVAL_MIN_SECONDS,
  type RoleLevel,
  type RoleSyncSettings,
  type RoleSyncSettingsBody,
} from '@guildhall/common';

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

/**
 * The card's form: the settings as the admin is editing them, saved together with one Save (a saved
 * mapping is applied to every member at once, so each pick must not be a save of its own). The two
 * numbers stay text until saved, so a half-typed value can be shown and refused.
 */
export type RoleSyncDraft = {
  enabled: boolean;
  noRole: NoRolePolicy;
  roleLevels: RoleLevel[];
  denyRoles: string[];
  demotionBrake: string;
  intervalSeconds: string;
};

export function draftOf(settings: RoleSyncSettings): RoleSyncDraft {
  return {
    enabled: settings.enabled,
    noRole: settings.noRole,
    roleLevels: settings.roleLevels,
    denyRoles: settings.denyRoles,
    demotionBrake: String(settings.demotionBrake),
    intervalSeconds: String(settings.intervalSeconds),
  };
}

export const ROLE_SYNC_FORM_TEXTS = {
  brake: `The demotion brake must be a whole number from 0 to ${ROLE_SYNC_BRAKE_MAX}.`,
  interval: `The re-check interval must be whole seconds from ${ROLE_SYNC_INTERVAL_MIN_SECONDS} to ${ROLE_SYNC_INTERVAL_MAX_SECONDS}.`,
} as const;

/** A whole number within [min, max] typed in a field, or null. */
function wholeNumber(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= min && n <= max ? n : null;
}

const sameMapping = (a: RoleLevel[], b: RoleLevel[]) =>
  a.length === b.length && a.every((m) => b.some((o) => o.roleId === m.roleId && o.level === m.level));
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * What saving the draft sends: only the settings that differ from those in force (an empty body: nothing
 * to save), or the problem that keeps it from being saved.
 */
export function changesOf(
  draft: RoleSyncDraft,
  settings: RoleSyncSettings,
): { body: RoleSyncSettingsBody } | { problem: string } {
  const brake = wholeNumber(draft.demotionBrake, 0, ROLE_SYNC_BRAKE_MAX);
  if (brake === null) return { problem: ROLE_SYNC_FORM_TEXTS.brake };
  const interval = wholeNumber(
    draft.intervalSeconds,
    ROLE_SYNC_INTERVAL_MIN_SECONDS,
    ROLE_SYNC_INTERVAL_MAX_SECONDS,
  );
  if (interval === null) return { problem: ROLE_SYNC_FORM_TEXTS.interval };
  const body: RoleSyncSettingsBody = {};
  if (draft.enabled !== settings.enabled) body.enabled = draft.enabled;
  if (draft.noRole !== settings.noRole) body.noRole = draft.noRole;
  if (!sameMapping(draft.roleLevels, settings.roleLevels)) body.roleLevels = draft.roleLevels;
  if (!sameSet(draft.denyRoles, settings.denyRoles)) body.denyRoles = draft.denyRoles;
  if (brake !== settings.demotionBrake) body.demotionBrake = brake;
  if (interval !== settings.intervalSeconds) body.intervalSeconds = interval;
  return { body };
}

/** "10 min", "1 h 30 min", "45 s": the interval in the units an admin thinks in. */
export function formatInterval(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h && `${h} h`, min && `${min} min`, s && `${s} s`].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : '0 s';
}

/** The held preview's heading: how many demotions wait, with the threshold they crossed. */
export function heldTitle(count: number, brake: number): string {
  const what = count === 1 ? '1 demotion is' : `${count} demotions are`;
  return `${what} held for your confirmation: the sync would demote more than ${brake} at once.`;
}

/** A member's access in a held change: the level's label, or "No access" when not approved. */
export function accessLabel(level: AccessLevel, approved: boolean): string {
  return approved ? LEVEL_LABELS[level] : 'No access';
}

/** One row of the role list: a role of the server, or one still mapped that the server no longer has. */
export type RoleRow = { id: string; name: string; color: number; managed: boolean; isGone: boolean };

/**
 * The roles to map, as the bot lists them (highest first), then any role the settings still map or deny
 * that the server no longer has, so the admin can see and clear it.
 */
export function roleRows(roles: DiscordRole[], roleLevels: RoleLevel[], denyRoles: string[]): RoleRow[] {
  const rows: RoleRow[] = roles.map((r) => ({
    id: r.id,
    name: r.name,
    color: r.color,
    managed: r.managed,
    isGone: false,
  }));
  const known = new Set(roles.map((r) => r.id));
  const gone = [...new Set([...roleLevels.map((m) => m.roleId), ...denyRoles])].filter(
    (id) => !known.has(id),
  );
  return [...rows, ...gone.map((id) => ({ id, name: `Role ${id}`, color: 0, managed: false, isGone: true }))];
}
