import { DEMO_USER_ID } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, leaveSetupMode, TEST_ACCESS_CODE } from '../test/app.ts';
import { buildUser } from '../test/factories.ts';

// The same migrations and queries on PostgreSQL (CI sets TEST_DATABASE_URL to the local server).
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL', () => {
  it('runs the migrations and the core sign-in, session and user flows', async () => {
    const ctx = await createTestApp({}, 'postgres');
    try {
      await leaveSetupMode(ctx);
      const signIn = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/access-code',
        payload: { code: TEST_ACCESS_CODE },
      });
      expect(signIn.statusCode).toBe(200);
      const { token, user } = signIn.json();
      expect(user).toMatchObject({ discord_id: DEMO_USER_ID, access_level: 'viewer', is_approved: true });
      const validate = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/validate',
        headers: bearer(token),
      });
      expect(validate.statusCode).toBe(200);

      await buildUser(ctx.db, { username: 'pg-pending', is_approved: 0 });
      const approved = await ctx.app.inject({
        method: 'GET',
        url: '/api/users/public/approved',
        headers: bearer(token),
      });
      expect(approved.json().data.map((u: { username: string }) => u.username)).not.toContain('pg-pending');

      const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
      expect(out.statusCode).toBe(200);
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/auth/validate', headers: bearer(token) }))
          .statusCode,
      ).toBe(401);
    } finally {
      await ctx.close();
    }
  });
});
