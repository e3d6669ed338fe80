import {
  type AccessLevel,
  DEMO_USER_ID,
  guildAvatarUrl,
  isAccessLevel,
  NO_ROLE_POLICIES,
  type NoRolePolicy,
  ROLE_SYNC_TEXTS,
  type RoleLevel,
  type RoleSyncSettings,
  type RoleSyncSettingsBody,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { fail } from '../../platform/errors.ts';
import type { Clock } from '../../platform/feature.ts';
import type { FeatureRealtime } from '../../platform/realtime/index.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { isoOn } from '../../platform/time.ts';
import { recordSystemChange } from '../admin/index.ts';
import {
  clearServerFaces,
  countRealAdmins,
  findUserById,
  type UsersTable,
  updateUser,
} from '../users/index.ts';
import type { RolesConfig } from './config.ts';
import {
  createGuildReader,
  type GuildReader,
  isProblem,
  type LookupProblem,
  type ServerProfile,
} from './discord.ts';
import {
  clearHeld,
  deleteHeld,
  findMemberRow,
  findSettingsRow,
  listHeld,
  listLinkedMembers,
  updateSettingsRow,
  upsertHeld,
  upsertMemberRow,
} from './repo.ts';
import { changesAccess, decide, isDemotion, type MemberAccess, type RoleNames, sameAccess } from './rules.ts';
import type { RoleSyncMembersTable, RoleSyncSettingsTable } from './tables.ts';

/** The audit trail's actor for changes the sync makes by itself. */
export const SYNC_ACTOR = { id: 'discord-roles', name: 'Discord role sync' };

/** Who asks for a change through the admin API. */
export type AdminActor = { id: string; username: string };

/**
 * What a change does besides the database, at once, on every instance: the member's realtime sockets hear of
 * it (their next request reads the users row anyway).
 */
export type Effects = {
  /** Access taken away (their sessions are revoked too): the sockets close and the browser signs out. */
  disconnect: (userId: string) => void;
  /** The level changed and access stays (up, down, or back after a rejoin): the sockets close and reconnect at it. */
  levelChanged: (userId: string) => void;
  now: () => string;
};

/** The effects through the platform's realtime hub, on the feature's clock. */
export function effectsOf(
  realtime: Pick<FeatureRealtime, 'disconnectUser' | 'accessChanged'>,
  clock: Clock,
): Effects {
  return {
    disconnect: (id) => realtime.disconnectUser(id),
    levelChanged: (id) => realtime.accessChanged(id),
    now: () => isoOn(clock),
  };
}

const parse = <T>(json: string | null | undefined, fallback: T): T => {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

/** The settings in force: what an admin saved, each unset one at its env default. */
export function effectiveSettings(
  row: RoleSyncSettingsTable | undefined,
  config: RolesConfig,
): RoleSyncSettings {
  const d = config.defaults;
  const noRole =
    row?.no_role && (NO_ROLE_POLICIES as readonly string[]).includes(row.no_role) ? row.no_role : null;
  return {
    enabled: row?.enabled === null || row?.enabled === undefined ? d.enabled : row.enabled === 1,
    guildId: row?.guild_id ?? d.guildId,
    roleLevels: parse<RoleLevel[]>(row?.role_levels, []).filter((m) => isAccessLevel(m.level)),
    noRole: (noRole as NoRolePolicy | null) ?? d.noRole,
    denyRoles: parse<string[]>(row?.deny_roles, []),
    demotionBrake: row?.demotion_brake ?? d.demotionBrake,
    intervalSeconds: row?.interval_seconds ?? d.intervalSeconds,
  };
}

export async function loadSettings(db: Db, config: RolesConfig) {
  const row = await findSettingsRow(db);
  return { row, settings: effectiveSettings(row, config), names: parse<RoleNames>(row?.role_names, {}) };
}

/** The sync can look: it is on, the bot has a token and the server is known. */
export function canLook(
  settings: RoleSyncSettings,
  config: RolesConfig,
): settings is RoleSyncSettings & { guildId: string } {
  return settings.enabled && Boolean(config.botToken) && settings.guildId !== null;
}

export function readerFor(config: RolesConfig): GuildReader {
  return createGuildReader({ token: config.botToken ?? '', apiUrl: config.apiUrl });
}

/** ADMIN_DISCORD_IDS admins, members an admin pinned and the access-code identity: the sync never changes them. */
export function isExempt(
  config: RolesConfig,
  user: UsersTable,
  sync: RoleSyncMembersTable | null | undefined,
) {
  return (
    user.discord_id === DEMO_USER_ID || config.adminDiscordIds.includes(user.discord_id) || sync?.pinned === 1
  );
}

export function accessOf(user: UsersTable, sync: RoleSyncMembersTable | null | undefined): MemberAccess {
  return {
    approved: user.is_approved === 1,
    level: isAccessLevel(user.access_level) ? user.access_level : 'viewer',
    levelRoleId: sync?.level_role_id ?? null,
    revokedBySync: sync?.revoked_by_sync === 1,
    priorLevel: sync?.prior_level ?? null,
  };
}

/** Sets the banner's problem (keeping its start when it goes on), or clears it with null. */
export async function recordProblem(db: Db, problem: LookupProblem | null, now: string): Promise<void> {
  const row = await findSettingsRow(db);
  if (!problem) {
    if (row?.problem_code)
      await updateSettingsRow(db, { problem_code: null, problem_message: null, problem_since: null }, now);
    return;
  }
  const since = row?.problem_code === problem.code && row.problem_since ? row.problem_since : now;
  await updateSettingsRow(
    db,
    { problem_code: problem.code, problem_message: problem.message, problem_since: since },
    now,
  );
}

/**
 * Applies one member's new access: the users row, the sync's bookkeeping, an audit entry with the cause,
 * and, when access is taken away, their sessions. Never lowers the last real admin (the community keeps a
 * way in). Returns whether the access changed.
 */
export async function applyAccess(
  db: Db,
  user: UsersTable,
  before: MemberAccess,
  next: MemberAccess,
  reason: string,
  effects: Effects,
): Promise<boolean> {
  const lowersAdmin =
    before.approved && before.level === 'admin' && (!next.approved || next.level !== 'admin');
  if (lowersAdmin && (await countRealAdmins(db)) <= 1) return false;
  const isAccessChange = changesAccess(before, next);
  await db.transaction().execute(async (trx) => {
    if (isAccessChange) {
      await updateUser(trx, user.discord_id, {
        access_level: next.level,
        is_approved: next.approved ? 1 : 0,
        updated_at: effects.now(),
      });
      await recordSystemChange(trx, {
        actor: SYNC_ACTOR,
        action: 'user.role_sync',
        target: { id: user.discord_id, name: user.username },
        before: { access_level: before.level, is_approved: before.approved, cause: null },
        after: { access_level: next.level, is_approved: next.approved, cause: reason },
      });
    }
    await upsertMemberRow(trx, user.discord_id, {
      level_role_id: next.levelRoleId,
      revoked_by_sync: next.revokedBySync ? 1 : 0,
      prior_level: next.priorLevel,
    });
    if (before.approved && !next.approved) await revokeUserSessions(trx, user.discord_id);
  });
  if (before.approved && !next.approved) effects.disconnect(user.discord_id);
  else if (isAccessChange) effects.levelChanged(user.discord_id);
  return isAccessChange;
}

/**
 * One member as a run (or an event) saw them: roles null = not in the server; profile their server
 * nickname and avatar when the look told them.
 */
export type Looked = {
  user: UsersTable;
  sync: RoleSyncMembersTable | null;
  roles: string[] | null;
  profile?: ServerProfile;
};

/**
 * Applies one run's verdicts under the demotion brake: when more members would be demoted than the
 * threshold (or a hold is already waiting), every demotion is held for an admin with its preview and
 * only the other changes go through.
 */
export async function applyRun(
  db: Db,
  config: RolesConfig,
  settings: RoleSyncSettings,
  names: RoleNames,
  looked: Looked[],
  effects: Effects,
  causePrefix = '',
): Promise<{ changed: number; held: number }> {
  const plans = looked
    .filter((l) => !isExempt(config, l.user, l.sync))
    .map((l) => {
      const before = accessOf(l.user, l.sync);
      return { l, before, decision: decide(settings, l.roles, before, names) };
    });
  const demotions = plans.filter((p) => isDemotion(p.before, p.decision.next)).length;
  const heldNow = new Map((await listHeld(db)).map((h) => [h.discord_id, h]));
  const holdAll = demotions > settings.demotionBrake || heldNow.size > 0;
  let changed = 0;
  let held = 0;
  for (const { l, before, decision } of plans) {
    const reason = causePrefix + decision.reason;
    if (holdAll && isDemotion(before, decision.next)) {
      const n = decision.next;
      const h = heldNow.get(l.user.discord_id);
      // The same change is already waiting: its preview (and the cause it gave) stays as the admin saw it.
      const isSameChange =
        h?.from_level === before.level &&
        h.from_approved === (before.approved ? 1 : 0) &&
        h.to_level === n.level &&
        h.to_approved === (n.approved ? 1 : 0);
      if (isSameChange) {
        held += 1;
        continue;
      }
      await upsertHeld(db, {
        discord_id: l.user.discord_id,
        from_level: before.level,
        from_approved: before.approved ? 1 : 0,
        to_level: n.level,
        to_approved: n.approved ? 1 : 0,
        level_role_id: n.levelRoleId,
        revoked_by_sync: n.revokedBySync ? 1 : 0,
        reason,
        held_at: effects.now(),
      });
      held += 1;
      continue;
    }
    await deleteHeld(db, l.user.discord_id);
    if (
      !sameAccess(before, decision.next) &&
      (await applyAccess(db, l.user, before, decision.next, reason, effects))
    ) {
      changed += 1;
    }
  }
  return { changed, held };
}

/**
 * Stores what a look found: the member's full role list and server profile, or that they are not in the
 * server (which also forgets the profile).
 */
export async function rememberRoles(
  db: Db,
  userId: string,
  roles: string[] | null,
  now: string,
  profile: ServerProfile | undefined,
  guildId: string | null,
): Promise<void> {
  const seen = roles === null ? { nick: null, avatar: null } : profile;
  const nick = seen?.nick?.slice(0, 64) ?? null;
  const avatar = seen?.avatar?.slice(0, 64) ?? null;
  await upsertMemberRow(db, userId, {
    roles: roles ? JSON.stringify(roles) : null,
    in_guild: roles ? 1 : 0,
    checked_at: now,
    ...(seen ? { nick, avatar } : {}),
  });
  // The face everyone sees (navigation, lists, players, requesters) is kept on the users row.
  if (seen) {
    await updateUser(db, userId, {
      server_nick: nick,
      server_avatar_url: avatar && guildId ? guildAvatarUrl(guildId, userId, avatar) : null,
    });
  }
}

export type SignInVerdict =
  | { user: UsersTable }
  | { refusal: { code: 'NOT_GUILD_MEMBER' | 'ROLE_REFUSED'; message: string } };

/**
 * The sign-in look (issue 43): with the sync on, the bot looks the member up. Not in the server: refused
 * with the server's name. Mapped role: approved at that level at once. A Discord failure changes nothing
 * and the usual flow decides (an approved member still signs in); the admins see the problem.
 */
export async function checkAtSignIn(
  db: Db,
  config: RolesConfig,
  user: UsersTable,
  effects: Effects,
): Promise<SignInVerdict> {
  const { row, settings, names } = await loadSettings(db, config);
  if (!canLook(settings, config)) return { user };
  const sync = await findMemberRow(db, user.discord_id);
  if (isExempt(config, user, sync)) return { user };
  const reader = readerFor(config);
  const verdict = await reader.member(settings.guildId, user.discord_id);
  if (verdict.kind === 'unknown') {
    await recordProblem(db, verdict.problem, effects.now());
    return { user };
  }
  const roles = verdict.kind === 'member' ? verdict.roles : null;
  await rememberRoles(
    db,
    user.discord_id,
    roles,
    effects.now(),
    verdict.kind === 'member' ? verdict.profile : undefined,
    settings.guildId,
  );
  const before = accessOf(user, sync);
  const decision = decide(settings, roles, before, names);
  // A fresh look supersedes a held change of theirs; one member signing in is no mass demotion.
  await deleteHeld(db, user.discord_id);
  if (!sameAccess(before, decision.next))
    await applyAccess(db, user, before, decision.next, decision.reason, effects);
  if (roles === null) {
    return {
      refusal: {
        code: 'NOT_GUILD_MEMBER',
        message: ROLE_SYNC_TEXTS.notMember(await guildName(reader, settings.guildId, row)),
      },
    };
  }
  if (decision.refused) {
    return {
      refusal: {
        code: 'ROLE_REFUSED',
        message: ROLE_SYNC_TEXTS.refusedByRoles(await guildName(reader, settings.guildId, row)),
      },
    };
  }
  const fresh = await findUserById(db, user.discord_id);
  return { user: fresh ?? user };
}

async function guildName(
  reader: GuildReader,
  guildId: string,
  row: RoleSyncSettingsTable | undefined,
): Promise<string> {
  if (row?.guild_name) return row.guild_name;
  const info = await reader.guild(guildId);
  return isProblem(info) ? ROLE_SYNC_TEXTS.unknownGuild : info.name;
}

/** Saves what the bot saw of the server (its name, its roles' names and colours). */
export async function rememberGuild(
  db: Db,
  info: { name: string; roles: { id: string; name: string; color: number }[] },
  now: string,
): Promise<void> {
  const names: RoleNames = Object.fromEntries(
    info.roles.map((r) => [r.id, { name: r.name, color: r.color }]),
  );
  await updateSettingsRow(
    db,
    { guild_name: info.name.slice(0, 128), role_names: JSON.stringify(names) },
    now,
  );
}

/** The roles an admin maps, as the bot sees them; a failure is an error the panel shows. */
export async function listDiscordRoles(db: Db, config: RolesConfig, now: string) {
  const { settings } = await loadSettings(db, config);
  if (!config.botToken || !settings.guildId)
    throw fail('ROLE_SYNC_NOT_CONFIGURED', ROLE_SYNC_TEXTS.notConfigured);
  const info = await readerFor(config).guild(settings.guildId);
  if (isProblem(info)) throw fail('DISCORD_UNAVAILABLE', ROLE_SYNC_TEXTS.discordUnavailable(info.message));
  await rememberGuild(db, info, now);
  return info.roles;
}

/**
 * An admin's change of the settings. Saving also ends a pause (a discarded hold). With the sync on, a
 * changed mapping is applied at once to every member from their last known roles: one run, under the brake.
 */
export async function saveSettings(
  db: Db,
  config: RolesConfig,
  actor: AdminActor,
  body: RoleSyncSettingsBody,
  effects: Effects,
): Promise<void> {
  const before = (await loadSettings(db, config)).settings;
  const changes: Partial<RoleSyncSettingsTable> = { paused: 0 };
  if (body.enabled !== undefined) changes.enabled = body.enabled === null ? null : body.enabled ? 1 : 0;
  if (body.guildId !== undefined) changes.guild_id = body.guildId;
  if (body.roleLevels !== undefined) changes.role_levels = JSON.stringify(body.roleLevels);
  if (body.denyRoles !== undefined) changes.deny_roles = JSON.stringify(body.denyRoles);
  if (body.noRole !== undefined) changes.no_role = body.noRole;
  if (body.demotionBrake !== undefined) changes.demotion_brake = body.demotionBrake;
  if (body.intervalSeconds !== undefined) changes.interval_seconds = body.intervalSeconds;
  if (body.guildId !== undefined && body.guildId !== before.guildId) {
    // Another server: what the bot saw of the old one no longer names anything.
    changes.guild_name = null;
    changes.role_names = '{}';
  }
  await updateSettingsRow(db, changes, effects.now());
  const { settings, names } = await loadSettings(db, config);
  // Off, or another server: the old server's nicknames and avatars are nobody's face any more.
  if (!settings.enabled || settings.guildId !== before.guildId) await clearServerFaces(db);
  await recordSystemChange(db, {
    actor: { id: actor.id, name: actor.username },
    action: 'role_sync.settings',
    target: { id: 'role-sync', name: 'Role sync settings' },
    before: flatSettings(before),
    after: flatSettings(settings),
  });
  if (!canLook(settings, config)) return;
  const looked = (await listLinkedMembers(db))
    .filter((m) => m.sync && (m.sync.in_guild === 0 || m.sync.roles !== null))
    .map((m) => ({ ...m, roles: m.sync?.in_guild === 0 ? null : parse<string[]>(m.sync?.roles, []) }));
  await applyRun(db, config, settings, names, looked, effects, 'role mapping changed: ');
}

function flatSettings(s: RoleSyncSettings): Record<string, string | number | boolean | null> {
  return {
    enabled: s.enabled,
    guildId: s.guildId,
    roleLevels: s.roleLevels.map((m) => `${m.roleId}=${m.level}`).join(','),
    noRole: s.noRole,
    denyRoles: s.denyRoles.join(','),
    demotionBrake: s.demotionBrake,
    intervalSeconds: s.intervalSeconds,
  };
}

/** Applies the held changes whose member is still where the preview said; the rest are dropped. */
export async function confirmHeld(db: Db, actor: AdminActor, effects: Effects): Promise<number> {
  const held = await listHeld(db);
  if (held.length === 0) throw fail('NOTHING_HELD', ROLE_SYNC_TEXTS.nothingHeld);
  let applied = 0;
  for (const h of held) {
    const user = await findUserById(db, h.discord_id);
    if (!user) continue;
    const sync = await findMemberRow(db, h.discord_id);
    const before = accessOf(user, sync);
    if (before.approved !== (h.from_approved === 1) || before.level !== h.from_level) continue;
    const next: MemberAccess = {
      approved: h.to_approved === 1,
      level: h.to_level,
      levelRoleId: h.level_role_id,
      revokedBySync: h.revoked_by_sync === 1,
      priorLevel: h.revoked_by_sync === 1 ? h.from_level : null,
    };
    if (await applyAccess(db, user, before, next, `${h.reason} (confirmed by ${actor.username})`, effects))
      applied += 1;
  }
  await clearHeld(db);
  await recordHeldDecision(db, actor, 'confirmed', held.length, applied);
  return applied;
}

/** Drops the held changes and pauses the sync until an admin saves the settings again. */
export async function discardHeld(db: Db, actor: AdminActor, now: string): Promise<void> {
  const count = (await listHeld(db)).length;
  if (count === 0) throw fail('NOTHING_HELD', ROLE_SYNC_TEXTS.nothingHeld);
  await clearHeld(db);
  await updateSettingsRow(db, { paused: 1 }, now);
  await recordHeldDecision(db, actor, 'discarded', count, 0);
}

async function recordHeldDecision(
  db: Db,
  actor: AdminActor,
  decision: string,
  held: number,
  applied: number,
) {
  await recordSystemChange(db, {
    actor: { id: actor.id, name: actor.username },
    action: 'role_sync.held',
    target: { id: 'role-sync', name: 'Held role changes' },
    before: { held },
    after: { held: 0, decision, applied },
  });
}

/** Pins a member to the level an admin gave them (the sync never changes them), or lets the sync manage them again. */
export async function setPinned(db: Db, actor: AdminActor, id: string, isPinned: boolean): Promise<void> {
  const user = await findUserById(db, id);
  if (!user) throw fail('NOT_FOUND', 'User not found');
  const before = (await findMemberRow(db, id))?.pinned === 1;
  if (before === isPinned) return;
  await upsertMemberRow(db, id, { pinned: isPinned ? 1 : 0 });
  if (isPinned) await deleteHeld(db, id);
  await recordSystemChange(db, {
    actor: { id: actor.id, name: actor.username },
    action: 'user.role_sync',
    target: { id, name: user.username },
    before: { pinned: before },
    after: { pinned: isPinned },
  });
}

/**
 * What the member's settings page shows of the server (issue 43): the role that gave them their level,
 * with its name and colour (null when none did), and their server nickname and avatar (null while the
 * sync is off or they are not in the server).
 */
export async function myRoleSync(db: Db, config: RolesConfig, userId: string) {
  const user = await findUserById(db, userId);
  const sync = await findMemberRow(db, userId);
  const { row, settings, names } = await loadSettings(db, config);
  const role = sync?.level_role_id ? names[sync.level_role_id] : undefined;
  const source =
    user?.is_approved === 1 && sync?.level_role_id
      ? {
          roleId: sync.level_role_id,
          roleName: role?.name ?? `#${sync.level_role_id}`,
          roleColor: role?.color ?? 0,
          level: (isAccessLevel(user.access_level) ? user.access_level : 'viewer') as AccessLevel,
        }
      : null;
  const server =
    settings.enabled && settings.guildId && sync?.in_guild === 1
      ? {
          guildName: row?.guild_name ?? null,
          nick: sync.nick,
          avatarUrl: sync.avatar ? guildAvatarUrl(settings.guildId, userId, sync.avatar) : null,
        }
      : null;
  return { source, server };
}
