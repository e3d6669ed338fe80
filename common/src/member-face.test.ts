import { describe, expect, it } from 'vitest';
import { memberFace, memberFaceOf, memberName } from './member-face.ts';

describe('a member as everyone sees them (issue 43)', () => {
  const base = { id: '123456789012345678', username: 'nicky', discriminator: '0' };

  it('the server nickname and server avatar first', () => {
    expect(
      memberFace({
        ...base,
        globalName: 'Nicky G',
        avatar: 'abc',
        serverNick: 'Nicky of the Hall',
        serverAvatarUrl: 'https://cdn.discordapp.com/guilds/1/users/2/avatars/h.png?size=256',
      }),
    ).toEqual({
      name: 'Nicky of the Hall',
      avatarUrl: 'https://cdn.discordapp.com/guilds/1/users/2/avatars/h.png?size=256',
    });
  });

  it('else the global display name and account avatar, else the username and the default avatar', () => {
    expect(memberFace({ ...base, globalName: 'Nicky G', avatar: 'abc' })).toEqual({
      name: 'Nicky G',
      avatarUrl: `https://cdn.discordapp.com/avatars/${base.id}/abc.png?size=256`,
    });
    expect(memberFace({ ...base, serverNick: null, serverAvatarUrl: null })).toEqual({
      name: 'nicky',
      avatarUrl: 'https://cdn.discordapp.com/embed/avatars/0.png',
    });
    expect(memberName({ username: 'nicky', globalName: '', serverNick: '' })).toBe('nicky');
  });

  it("reads the server's naming too (a users row, ServerUser)", () => {
    expect(
      memberFaceOf({ discord_id: base.id, username: 'nicky', global_name: null, server_nick: 'Nick' }).name,
    ).toBe('Nick');
  });
});
