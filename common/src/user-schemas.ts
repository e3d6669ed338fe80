import { z } from 'zod';
import { ACCESS_LEVELS } from './levels.ts';

export const AccessLevelSchema = z.enum(ACCESS_LEVELS, {
  error: `accessLevel must be one of ${ACCESS_LEVELS.join(', ')}`,
});

/** A Discord user id: a snowflake of 17–20 digits. */
export const SnowflakeSchema = z
  .string({ error: 'discord_id must be a string' })
  .regex(/^\d{17,20}$/, { error: 'discord_id must be a Discord id (17–20 digits)' });

export const Provider = z.enum(['discord', 'access_code']);
export type Provider = z.infer<typeof Provider>;

/** User in the server shape (portal-core §3). Optional fields are omitted when empty. */
export const ServerUser = z.object({
  discord_id: z.string(),
  username: z.string(),
  discriminator: z.string().optional(),
  avatar: z.string().optional(),
  email: z.string().optional(),
  access_level: AccessLevelSchema,
  is_approved: z.boolean(),
  global_name: z.string().optional(),
  notes: z.string().optional(),
  provider: Provider.optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  last_login: z.string().optional(),
  /** Nickname in the community's Discord server (issue 43), while the role sync knows one. */
  server_nick: z.string().optional(),
  /** Server avatar URL (issue 43), likewise. */
  server_avatar_url: z.string().optional(),
});
export type ServerUser = z.infer<typeof ServerUser>;

/** User in the client shape (portal-core §3). */
/** The sign-in response (portal-core §3): success, token, message, user. */
export const SignInResponse = z.object({
  success: z.literal(true),
  token: z.string(),
  message: z.string(),
  user: ServerUser,
});
export type SignInResponse = z.infer<typeof SignInResponse>;

export const ValidateResponse = z.object({ success: z.literal(true), user: ServerUser });
export type ValidateResponse = z.infer<typeof ValidateResponse>;

export const DiscordSignInBody = z.object({
  code: z.string({ error: 'code is required' }).min(1, { error: 'code is required' }).max(512, {
    error: 'code is too long',
  }),
  state: z.string({ error: 'state is required' }).min(1, { error: 'state is required' }).max(256, {
    error: 'state is too long',
  }),
});
export type DiscordSignInBody = z.infer<typeof DiscordSignInBody>;

export const AccessCodeBody = z.object({
  code: z
    .string({ error: 'code is required' })
    .min(1, { error: 'code is required' })
    .max(256, { error: 'code is too long' }),
});

export const OAuthUrlResponse = z.object({ url: z.string(), state: z.string() });
export type OAuthUrlResponse = z.infer<typeof OAuthUrlResponse>;

/** What the browser needs to know about the server's configuration. */
export const PublicConfig = z.object({
  oauthConfigured: z.boolean(),
  setupMode: z.boolean(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/** GET /api/users/check/:id → data.approved, data.accessLevel, data.user. */
export const UserCheckResponse = z.object({
  success: z.literal(true),
  data: z.object({
    approved: z.boolean(),
    accessLevel: AccessLevelSchema.nullable(),
    user: ServerUser.nullable(),
  }),
});

/** An entry of the public approved list: only what the browser needs to gate navigation. */
export const PublicApprovedEntry = z.object({
  discord_id: z.string(),
  username: z.string(),
  access_level: AccessLevelSchema,
});
export type PublicApprovedEntry = z.infer<typeof PublicApprovedEntry>;
export const PublicApprovedResponse = z.object({
  success: z.literal(true),
  data: z.array(PublicApprovedEntry),
});

export const UserResponse = z.object({ success: z.literal(true), data: ServerUser });
export const UserListResponse = z.object({ success: z.literal(true), data: z.array(ServerUser) });
