import { describe, expect, it } from 'vitest';
import { changedUserFields, toServerUserBody, UserCreateBody } from './admin.ts';

describe('client → server user mapping (portal-core §3)', () => {
  it('maps id, accessLevel, isApproved and omits empty optional fields; is_approved defaults to true', () => {
    const body = toServerUserBody({
      id: '123456789012345678',
      username: 'alice',
      email: '',
      accessLevel: 'moderator',
    });
    expect(body).toEqual({
      discord_id: '123456789012345678',
      username: 'alice',
      access_level: 'moderator',
      is_approved: true,
    });
    expect(UserCreateBody.safeParse(body).success).toBe(true);
  });

  it('keeps given optional fields, trimmed, and an explicit isApproved false; never timestamps', () => {
    const body = toServerUserBody({
      id: ' 123456789012345678 ',
      username: ' bob ',
      email: ' bob@example.org ',
      isApproved: false,
      globalName: 'Bobby',
      notes: '   ',
    });
    expect(body).toEqual({
      discord_id: '123456789012345678',
      username: 'bob',
      email: 'bob@example.org',
      is_approved: false,
      global_name: 'Bobby',
    });
    expect(Object.keys(body).some((k) => k.endsWith('_at') || k === 'last_login')).toBe(false);
  });

  it('omits an empty discord_id', () => {
    expect(toServerUserBody({ id: '  ', username: 'x' })).not.toHaveProperty('discord_id');
  });
});

describe('changed fields of an inline edit', () => {
  const before = { username: 'carol', email: 'c@example.org', accessLevel: 'user' as const };
  it('sends only what changed', () => {
    expect(changedUserFields(before, { ...before, accessLevel: 'admin' })).toEqual({ access_level: 'admin' });
    expect(changedUserFields(before, { ...before })).toEqual({});
    expect(changedUserFields(before, { ...before, username: ' carla ' })).toEqual({ username: 'carla' });
  });
  it('sends a cleared email as null', () => {
    expect(changedUserFields(before, { ...before, email: '' })).toEqual({ email: null });
  });
});
