import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { uploadFile } from './test-helpers.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({}, undefined, { features: ['auth', 'files'] });
});
afterEach(() => ctx.close());

async function ticketFor(token: string): Promise<string> {
  const file = await uploadFile(ctx.app, token, 'ticketed.txt', Buffer.from('hello'));
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/files/${file.id}/download-ticket`,
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { url: string } }).data.url;
}

/** Issue 15: a download ticket is only as alive as the session that asked for it. */
describe('download tickets bound to their session', () => {
  it('works while the session lives', async () => {
    const { token } = await ctx.signIn({ access_level: 'user' });
    const url = await ticketFor(token);
    expect((await ctx.app.inject({ url })).statusCode).toBe(200);
  });

  it('is refused at once after its owner logs out', async () => {
    const { token } = await ctx.signIn({ access_level: 'user' });
    const url = await ticketFor(token);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(403);
  });

  it('is refused at once after its owner is unapproved', async () => {
    const { token, userId } = await ctx.signIn({ access_level: 'user' });
    const url = await ticketFor(token);
    await ctx.db.updateTable('users').set({ is_approved: 0 }).where('discord_id', '=', userId).execute();
    expect((await ctx.app.inject({ url })).statusCode).toBe(403);
  });
});
