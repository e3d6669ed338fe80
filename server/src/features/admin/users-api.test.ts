import { ADMIN_TEXTS, TEXTS, UserListResponse, UserResponse } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, leaveSetupMode, type TestContext } from '../../test/app.ts';
import { buildUser, snowflake } from '../../test/factories.ts';

let ctx: TestContext;
let admin: { token: string; userId: string };

beforeAll(async () => {
  ctx = await createTestApp();
  await leaveSetupMode(ctx);
  admin = await ctx.signIn({ access_level: 'admin', username: 'the-admin' });
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, headers: bearer(admin.token), payload: payload as object });

describe('GET /api/users', () => {
  it('lists approved and pending users in the server shape, empty optional fields omitted', async () => {
    const pending = await buildUser(ctx.db, {
      username: 'pending-pat',
      is_approved: 0,
      access_level: 'viewer',
    });
    const res = await call('GET', '/api/users');
    expect(res.statusCode).toBe(200);
    const body = UserListResponse.parse(res.json());
    const entry = body.data.find((u) => u.discord_id === pending.discord_id);
    expect(entry).toMatchObject({ username: 'pending-pat', is_approved: false, access_level: 'viewer' });
    expect(entry).not.toHaveProperty('email');
    expect(entry).not.toHaveProperty('avatar');
    expect(entry).not.toHaveProperty('notes');
  });
});

