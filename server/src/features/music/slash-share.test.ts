import { DISCORD_EPHEMERAL, TEXTS } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import type { FakeInteraction } from '../../test/fake-discord-bot/index.ts';
import { uploadFile } from '../files/test-helpers.ts';
import { ALICE, BOB, GUILD_ID, type MusicTestContext, startMusicApp } from './test-helpers.ts';

const PUBLIC_URL = 'https://portal.example.test';
const TEXT_CHANNEL_ID = '400000000000000030';
const CAROL = { id: '500000000000000003', username: 'carol' }; // a viewer
const DAVE = { id: '500000000000000004', username: 'dave' }; // unknown to the portal
const at = (userId: string) => ({ guildId: GUILD_ID, channelId: TEXT_CHANNEL_ID, userId });

/** What the member sees: the original response unless removed, else the last follow-up. */
async function seen(i: FakeInteraction) {
  return eventually(
    () => {
      const deleted = i.responses.some((r) => r.kind === 'delete');
      const shown = deleted ? i.followups().at(-1) : (i.original() ?? i.followups().at(-1));
      if (!shown) throw new Error(`no visible answer yet: ${JSON.stringify(i.responses)}`);
      return { content: String(shown.content ?? ''), flags: Number(shown.flags ?? 0) };
    },
    { interval: 20 },
  );
}

async function choicesFor(t: MusicTestContext, userId: string, typed: string) {
  const i = t.discord.autocomplete(at(userId), 'share', 'file', typed);
  const ack = await eventually(() => {
    const a = i.ack();
    if (!a) throw new Error('no autocomplete answer yet');
    return a;
  });
  expect(ack.type).toBe(8);
  return ack.body.choices as { name: string; value: string }[];
}

/**
 * `/share <file>` (issue 44) through the fake Discord and the real discord.js bot: autocomplete from the
 * member's own files, an ephemeral link made by the files feature's share service that a signed-out
 * browser opens, and the portal's refusals.
 */
describe.skipIf(process.env.TEST_DB === 'postgres')('/share in Discord', () => {
  let t: MusicTestContext;
  const seam: { deferAfterMs?: number } = {};
  const files: Record<string, string> = {};

  beforeAll(async () => {
    t = await startMusicApp(
      { PUBLIC_URL },
      (discord) => {
        discord.addMember(GUILD_ID, CAROL);
        discord.addMember(GUILD_ID, DAVE);
      },
      { featureOptions: { music: { discord: seam } } },
    );
    await t.signIn({ discord_id: CAROL.id, username: CAROL.username, access_level: 'viewer' });
    files.report = (
      await uploadFile(t.app, t.alice.token, 'report-2026.pdf', Buffer.from('alice report'))
    ).id;
    files.notes = (await uploadFile(t.app, t.alice.token, 'notes.txt', Buffer.from('alice notes'))).id;
    files.bobs = (await uploadFile(t.app, t.bob.token, 'bob-report.pdf', Buffer.from('bob report'))).id;
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  test('the command is registered with an autocompleted file option', async () => {
    const share = await eventually(() => {
      const c = t.discord.interactions.commands(GUILD_ID).find((x) => x.name === 'share');
      if (!c) throw new Error('not registered yet');
      return c;
    });
    expect(share.options).toEqual([
      expect.objectContaining({ name: 'file', required: true, autocomplete: true }),
    ]);
  });

  test("autocomplete offers the member's own files by name, never another member's", async () => {
    expect(await choicesFor(t, ALICE.id, 'rep')).toEqual([{ name: 'report-2026.pdf', value: files.report }]);
    expect((await choicesFor(t, ALICE.id, '')).map((c) => c.name)).toEqual(['notes.txt', 'report-2026.pdf']);
    expect(await choicesFor(t, BOB.id, 'rep')).toEqual([{ name: 'bob-report.pdf', value: files.bobs }]);
    expect(await choicesFor(t, DAVE.id, 'rep')).toEqual([]);
    expect(await choicesFor(t, CAROL.id, 'rep')).toEqual([]);
  });

  test('/share answers the member alone with a public link that a signed-out browser opens', async () => {
    const i = t.discord.slash(at(ALICE.id), 'share', { file: files.report ?? '' });
    const reply = await seen(i);
    expect(reply.flags & DISCORD_EPHEMERAL).toBe(DISCORD_EPHEMERAL);
    const m =
      /^Share link for \*\*report-2026\.pdf\*\*: (https:\/\/portal\.example\.test\/shared\/([\w-]+))$/.exec(
        reply.content,
      );
    expect(m, reply.content).not.toBeNull();
    const token = m?.[2] ?? '';
    const row = await t.db
      .selectFrom('file_shares')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      file_id: files.report,
      created_by: ALICE.id,
      access_level: 'public',
      password_hash: null,
      expires_at: null,
    });
    // Signed out: the share's info and its bytes.
    const info = await t.app.inject({ url: `/api/files/shared/${token}` });
    expect(info.statusCode).toBe(200);
    expect(info.json().data.name).toBe('report-2026.pdf');
    const download = await t.app.inject({ url: `/api/files/shared/${token}/download` });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('alice report');
    expect(i.responses.filter((r) => r.kind === 'callback')).toHaveLength(1);
  });

  test('a name typed out works; deferred, the "thinking…" is only the caller\'s too', async () => {
    seam.deferAfterMs = 0;
    onTestFinished(() => {
      seam.deferAfterMs = undefined;
    });
    const i = t.discord.slash(at(ALICE.id), 'share', { file: 'NOTES.txt' });
    const reply = await seen(i);
    expect(reply.content).toMatch(
      /^Share link for \*\*notes\.txt\*\*: https:\/\/portal\.example\.test\/shared\//,
    );
    expect(i.ack()?.type).toBe(5);
    expect(Number(i.ack()?.body.flags ?? 0) & DISCORD_EPHEMERAL).toBe(DISCORD_EPHEMERAL);
    expect(i.responses.map((r) => r.kind)).toEqual(['callback', 'edit']);
  });

  test("refusals: another member's file, a viewer, a member unknown to the portal; nothing is shared", async () => {
    const before = await t.db.selectFrom('file_shares').select('id').execute();
    const cases = [
      { who: ALICE.id, file: files.bobs ?? '', text: 'You have no file by that name.' },
      { who: ALICE.id, file: 'bob-report.pdf', text: 'You have no file by that name.' },
      { who: CAROL.id, file: files.report ?? '', text: TEXTS.insufficientLevel('user') },
      { who: DAVE.id, file: files.report ?? '', text: TEXTS.notApproved },
    ];
    for (const c of cases) {
      const reply = await seen(t.discord.slash(at(c.who), 'share', { file: c.file }));
      expect(reply.content).toBe(c.text);
      expect(reply.flags & DISCORD_EPHEMERAL).toBe(DISCORD_EPHEMERAL);
    }
    expect(await t.db.selectFrom('file_shares').select('id').execute()).toHaveLength(before.length);
  });
});
