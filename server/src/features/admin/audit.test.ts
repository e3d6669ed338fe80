import { AuditListResponse } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, leaveSetupMode, type TestContext } from '../../test/app.ts';
import { buildUser, snowflake } from '../../test/factories.ts';
import { CLI_ACTOR, revokeSessions, updateUser } from './service.ts';

let ctx: TestContext;
let admin: { token: string; userId: string };

beforeAll(async () => {
  ctx = await createTestApp();
  await leaveSetupMode(ctx);
  admin = await ctx.signIn({ access_level: 'admin', username: 'auditor' });
});
afterAll(() => ctx.close());

const as = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: bearer(admin.token), payload });
const audit = async (query = '') => {
  const res = await as('GET', `/api/admin/audit${query}`);
  expect(res.statusCode).toBe(200);
  return AuditListResponse.parse(res.json()).data;
};

describe('the audit trail', () => {
  it('records who changed what, before → after, and when; newest first', async () => {
    const id = snowflake();
    const t0 = new Date().toISOString();
    await as('POST', '/api/users', { discord_id: id, username: 'tracked', access_level: 'viewer' });
    await as('PUT', `/api/users/${id}`, { access_level: 'moderator', email: 'm@example.org' });
    await as('DELETE', `/api/users/${id}`);

    const [del, upd, add] = await audit('?limit=3');
    expect(add).toMatchObject({
      action: 'user.create',
      actor: admin.userId,
      actor_name: 'auditor',
      target_id: id,
    });
    expect(add?.changes).toContainEqual({ field: 'access_level', before: null, after: 'viewer' });
    expect(add?.changes).toContainEqual({ field: 'is_approved', before: null, after: true });
    expect(upd?.action).toBe('user.update');
    expect(upd?.changes).toEqual([
      { field: 'access_level', before: 'viewer', after: 'moderator' },
      { field: 'email', before: null, after: 'm@example.org' },
    ]);
    expect(del).toMatchObject({ action: 'user.delete', target_name: 'tracked' });
    expect(del?.changes).toContainEqual({ field: 'access_level', before: 'moderator', after: null });
    expect(Date.parse(add?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(t0));
  });

  it('records approval of a pending user', async () => {
    const u = await buildUser(ctx.db, { username: 'pending-one', is_approved: 0 });
    await as('PUT', `/api/users/${u.discord_id}`, { is_approved: true });
    const [entry] = await audit('?limit=1');
    expect(entry?.changes).toEqual([{ field: 'is_approved', before: false, after: true }]);
  });

  it('does not record a change that changes nothing, nor a refused one', async () => {
    const u = await buildUser(ctx.db, { username: 'steady', access_level: 'user' });
    const before = (await audit()).length;
    await as('PUT', `/api/users/${u.discord_id}`, { access_level: 'user' });
    await as('PUT', `/api/users/${u.discord_id}`, { access_level: 'nope' });
    await as('DELETE', `/api/users/${admin.userId}`);
    expect((await audit()).length).toBe(before);
  });

  it('records command-line changes with actor "cli", including session revocation', async () => {
    const member = await ctx.signIn({ access_level: 'user', username: 'cli-target' });
    await updateUser(ctx.db, CLI_ACTOR, member.userId, { access_level: 'moderator' });
    await revokeSessions(ctx.db, CLI_ACTOR, member.userId);
    const [revoke, update] = await audit('?limit=2');
    expect(update).toMatchObject({ actor: 'cli', actor_name: 'cli', action: 'user.update' });
    expect(revoke).toMatchObject({
      actor: 'cli',
      action: 'user.sessions_revoke',
      changes: [{ field: 'sessions', before: 1, after: 0 }],
    });
  });

  it('limits the page and validates the limit', async () => {
    expect((await audit('?limit=2')).length).toBe(2);
    for (const bad of ['0', '201', 'abc', '1.5']) {
      const res = await as('GET', `/api/admin/audit?limit=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/limit must be/);
    }
  });
});
