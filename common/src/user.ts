import type { AccessLevel } from './levels.ts';
import type { Provider, ServerUser } from './user-schemas.ts';

export type ClientUser = {
  id: string;
  username: string;
  discriminator?: string;
  avatar?: string;
  email?: string;
  globalName?: string;
  provider: Provider;
  accessLevel: AccessLevel;
  isApproved: boolean;
  /** Nickname and avatar URL in the community's Discord server (issue 43): memberFace() shows them first. */
  serverNick?: string;
  serverAvatarUrl?: string;
};

/** Server shape → client shape (id is discord_id, accessLevel is access_level, isApproved is is_approved). */
export function toClientUser(u: ServerUser): ClientUser {
  return {
    id: u.discord_id,
    username: u.username,
    discriminator: u.discriminator,
    avatar: u.avatar,
    email: u.email,
    globalName: u.global_name,
    provider: u.provider ?? 'discord',
    accessLevel: u.access_level ?? 'viewer',
    isApproved: u.is_approved,
    serverNick: u.server_nick,
    serverAvatarUrl: u.server_avatar_url,
  };
}

/** The demo identity the access code signs in as. */
export const DEMO_USER_ID = 'access-code-demo';
export const DEMO_USERNAME = 'Demo User';
