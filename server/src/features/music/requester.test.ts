import { describe, expect, it } from 'vitest';
import type { UsersTable } from '../users/index.ts';
import { requesterOf } from './present.ts';

const row: UsersTable = {
  discord_id: '123456789012345678',
  username: 'nicky',
  discriminator: '0',
  avatar: 'abc',
  email: null,
  global_name: 'Nicky G',
  notes: null,
  access_level: 'user',
  is_approved: 1,
  provider: 'discord',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  last_login: null,
  server_nick: null,
  server_avatar_url: null,
};

describe('who requested a song, as the queue and Now Playing show them (issue 43)', () => {
  it('their server nickname and server avatar where they have one', () => {
    const url = `https://cdn.discordapp.com/guilds/1/users/${row.discord_id}/avatars/h.png?size=256`;
    expect(requesterOf({ ...row, server_nick: 'Nicky of the Hall', server_avatar_url: url })).toEqual({
      id: row.discord_id,
      displayName: 'Nicky of the Hall',
      avatar: url,
    });
  });

  it("else their Discord account's display name and avatar", () => {
    expect(requesterOf(row)).toEqual({
      id: row.discord_id,
      displayName: 'Nicky G',
      avatar: `https://cdn.discordapp.com/avatars/${row.discord_id}/abc.png?size=256`,
    });
  });
});
