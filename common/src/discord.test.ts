import { describe, expect, it } from 'vitest';
import { avatarUrl, defaultAvatarIndex, snowflakeDate, userTag } from './discord.ts';

describe('discord helpers', () => {
  it('requests avatars at size 256 and animated for a_ hashes', () => {
    expect(avatarUrl({ id: '1', avatar: 'abc' })).toBe(
      'https://cdn.discordapp.com/avatars/1/abc.png?size=256',
    );
    expect(avatarUrl({ id: '1', avatar: 'a_abc' })).toBe(
      'https://cdn.discordapp.com/avatars/1/a_abc.gif?size=256',
    );
  });
  it('uses discriminator modulo 5 for the default avatar', () => {
    expect(defaultAvatarIndex('1337')).toBe(2);
    expect(avatarUrl({ id: '1', discriminator: '0004' })).toBe(
      'https://cdn.discordapp.com/embed/avatars/4.png',
    );
    expect(defaultAvatarIndex(undefined)).toBe(0);
  });
  it('formats tags with @ when the discriminator is absent or 0', () => {
    expect(userTag('alice', '0')).toBe('@alice');
    expect(userTag('alice', undefined)).toBe('@alice');
    expect(userTag('bob', '0042')).toBe('bob#0042');
  });
  it('derives the creation date from a snowflake', () => {
    expect(snowflakeDate('175928847299117063')?.toISOString()).toBe('2016-04-30T11:18:25.796Z');
    expect(snowflakeDate('access-code-demo')).toBeNull();
  });
});