describe('POST /api/users', () => {
  it('adds an approved user at the given level; is_approved defaults to true', async () => {
    const id = snowflake();
    const res = await call('POST', '/api/users', {
      discord_id: id,
      username: 'newbie',
      access_level: 'moderator',
    });
    expect(res.statusCode).toBe(201);
    const { data } = UserResponse.parse(res.json());
    expect(data).toMatchObject({
      discord_id: id,
      username: 'newbie',
      access_level: 'moderator',
      is_approved: true,
    });
    expect(data).not.toHaveProperty('email');
    const got = await call('GET', `/api/users/${id}`);
    expect(got.json().data).toMatchObject({ discord_id: id, access_level: 'moderator', is_approved: true });
  });

  it('defaults the level to user, keeps an explicit is_approved false, trims fields', async () => {
    const id = snowflake();
    const res = await call('POST', '/api/users', {
      discord_id: ` ${id} `,
      username: '  spaced  ',
      email: ' a@example.org ',
      is_approved: false,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      discord_id: id,
      username: 'spaced',
      email: 'a@example.org',
      access_level: 'user',
      is_approved: false,
    });
  });

  it('treats an empty email as none', async () => {
    const res = await call('POST', '/api/users', { discord_id: snowflake(), username: 'no-mail', email: '' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).not.toHaveProperty('email');
  });

  it('refuses a duplicate id with the spec text (409)', async () => {
    const existing = await buildUser(ctx.db, { username: 'dupe-id' });
    const res = await call('POST', '/api/users', { discord_id: existing.discord_id, username: 'other-name' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, error: TEXTS.duplicateUser, code: 'DUPLICATE_USER' });
  });

  it('refuses a duplicate username ignoring case (409)', async () => {
    await buildUser(ctx.db, { username: 'CaseName' });
    const res = await call('POST', '/api/users', { discord_id: snowflake(), username: 'casename' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(TEXTS.duplicateUser);
  });

  it('refuses a pending user id too (approve them instead)', async () => {
    const pending = await buildUser(ctx.db, { username: 'waiting', is_approved: 0 });
    const res = await call('POST', '/api/users', { discord_id: pending.discord_id, username: 'waiting2' });
    expect(res.statusCode).toBe(409);
  });

  const id = '123456789012345678';
  it.each([
    ['no body', undefined, ADMIN_TEXTS.bodyNotObject],
    ['an array body', [], ADMIN_TEXTS.bodyNotObject],
    ['missing fields', {}, 'discord_id is required'],
    ['missing username', { discord_id: id }, 'username is required'],
    ['blank username', { discord_id: id, username: '   ' }, 'username is required'],
    ['a 33-character username', { discord_id: id, username: 'x'.repeat(33) }, 'at most 32 characters'],
    ['a control character in the username', { discord_id: id, username: 'a\u0007b' }, 'control characters'],
    ['a numeric username', { discord_id: id, username: 42 }, 'username must be a string'],
    ['a 16-digit id', { discord_id: '1234567890123456', username: 'u' }, '17–20 digits'],
    ['a 21-digit id', { discord_id: '123456789012345678901', username: 'u' }, '17–20 digits'],
    ['a non-numeric id', { discord_id: 'abcdefghijklmnopq', username: 'u' }, '17–20 digits'],
    ['a numeric id', { discord_id: 1234567890, username: 'u' }, 'discord_id must be a string'],
    ['a bad email', { discord_id: id, username: 'u', email: 'not-an-email' }, 'valid email'],
    [
      'an unknown level',
      { discord_id: id, username: 'u', access_level: 'owner' },
      'access_level must be one of',
    ],
    [
      'an upper-case level',
      { discord_id: id, username: 'u', access_level: 'Admin' },
      'access_level must be one of',
    ],
    [
      'a string is_approved',
      { discord_id: id, username: 'u', is_approved: 'yes' },
      'is_approved must be true',
    ],
    ['a timestamp', { discord_id: id, username: 'u', created_at: '2020-01-01' }, 'created_at cannot be set'],
    ['last_login', { discord_id: id, username: 'u', last_login: '2020-01-01' }, 'last_login cannot be set'],
    ['an unknown field', { discord_id: id, username: 'u', role: 'x' }, 'role cannot be set'],
    ['a bad discriminator', { discord_id: id, username: 'u', discriminator: '12' }, 'discriminator'],
    ['a path as avatar', { discord_id: id, username: 'u', avatar: '../../etc' }, 'avatar hash'],
    ['long notes', { discord_id: id, username: 'u', notes: 'n'.repeat(501) }, 'notes must be at most 500'],
  ])('rejects %s with a 400 naming the problem', async (_name, payload, message) => {
    const res = await call('POST', '/api/users', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(res.json().error).toContain(message);
  });

  it('rejects a body that is not JSON (400, not 500)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      payload: '{"discord_id":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Request body is not valid JSON');
  });

  it('rejects a text body as not an object (400)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...bearer(admin.token), 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(ADMIN_TEXTS.bodyNotObject);
  });
});

describe('PUT /api/users/:id', () => {
  it('changes the given fields only and returns the user', async () => {
    const u = await buildUser(ctx.db, { username: 'editme', email: 'e@example.org', access_level: 'viewer' });
    const res = await call('PUT', `/api/users/${u.discord_id}`, { access_level: 'moderator' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      username: 'editme',
      email: 'e@example.org',
      access_level: 'moderator',
    });
  });

  it('clears an optional field with an empty string or null', async () => {
    const u = await buildUser(ctx.db, { username: 'clearme', email: 'c@example.org', notes: 'note' });
    const res = await call('PUT', `/api/users/${u.discord_id}`, { email: '', notes: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).not.toHaveProperty('email');
    expect(res.json().data).not.toHaveProperty('notes');
  });

  it('accepts discord_id in the body when it matches, refuses changing it', async () => {
    const u = await buildUser(ctx.db, { username: 'keepid' });
    const same = await call('PUT', `/api/users/${u.discord_id}`, {
      discord_id: u.discord_id,
      username: 'keepid2',
    });
    expect(same.statusCode).toBe(200);
    const other = await call('PUT', `/api/users/${u.discord_id}`, { discord_id: snowflake(), username: 'x' });
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toBe(ADMIN_TEXTS.idImmutable);
  });

  it('refuses renaming to another user’s username (409) but allows a case change of one’s own', async () => {
    await buildUser(ctx.db, { username: 'taken-name' });
    const u = await buildUser(ctx.db, { username: 'renamer' });
    const clash = await call('PUT', `/api/users/${u.discord_id}`, { username: 'Taken-Name' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe(TEXTS.duplicateUser);
    const recase = await call('PUT', `/api/users/${u.discord_id}`, { username: 'Renamer' });
    expect(recase.statusCode).toBe(200);
    expect(recase.json().data.username).toBe('Renamer');
  });

  it('404s an unknown user', async () => {
    const res = await call('PUT', `/api/users/${snowflake()}`, { username: 'ghost' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(ADMIN_TEXTS.userNotFound);
  });

  it.each([
    ['an empty body', {}, ADMIN_TEXTS.nothingToUpdate],
    ['only the id', { discord_id: '123456789012345678' }, ADMIN_TEXTS.nothingToUpdate],
    ['a blank username', { username: '' }, 'username is required'],
    ['an unknown level', { access_level: 'root' }, 'access_level must be one of'],
    ['a bad email', { email: 'x@' }, 'valid email'],
    ['a timestamp', { updated_at: '2020-01-01' }, 'updated_at cannot be set'],
    ['a null is_approved', { is_approved: null }, 'is_approved must be true'],
    ['no body', undefined, ADMIN_TEXTS.bodyNotObject],
  ])('rejects %s with a 400', async (_name, payload, message) => {
    const u = await buildUser(ctx.db);
    const res = await call('PUT', `/api/users/${u.discord_id}`, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
  });

  it('rejects an over-long id parameter with a 400', async () => {
    const res = await call('PUT', `/api/users/${'9'.repeat(65)}`, { username: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('id is too long');
  });
});

describe('DELETE /api/users/:id', () => {
  it('removes a user', async () => {
    const u = await buildUser(ctx.db, { username: 'goner' });
    const res = await call('DELETE', `/api/users/${u.discord_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: ADMIN_TEXTS.userRemoved });
    expect((await call('GET', `/api/users/${u.discord_id}`)).statusCode).toBe(404);
  });

  it('refuses removing yourself with the spec text', async () => {
    const res = await call('DELETE', `/api/users/${admin.userId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(TEXTS.cannotRemoveSelf);
  });

  it('refuses unapproving yourself with the same text', async () => {
    const res = await call('PUT', `/api/users/${admin.userId}`, { is_approved: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(TEXTS.cannotRemoveSelf);
  });

  it('404s an unknown user and 400s an over-long id', async () => {
    expect((await call('DELETE', `/api/users/${snowflake()}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/users/${'1'.repeat(80)}`)).statusCode).toBe(400);
  });
});

describe('GET /api/users/:id (core route) keeps working', () => {
  it('shows a user to an admin and refuses other users’ records to a member', async () => {
    const u = await buildUser(ctx.db, { username: 'seen' });
    expect((await call('GET', `/api/users/${u.discord_id}`)).json().data.username).toBe('seen');
    const member = await ctx.signIn({ access_level: 'user' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${u.discord_id}`,
      headers: bearer(member.token),
    });
    expect(res.statusCode).toBe(403);
    const own = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${member.userId}`,
      headers: bearer(member.token),
    });
    expect(own.statusCode).toBe(200);
  });
});
