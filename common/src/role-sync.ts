import { z } from 'zod';
import { ACCESS_LEVELS } from './levels.ts';

/**
 * Membership and levels from the Discord server's roles (issue 43): the admin API's shapes, the
 * defaults of the settings, and the texts members and admins see.
 */

/** What happens to a member of the server who has no mapped role. */
export const NO_ROLE_POLICIES = ['pending', 'viewer', 'refused'] as const;
export type NoRolePolicy = (typeof NO_ROLE_POLICIES)[number];

export const ROLE_SYNC_DEFAULTS = {
  noRole: 'pending' as NoRolePolicy,
  /** A run that would demote more members than this is held for an admin's confirmation. */
  demotionBrake: 5,
  /** Every linked member is re-checked within this many seconds. */
  intervalSeconds: 600,
};
export const ROLE_SYNC_INTERVAL_MIN_SECONDS = 10;
export const ROLE_SYNC_INTERVAL_MAX_SECONDS = 86_400;
export const ROLE_SYNC_BRAKE_MAX = 10_000;
/** Most role → level mappings and deny roles (a server has at most 250 roles). */
export const ROLE_SYNC_ROLES_MAX = 250;

const ROLE_SYNC_NOT_MEMBER_DETAIL = (guild: string) =>
  `your Discord account is not a member of ${guild}. Join it on Discord, then sign in again.`;

export const ROLE_SYNC_TEXTS = {
  /** The refusal a non-member gets at sign-in: the API's message, the page's heading and its text. */
  notMember: (guild: string) => `Join the server first: ${ROLE_SYNC_NOT_MEMBER_DETAIL(guild)}`,
  notMemberHeading: 'Join the server first',
  notMemberDetail: (guild: string) =>
    ROLE_SYNC_NOT_MEMBER_DETAIL(guild).replace(/^./, (c) => c.toUpperCase()),
  refusedByRoles: (guild: string) =>
    `Your roles on ${guild} do not give access to this portal. Ask the server's moderators.`,
  /** Used when the server's name is not known (the bot could not read it). */
  unknownGuild: "the community's Discord server",
  nothingHeld: 'There are no held role changes.',
  discordUnavailable: (why: string) => `Discord cannot be reached right now: ${why}`,
  notConfigured: 'Role sync needs DISCORD_BOT_TOKEN and a server id.',
} as const;

/** Why the sync could not look: shown to admins as a banner; while it lasts, no level changes. */
export const ROLE_SYNC_PROBLEMS = [
  'NOT_CONFIGURED',
  'MISSING_ACCESS',
  'UNKNOWN_GUILD',
  'RATE_LIMITED',
  'DISCORD_ERROR',
  'UNREACHABLE',
  'MEMBER_INTENT_DISALLOWED',
] as const;
export type RoleSyncProblemCode = (typeof ROLE_SYNC_PROBLEMS)[number];

const Snowflake = z
  .string({ error: 'must be a Discord id' })
  .regex(/^\d{17,20}$/, { error: 'must be a Discord id (17–20 digits)' });
const Level = z.enum(ACCESS_LEVELS, { error: `level must be one of ${ACCESS_LEVELS.join(', ')}` });

export const RoleLevel = z.object({ roleId: Snowflake, level: Level });
export type RoleLevel = z.infer<typeof RoleLevel>;

export const RoleSyncSettings = z.object({
  enabled: z.boolean(),
  guildId: z.string().nullable(),
  roleLevels: z.array(RoleLevel),
  noRole: z.enum(NO_ROLE_POLICIES),
  denyRoles: z.array(z.string()),
  demotionBrake: z.number().int(),
  intervalSeconds: z.number().int(),
});
export type RoleSyncSettings = z.infer<typeof RoleSyncSettings>;

