import { type ClientUser, TEXTS } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { checkEdit, checkNewUser, userStats } from './rules.ts';

const user = (id: string, username: string, accessLevel: ClientUser['accessLevel'] = 'user'): ClientUser => ({
  id,
  username,
  accessLevel,
  isApproved: true,
  provider: 'discord',
});

describe('add-user checks (portal-core §5)', () => {
  const approved = [user('111111111111111111', 'Alice')];
  it('requires User ID and Username', () => {
    expect(checkNewUser(approved, { id: '', username: 'bob' })).toBe(TEXTS.fillRequired);
    expect(checkNewUser(approved, { id: '222222222222222222', username: '  ' })).toBe(TEXTS.fillRequired);
  });
  it('refuses an id or username already in the approved list', () => {
    expect(checkNewUser(approved, { id: '111111111111111111', username: 'bob' })).toBe(TEXTS.duplicateUser);
    expect(checkNewUser(approved, { id: '222222222222222222', username: 'alice' })).toBe(TEXTS.duplicateUser);
  });
  it('accepts a new user', () => {
    expect(checkNewUser(approved, { id: '222222222222222222', username: 'bob' })).toBeNull();
  });
});

describe('edit checks', () => {
  it('requires a username', () => {
    expect(checkEdit({ username: ' ' })).toBe(TEXTS.usernameRequired);
    expect(checkEdit({ username: 'x' })).toBeNull();
  });
});

describe('stat cards', () => {
  it('counts total, admins, moderators and the rest as regular users', () => {
    const list = [
      user('1', 'a', 'admin'),
      user('2', 'b', 'moderator'),
      user('3', 'c'),
      user('4', 'd', 'viewer'),
    ];
    expect(userStats(list)).toEqual({ total: 4, admins: 1, moderators: 1, regular: 2 });
  });

  it('in setup mode counts the access-code identity as the Admin its row is badged', () => {
    const list = [user('demo', 'Demo User', 'viewer'), user('2', 'b')];
    expect(userStats(list, 'demo')).toEqual({ total: 2, admins: 1, moderators: 0, regular: 1 });
    expect(userStats(list, null)).toEqual({ total: 2, admins: 0, moderators: 0, regular: 2 });
  });
});
