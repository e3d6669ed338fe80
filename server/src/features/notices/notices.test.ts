import {
  NOTICE_DMS_PER_MEMBER_PER_HOUR,
  NOTICE_RETENTION_MS,
  NOTICE_TEXTS,
  NOTICES_PER_MEMBER_PER_HOUR,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { type ManualClock, manualClock } from '../../test/manual-clock.ts';
import { uploadFile } from '../files/test-helpers.ts';
import { ALICE, BOB, type MusicTestContext, startMusicApp } from '../music/test-helpers.ts';
import { NOTICE_PURGE_EVERY_MS } from './index.ts';
import { recordNotice } from './service.ts';

const HOUR_MS = 60 * 60_000;

async function shareWithNotices(c: TestContext, token: string, name: string) {
  const file = await uploadFile(c.app, token, name, Buffer.from(`bytes of ${name}`));
  const share = await c.app.inject({
    method: 'POST',
    url: `/api/files/${file.id}/share`,
    headers: bearer(token),
    payload: { accessLevel: 'public', notifyOnDownload: true },
  });
  expect(share.json().data.notifyOnDownload).toBe(true);
  return { file, token: share.json().data.token as string, id: share.json().data.id as string };
}

const download = (c: TestContext, shareToken: string, headers: Record<string, string> = {}) =>
  c.app.inject({ url: `/api/files/shared/${shareToken}/download`, headers });

describe('notices in the portal (issue 45)', () => {
  let ctx: TestContext;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = manualClock();
    // Only what the suite drives: other features' timers on this clock would run for every simulated day.
    ctx = await createTestApp({}, undefined, { clock, features: ['auth', 'users', 'files', 'notices'] });
  });
  afterAll(() => ctx.close());

  test('a download of a share that asks for notices is one notice (a HEAD or a link preview is none); read marks clear the unread count', async () => {
    const sharer = await ctx.signIn({ access_level: 'user' });
    const share = await shareWithNotices(ctx, sharer.token, 'report.pdf');
    const quiet = await uploadFile(ctx.app, sharer.token, 'quiet.txt', Buffer.from('q'));
    const quietShare = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/${quiet.id}/share`,
      headers: bearer(sharer.token),
      payload: { accessLevel: 'public' },
    });
    expect((await download(ctx, quietShare.json().data.token)).statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: 'HEAD', url: `/api/files/shared/${share.token}/download` })).statusCode,
    ).toBe(200);
    await download(ctx, share.token, { 'user-agent': 'Mozilla/5.0 (compatible; Discordbot/2.0)' });
    const unread0 = await ctx.app.inject({ url: '/api/notices/unread', headers: bearer(sharer.token) });
    expect(unread0.json().unread).toBe(0);

    expect((await download(ctx, share.token)).statusCode).toBe(200);
    const list = await ctx.app.inject({ url: '/api/notices', headers: bearer(sharer.token) });
    expect(list.json().unread).toBe(1);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        kind: 'share_download',
        text: NOTICE_TEXTS.shareDownloaded('report.pdf'),
        link: '/filesystem',
        readAt: null,
      }),
    ]);
    // Someone else's list is their own.
    const other = await ctx.signIn({ access_level: 'user' });
    expect((await ctx.app.inject({ url: '/api/notices', headers: bearer(other.token) })).json().data).toEqual(
      [],
    );
    const read = await ctx.app.inject({
      method: 'POST',
      url: '/api/notices/read',
      headers: bearer(sharer.token),
      payload: {},
    });
    expect(read.statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ url: '/api/notices/unread', headers: bearer(sharer.token) })).json().unread,
    ).toBe(0);
  });

  test('notices are kept 30 days, then purged on the clock', async () => {
    const member = await ctx.signIn({ access_level: 'user' });
    await recordNotice(
      ctx.db,
      { userId: member.userId, kind: 'share_download', text: 'old', link: null },
      new Date(),
    );
    const count = async () =>
      (await ctx.app.inject({ url: '/api/notices', headers: bearer(member.token) })).json().data.length;
    expect(await count()).toBe(1);
    // Days at once (the files' one-minute sweep would run 43,000 times on the way): the purge runs as it wakes.
    await clock.jump(NOTICE_RETENTION_MS - NOTICE_PURGE_EVERY_MS);
    expect(await count()).toBe(1);
    await clock.jump(2 * NOTICE_PURGE_EVERY_MS);
    expect(await count()).toBe(0);
  });

  test('a member gets at most NOTICES_PER_MEMBER_PER_HOUR notices an hour, and DMs only up to their own cap', async () => {
    const member = await ctx.signIn({ access_level: 'user' });
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/notices/settings',
      headers: bearer(member.token),
      payload: { discordDm: true },
    });
    // No bot on this app: the setting is kept, and the page says DMs cannot go out here.
    expect(put.json().data).toEqual({ discordDm: true, botAvailable: false });
    const now = new Date();
    for (let i = 0; i < NOTICES_PER_MEMBER_PER_HOUR + 5; i++) {
      await recordNotice(
        ctx.db,
        { userId: member.userId, kind: 'share_download', text: `n${i}`, link: null },
        now,
      );
    }
    const rows = await ctx.db
      .selectFrom('notices')
      .select('dm_state')
      .where('user_id', '=', member.userId)
      .execute();
    expect(rows.length).toBe(NOTICES_PER_MEMBER_PER_HOUR);
    expect(rows.filter((r) => r.dm_state === 'pending').length).toBe(NOTICE_DMS_PER_MEMBER_PER_HOUR);
    // An hour later the budget is back.
    const later = new Date(now.getTime() + HOUR_MS + 1);
    expect(
      await recordNotice(
        ctx.db,
        { userId: member.userId, kind: 'share_download', text: 'x', link: null },
        later,
      ),
    ).not.toBeNull();
  });

  test('bad input on the notice routes is a 4xx with a message', async () => {
    const member = await ctx.signIn({ access_level: 'user' });
    for (const payload of [{ ids: 'x' }, { ids: ['%%'] }, { ids: Array(200).fill('a') }]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/notices/read',
        headers: bearer(member.token),
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.length).toBeGreaterThan(3);
    }
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/notices/settings',
      headers: bearer(member.token),
      payload: { discordDm: 'yes' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe.skipIf(process.env.TEST_DB === 'postgres')(
  'notices as Discord direct messages, through the bot',
  () => {
    let t: MusicTestContext;
    beforeAll(async () => {
      t = await startMusicApp({ PUBLIC_URL: 'https://portal.example.test' });
    });
    afterAll(() => t?.closeAll());

    test('a member who allows it gets a DM from the bot for a download; one who does not, or whom Discord refuses, gets none', async () => {
      const settings = await t.app.inject({
        method: 'PUT',
        url: '/api/notices/settings',
        headers: bearer(t.alice.token),
        payload: { discordDm: true },
      });
      expect(settings.json().data).toEqual({ discordDm: true, botAvailable: true });
      const alices = await shareWithNotices(t, t.alice.token, 'holiday.jpg');
      const bobs = await shareWithNotices(t, t.bob.token, 'bob.txt'); // Bob has not allowed DMs
      expect((await download(t, alices.token)).statusCode).toBe(200);
      expect((await download(t, bobs.token)).statusCode).toBe(200);

      const dm = await eventually(() => {
        const sent = t.discord.interactions.dms();
        if (sent.length === 0) throw new Error('no DM yet');
        return sent;
      });
      expect(dm).toEqual([
        {
          userId: ALICE.id,
          content: `${NOTICE_TEXTS.shareDownloaded('holiday.jpg')}\nhttps://portal.example.test/filesystem`,
          body: expect.objectContaining({ allowed_mentions: { parse: [] } }),
        },
      ]);
      const state = await eventually(async () => {
        const rows = await t.db.selectFrom('notices').select(['user_id', 'dm_state']).execute();
        if (rows.some((r) => r.dm_state === 'pending' || r.dm_state === 'sending'))
          throw new Error('still sending');
        return rows;
      });
      expect(state).toEqual(
        expect.arrayContaining([
          { user_id: ALICE.id, dm_state: 'sent' },
          { user_id: BOB.id, dm_state: 'none' },
        ]),
      );

      // Discord refuses (the member's privacy settings): marked failed, never retried, the portal still has it.
      t.discord.interactions.dmsRefusedBy.add(ALICE.id);
      expect((await download(t, alices.token)).statusCode).toBe(200);
      await eventually(async () => {
        const failed = await t.db
          .selectFrom('notices')
          .select('id')
          .where('dm_state', '=', 'failed')
          .execute();
        if (failed.length !== 1) throw new Error('not failed yet');
      });
      expect(t.discord.interactions.dms()).toHaveLength(1);
      const list = await t.app.inject({ url: '/api/notices', headers: bearer(t.alice.token) });
      expect(list.json().unread).toBe(2);
    });
  },
);