/** An admin's change of the settings: any subset; `null` puts a setting back to its env default. */
export const RoleSyncSettingsBody = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false' }).nullable(),
    guildId: Snowflake.nullable(),
    roleLevels: z.array(RoleLevel).max(ROLE_SYNC_ROLES_MAX, { error: 'too many role mappings' }),
    noRole: z
      .enum(NO_ROLE_POLICIES, { error: `noRole must be one of ${NO_ROLE_POLICIES.join(', ')}` })
      .nullable(),
    denyRoles: z.array(Snowflake).max(ROLE_SYNC_ROLES_MAX, { error: 'too many deny roles' }),
    demotionBrake: z
      .number({ error: 'demotionBrake must be a number' })
      .int({ error: 'demotionBrake must be a whole number' })
      .min(0, { error: 'demotionBrake must be 0 or more' })
      .max(ROLE_SYNC_BRAKE_MAX, { error: `demotionBrake must be at most ${ROLE_SYNC_BRAKE_MAX}` })
      .nullable(),
    intervalSeconds: z
      .number({ error: 'intervalSeconds must be a number' })
      .int({ error: 'intervalSeconds must be whole seconds' })
      .min(ROLE_SYNC_INTERVAL_MIN_SECONDS, {
        error: `intervalSeconds must be at least ${ROLE_SYNC_INTERVAL_MIN_SECONDS}`,
      })
      .max(ROLE_SYNC_INTERVAL_MAX_SECONDS, {
        error: `intervalSeconds must be at most ${ROLE_SYNC_INTERVAL_MAX_SECONDS}`,
      })
      .nullable(),
  })
  .partial()
  .strict();
export type RoleSyncSettingsBody = z.infer<typeof RoleSyncSettingsBody>;

export const RoleSyncProblem = z.object({
  code: z.enum(ROLE_SYNC_PROBLEMS),
  message: z.string(),
  since: z.string(),
});
export type RoleSyncProblem = z.infer<typeof RoleSyncProblem>;

/** One change the brake held back: who, from which level to which, and why. */
export const HeldChange = z.object({
  discordId: z.string(),
  username: z.string(),
  fromLevel: z.enum(ACCESS_LEVELS),
  fromApproved: z.boolean(),
  toLevel: z.enum(ACCESS_LEVELS),
  toApproved: z.boolean(),
  reason: z.string(),
  heldAt: z.string(),
});
export type HeldChange = z.infer<typeof HeldChange>;

export const RoleSyncState = z.object({
  settings: RoleSyncSettings,
  guildName: z.string().nullable(),
  status: z.object({
    problem: RoleSyncProblem.nullable(),
    lastRunAt: z.string().nullable(),
    /** A discarded hold pauses the sync until the settings are saved again. */
    paused: z.boolean(),
    /**
     * Discord's member events (ROLE_SYNC_MEMBER_EVENTS): off (the periodic re-check only), on, or refused
     * (the gateway closed with 4014: the Server Members intent is not enabled in the developer portal).
     */
    memberEvents: z.enum(['off', 'on', 'refused']),
  }),
  held: z.array(HeldChange),
  pinned: z.array(z.object({ discordId: z.string(), username: z.string() })),
});
export type RoleSyncState = z.infer<typeof RoleSyncState>;

export const RoleSyncResponse = z.object({ success: z.literal(true), data: RoleSyncState });
export type RoleSyncResponse = z.infer<typeof RoleSyncResponse>;

/** A role of the server as the bot sees it (the admin maps roles by name and colour). */
export const DiscordRole = z.object({
  id: z.string(),
  name: z.string(),
  /** RGB as an integer; 0 = no colour. */
  color: z.number().int(),
  position: z.number().int(),
  managed: z.boolean(),
});
export type DiscordRole = z.infer<typeof DiscordRole>;

export const DiscordRolesResponse = z.object({ success: z.literal(true), data: z.array(DiscordRole) });
export type DiscordRolesResponse = z.infer<typeof DiscordRolesResponse>;

export const RoleSyncPinParams = z.object({ id: Snowflake });
export const RoleSyncPinBody = z
  .object({ pinned: z.boolean({ error: 'pinned must be true or false' }) })
  .strict();

/**
 * What the community server says of the signed-in member: which role gave them their level (null when
 * none did), and their server nickname and server avatar where they have one (`server` null while the
 * sync is off or they are not in the server).
 */
export const MyRoleSourceResponse = z.object({
  success: z.literal(true),
  data: z.object({
    source: z
      .object({
        roleId: z.string(),
        roleName: z.string(),
        roleColor: z.number().int(),
        level: z.enum(ACCESS_LEVELS),
      })
      .nullable(),
    server: z
      .object({
        guildName: z.string().nullable(),
        nick: z.string().nullable(),
        avatarUrl: z.string().nullable(),
      })
      .nullable(),
  }),
});
export type MyRoleSourceResponse = z.infer<typeof MyRoleSourceResponse>;

/** `#rrggbb` of a role colour, or null for a role without one. */
export function roleColorHex(color: number): string | null {
  return color === 0 ? null : `#${color.toString(16).padStart(6, '0')}`;
}
