import { avatarUrl } from './discord.ts';

/**
 * How a member appears to everyone, themselves included (issue 43): their nickname and avatar in the
 * community's Discord server where they have one (the role sync keeps them), else their global Discord
 * display name and avatar, else their username and Discord's default avatar.
 */
export type MemberFace = { name: string; avatarUrl: string };

/** The fields a face is made of, in the client's naming (ClientUser has them all). */
export type FaceFields = {
  id: string;
  username: string;
  globalName?: string | null;
  avatar?: string | null;
  discriminator?: string | null;
  serverNick?: string | null;
  serverAvatarUrl?: string | null;
};

export function memberName(u: Pick<FaceFields, 'username' | 'globalName' | 'serverNick'>): string {
  return u.serverNick || u.globalName || u.username;
}

export function memberFace(u: FaceFields): MemberFace {
  return {
    name: memberName(u),
    avatarUrl: u.serverAvatarUrl || avatarUrl({ id: u.id, avatar: u.avatar, discriminator: u.discriminator }),
  };
}

/** The same from the server's naming (a users row, or ServerUser). */
export function memberFaceOf(u: {
  discord_id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  discriminator?: string | null;
  server_nick?: string | null;
  server_avatar_url?: string | null;
}): MemberFace {
  return memberFace({
    id: u.discord_id,
    username: u.username,
    globalName: u.global_name,
    avatar: u.avatar,
    discriminator: u.discriminator,
    serverNick: u.server_nick,
    serverAvatarUrl: u.server_avatar_url,
  });
}
