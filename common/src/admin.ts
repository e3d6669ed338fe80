import { z } from 'zod';
import { ACCESS_LEVELS } from './levels.ts';

/**
 * The admin user API (portal-core §2, §3, §7): request bodies in the server shape, responses,
 * the audit trail, and the texts of the rules the spec leaves to the server.
 */

export const USERNAME_MAX = 32;
export const NOTES_MAX = 500;
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** Server-side texts where the spec is silent (our wording), plus the §8 admin prefixes. */
export const ADMIN_TEXTS = {
  userNotFound: 'User not found',
  lastAdmin: 'The last admin cannot be removed, lowered or unapproved. Make another user an admin first.',
  setupModeDemoLockout:
    'In setup mode the access-code identity is the only way in; add a real admin before disabling it.',
  demoNotRemovable:
    'The access-code identity cannot be removed. Unapprove it instead to disable the access code.',
  idImmutable: 'discord_id cannot be changed',
  nothingToUpdate: 'Nothing to update: send at least one field',
  userRemoved: 'User removed',
  bodyNotObject: 'Request body must be a JSON object',
  addFailed: (message: string) => `Failed to add user: ${message}`,
  removeFailed: (message: string) => `Failed to remove user: ${message}`,
  updateFailed: (message: string) => `Failed to update user: ${message}`,
} as const;

