import { AVATAR_SIZE } from './timings.ts';

const CDN = 'https://cdn.discordapp.com';
const DISCORD_EPOCH = 1420070400000n;

type AvatarUser = { id: string; avatar?: string | null; discriminator?: string | null };

/** Avatar URL at size 256; animated (gif) when the hash starts with a_; else the default avatar. */
export function avatarUrl(user: AvatarUser): string {
  if (user.avatar) {
    const ext = user.avatar.startsWith('a_') ? 'gif' : 'png';
    return `${CDN}/avatars/${user.id}/${user.avatar}.${ext}?size=${AVATAR_SIZE}`;
  }
  return `${CDN}/embed/avatars/${defaultAvatarIndex(user.discriminator)}.png`;
}

/** A member's server avatar (set in that server only) at size 256; animated (gif) when the hash starts with a_. */
export function guildAvatarUrl(guildId: string, userId: string, hash: string): string {
  const ext = hash.startsWith('a_') ? 'gif' : 'png';
  return `${CDN}/guilds/${guildId}/users/${userId}/avatars/${hash}.${ext}?size=${AVATAR_SIZE}`;
}

/** The default avatar index is the discriminator modulo 5. */
export function defaultAvatarIndex(discriminator?: string | null): number {
  const n = Number.parseInt(discriminator ?? '0', 10);
  return Number.isFinite(n) ? n % 5 : 0;
}

/** Username plus #discriminator, or @username when the discriminator is absent or 0. */
export function userTag(username: string, discriminator?: string | null): string {
  if (!discriminator || Number(discriminator) === 0) return `@${username}`;
  return `${username}#${discriminator}`;
}

/** Account creation time derived from a Discord snowflake; null for ids that are not snowflakes. */
export function snowflakeDate(id: string): Date | null {
  if (!/^\d{15,20}$/.test(id)) return null;
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH));
}