const requiredString = (field: string) =>
  z.string({
    error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`),
  });

const DiscordIdField = requiredString('discord_id')
  .trim()
  .regex(/^\d{17,20}$/, { error: 'discord_id must be a Discord id (17–20 digits)' });

const UsernameField = requiredString('username')
  .trim()
  .min(1, { error: 'username is required' })
  .max(USERNAME_MAX, { error: `username must be at most ${USERNAME_MAX} characters` })
  .regex(/^[^\p{Cc}]*$/u, { error: 'username must not contain control characters' });

const AccessLevelField = z.enum(ACCESS_LEVELS, {
  error: `access_level must be one of ${ACCESS_LEVELS.join(', ')}`,
});

const IsApprovedField = z.boolean({ error: 'is_approved must be true or false' });

/** An optional text field: '' or null clears it (stored as null, omitted in responses). */
const clearable = (field: string, inner: z.ZodType<string>) =>
  z
    .union([z.null(), z.literal(''), inner], { error: `${field} is invalid` })
    .transform((v) => (v === '' ? null : v));

const EmailField = clearable(
  'email',
  z
    .string({ error: 'email must be a string' })
    .trim()
    .max(320, { error: 'email is too long' })
    .pipe(z.email({ error: 'email must be a valid email address' })),
);
const DiscriminatorField = clearable(
  'discriminator',
  z.string().regex(/^(0|\d{4})$/, { error: 'discriminator must be 0 or four digits' }),
);
// A Discord avatar hash; it becomes part of a CDN URL, so nothing else is accepted.
const AvatarField = clearable(
  'avatar',
  z.string().regex(/^(a_)?[0-9a-f]{32}$/, { error: 'avatar must be a Discord avatar hash' }),
);
const GlobalNameField = clearable(
  'global_name',
  z
    .string()
    .trim()
    .max(USERNAME_MAX, { error: `global_name must be at most ${USERNAME_MAX} characters` }),
);
const NotesField = clearable(
  'notes',
  z
    .string()
    .trim()
    .max(NOTES_MAX, { error: `notes must be at most ${NOTES_MAX} characters` }),
);

// Timestamps and anything else the server owns are refused by name rather than silently dropped.
const bodyError = (iss: { code?: string; keys?: string[]; input?: unknown }) => {
  if (iss.code === 'unrecognized_keys') {
    return `${(iss.keys ?? []).join(', ')} cannot be set (unknown field, or set by the server)`;
  }
  if (iss.code === 'invalid_type') return ADMIN_TEXTS.bodyNotObject;
  return undefined;
};

/** POST /api/users: a user in the server shape; is_approved defaults to true, access_level to user. */
export const UserCreateBody = z.strictObject(
  {
    discord_id: DiscordIdField,
    username: UsernameField,
    email: EmailField.optional(),
    access_level: AccessLevelField.default('user'),
    is_approved: IsApprovedField.default(true),
    discriminator: DiscriminatorField.optional(),
    avatar: AvatarField.optional(),
    global_name: GlobalNameField.optional(),
    notes: NotesField.optional(),
  },
  { error: bodyError },
);
export type UserCreateBody = z.input<typeof UserCreateBody>;
export type UserCreateInput = z.output<typeof UserCreateBody>;

/** PUT /api/users/:id: the changed fields only. discord_id may be sent but must equal :id. */
export const UserUpdateBody = z
  .strictObject(
    {
      discord_id: z.string({ error: 'discord_id must be a string' }).optional(),
      username: UsernameField.optional(),
      email: EmailField.optional(),
      access_level: AccessLevelField.optional(),
      is_approved: IsApprovedField.optional(),
      discriminator: DiscriminatorField.optional(),
      avatar: AvatarField.optional(),
      global_name: GlobalNameField.optional(),
      notes: NotesField.optional(),
    },
    { error: bodyError },
  )
  .refine((b) => Object.keys(b).some((k) => k !== 'discord_id'), { error: ADMIN_TEXTS.nothingToUpdate });
export type UserUpdateBody = z.input<typeof UserUpdateBody>;
export type UserUpdateInput = z.output<typeof UserUpdateBody>;

export const UserIdParams = z.object({
  id: z.string().min(1, { error: 'id is required' }).max(64, { error: 'id is too long' }),
});

export const UserDeleteResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ discord_id: z.string(), sessions_ended: z.number() }),
});
export type UserDeleteResponse = z.infer<typeof UserDeleteResponse>;

export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.delete',
  'user.sessions_revoke',
  'osint.search',
  'storage.quota',
  'osint.report.accepted',
  'osint.report.dismissed',
  'user.role_sync',
  'role_sync.settings',
  'role_sync.held',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const AuditValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One admin change: who, what, before → after, when. actor is a Discord id, or "cli". */
export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  actor_name: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target_id: z.string(),
  target_name: z.string(),
  changes: z.array(z.object({ field: z.string(), before: AuditValue, after: AuditValue })),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be an integer' })
    .min(1, { error: `limit must be between 1 and ${AUDIT_PAGE_MAX}` })
    .max(AUDIT_PAGE_MAX, { error: `limit must be between 1 and ${AUDIT_PAGE_MAX}` })
    .default(AUDIT_PAGE_DEFAULT),
});

export const AuditListResponse = z.object({ success: z.literal(true), data: z.array(AuditEntry) });
export type AuditListResponse = z.infer<typeof AuditListResponse>;

/** The fields an admin enters or edits, in the client shape (portal-core §3). */
export type ClientUserInput = {
  id?: string;
  username: string;
  email?: string;
  accessLevel?: (typeof ACCESS_LEVELS)[number];
  isApproved?: boolean;
  discriminator?: string;
  avatar?: string;
  globalName?: string;
  notes?: string;
};

const isBlank = (v: string | undefined): v is undefined => v === undefined || v.trim() === '';

/** A user in the server shape as sent; discord_id is omitted when empty (the server then refuses it). */
export type ServerUserBody = Omit<UserCreateBody, 'discord_id'> & { discord_id?: string };

/**
 * Client shape → server shape for sending a user (portal-core §3): id is discord_id, accessLevel is
 * access_level, isApproved is is_approved (default true); empty optional fields are omitted and
 * timestamps are never sent.
 */
export function toServerUserBody(u: ClientUserInput): ServerUserBody {
  const body: ServerUserBody = { username: u.username.trim() };
  if (!isBlank(u.id)) body.discord_id = u.id.trim();
  if (!isBlank(u.email)) body.email = u.email.trim();
  if (u.accessLevel) body.access_level = u.accessLevel;
  body.is_approved = u.isApproved ?? true;
  if (!isBlank(u.discriminator)) body.discriminator = u.discriminator;
  if (!isBlank(u.avatar)) body.avatar = u.avatar;
  if (!isBlank(u.globalName)) body.global_name = u.globalName;
  if (!isBlank(u.notes)) body.notes = u.notes;
  return body;
}

/**
 * The changed fields of an inline edit, for PUT (portal-core §7: "changed user fields"). A cleared
 * email is sent as null, the one way to remove it (omitting it would leave it unchanged).
 */
export function changedUserFields(
  before: Pick<ClientUserInput, 'username' | 'email' | 'accessLevel'>,
  after: Pick<ClientUserInput, 'username' | 'email' | 'accessLevel'>,
): UserUpdateBody {
  const body: UserUpdateBody = {};
  if (after.username.trim() !== before.username) body.username = after.username.trim();
  const email = after.email?.trim() ?? '';
  if (email !== (before.email ?? '')) body.email = email === '' ? null : email;
  if (after.accessLevel && after.accessLevel !== before.accessLevel) body.access_level = after.accessLevel;
  return body;
}
