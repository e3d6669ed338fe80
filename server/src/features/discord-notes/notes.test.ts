import {
  DISCORD_NOTE_TEXTS,
  DISCORD_NOTES_DEFAULTS,
  DISCORD_TEXTS,
  type DiscordNotesSettingsBody,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import type { PostedMessage } from '../../test/fake-discord-bot/index.ts';
import { uploadFile } from '../files/test-helpers.ts';
import {
  ALICE,
  addToLibrary,
  api,
  GUILD_ID,
  type MusicTestContext,
  startMusicApp,
  tone,
} from '../music/test-helpers.ts';

const PUBLIC_URL = 'https://portal.example.test';
const GENERAL = '400000000000000030';
const ANNOUNCEMENTS = '400000000000000031';
const ALL_ON = { share: true, lobby: true, song: true };

/**
 * Channel notes (issue 44) through the real discord.js bot and the fake Discord: off by default, a note
 * per switched-on event in the chosen channel, only for public password-less shares, never mentioning
 * anyone, and the admin's test note.
 */
describe.skipIf(process.env.TEST_DB === 'postgres')('channel notes', () => {
  let t: MusicTestContext;
  let admin = '';
  const files: Record<string, string> = {};

  /** The notes the bot posted in a channel so far (the now-playing message is not one). */
  const notesIn = (channelId: string): PostedMessage[] =>
    t.discord.interactions.messages.filter(
      (m) => m.channelId === channelId && !String(m.body.content).startsWith(DISCORD_TEXTS.nowPlayingTitle),
    );
  const share = (fileId: string, body: Record<string, unknown>) =>
    api<{ data: { token: string; url: string } }>(
      t,
      t.alice.token,
      'POST',
      `/api/files/${fileId}/share`,
      body,
    );
  const save = (body: DiscordNotesSettingsBody) => api(t, admin, 'PUT', '/api/admin/discord-notes', body);
  const queued = async () => (await t.db.selectFrom('discord_notes_outbox').select('id').execute()).length;

  beforeAll(async () => {
    t = await startMusicApp({ PUBLIC_URL });
    admin = (await t.signIn({ discord_id: '500000000000000009', username: 'root', access_level: 'admin' }))
      .token;
    files.report = (await uploadFile(t.app, t.alice.token, 'report.pdf', Buffer.from('twelve bytes'))).id;
    files.ping = (await uploadFile(t.app, t.alice.token, '@everyone look.txt', Buffer.from('hi'))).id;
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  test('off by default: no channel, every event off, and a public share queues and posts nothing', async () => {
    const state = await api<{ data: unknown }>(t, admin, 'GET', '/api/admin/discord-notes');
    expect(state.body.data).toEqual({ settings: DISCORD_NOTES_DEFAULTS, notConfigured: null });
    expect((await share(files.report ?? '', { accessLevel: 'public' })).status).toBe(201);
    // The note would be queued before the share's answer: nothing was.
    expect(await queued()).toBe(0);
    expect(notesIn(GENERAL)).toEqual([]);
    // Members other than admins cannot read or change the settings.
    expect((await api(t, t.alice.token, 'GET', '/api/admin/discord-notes')).status).toBe(403);
  });

  test('the channels offered are the text channels of the server, as the bot sees them', async () => {
    const res = await api<{ data: { guildName: string; channels: { id: string; name: string }[] } }>(
      t,
      admin,
      'GET',
      '/api/admin/discord-notes/channels',
    );
    expect(res.body.data).toMatchObject({
      guildName: 'Guildhall',
      channels: [
        { id: GENERAL, name: 'general' },
        { id: ANNOUNCEMENTS, name: 'announcements' },
      ],
      problem: null,
    });
  });

  test('"Send test note" needs a channel, then posts in it at once, mentioning nobody', async () => {
    const none = await api<{ error: string }>(t, admin, 'POST', '/api/admin/discord-notes/test');
    expect(none).toMatchObject({ status: 400, body: { error: DISCORD_NOTE_TEXTS.noChannel } });
    expect((await save({ channelId: ANNOUNCEMENTS, events: DISCORD_NOTES_DEFAULTS.events })).status).toBe(
      200,
    );
    const sent = await api<{ message: string }>(t, admin, 'POST', '/api/admin/discord-notes/test');
    expect(sent).toMatchObject({ status: 200, body: { message: DISCORD_NOTE_TEXTS.testSent } });
    const [note] = notesIn(ANNOUNCEMENTS);
    expect(note?.body).toEqual({ content: DISCORD_NOTE_TEXTS.test('root'), allowed_mentions: { parse: [] } });
  });

  test('a note for public password-less shares only, in the chosen channel, with name, size, sharer and link; mentioning nobody', async () => {
    expect((await save({ channelId: GENERAL, events: ALL_ON })).status).toBe(200);
    const usersOnly = await share(files.report ?? '', { accessLevel: 'user' });
    const withPassword = await share(files.report ?? '', { accessLevel: 'public', password: 'open sesame' });
    expect([usersOnly.status, withPassword.status]).toEqual([201, 201]);
    const open = await share(files.report ?? '', { accessLevel: 'public' });
    const ping = await share(files.ping ?? '', { accessLevel: 'public' });
    const posted = await eventually(() => {
      const n = notesIn(GENERAL);
      if (n.length < 2) throw new Error(`${n.length} notes so far`);
      return n;
    });
    // Notes are posted in the order they were queued: the two before were never queued.
    expect(posted.map((m) => m.body)).toEqual([
      {
        content: DISCORD_NOTE_TEXTS.shared('alice', 'report.pdf', '12 Bytes', open.body.data.url),
        allowed_mentions: { parse: [] },
      },
      {
        content: DISCORD_NOTE_TEXTS.shared('alice', '@everyone look.txt', '2 Bytes', ping.body.data.url),
        allowed_mentions: { parse: [] },
      },
    ]);
    expect(open.body.data.url).toBe(`${PUBLIC_URL}/shared/${open.body.data.token}`);
    await eventually(async () => expect(await queued()).toBe(0));
  });

  test('a Pictionary lobby opened on the web is noted with a Join button to it', async () => {
    const before = notesIn(GENERAL).length;
    const res = await api<{ game: { id: string } }>(t, t.bob.token, 'POST', '/api/games/pictionary/join');
    expect(res.status).toBe(200);
    const note = await eventually(() => {
      const n = notesIn(GENERAL)[before];
      if (!n) throw new Error('no lobby note yet');
      return n;
    });
    expect(note.body).toEqual({
      content: DISCORD_NOTE_TEXTS.pictionaryLobby('bob'),
      components: [
        {
          type: 1,
          components: [
            {
              type: 2,
              style: 5,
              label: DISCORD_TEXTS.join,
              url: `${PUBLIC_URL}/minigames/pictionary?join=${res.body.game.id}`,
            },
          ],
        },
      ],
      allowed_mentions: { parse: [] },
    });
    await api(t, t.bob.token, 'POST', `/api/games/pictionary/${res.body.game.id}/leave`);
  });

  test('a song requested on the panel is noted with its title and who asked', async () => {
    const url = await addToLibrary(t, t.alice.token, 'tone 440.wav', await tone(440, 5));
    const before = notesIn(GENERAL).length;
    const played = await api(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url });
    expect(played.status).toBe(200);
    const note = await eventually(() => {
      const n = notesIn(GENERAL)[before];
      if (!n) throw new Error('no song note yet');
      return n;
    });
    expect(note.body).toEqual({
      content: DISCORD_NOTE_TEXTS.song(ALICE.username, 'tone 440'),
      allowed_mentions: { parse: [] },
    });
  });

  test('a lobby opened by /pictionary is noted, except in the channel where the command already posted it', async () => {
    const at = (userId: string, channelId: string) => ({ guildId: GUILD_ID, channelId, userId });
    const lobbyNotes = () => notesIn(GENERAL).filter((m) => m.body.components !== undefined);
    const before = lobbyNotes().length;
    // From another channel: the notes channel gets the note, with the Join button to that lobby.
    const elsewhere = t.discord.slash(at(ALICE.id, ANNOUNCEMENTS), 'pictionary');
    const note = await eventually(() => {
      const n = lobbyNotes()[before];
      if (!n) throw new Error('no lobby note yet');
      return n;
    });
    const invite = await eventually(() => {
      const o = elsewhere.original();
      if (!o) throw new Error('no answer yet');
      return JSON.stringify(o.components);
    });
    const url = /"url":"([^"]+)"/.exec(JSON.stringify(note.body.components))?.[1] ?? '';
    expect(url).toMatch(/\/minigames\/pictionary\?join=/);
    expect(invite).toContain(url);
    await api(
      t,
      t.alice.token,
      'POST',
      `/api/games/pictionary/${new URL(url).searchParams.get('join')}/leave`,
    );

    // From the notes channel itself: the command's invite is there already, no note follows. A share
    // noted afterwards (queued before its answer) shows the queue has moved past it.
    const here = t.discord.slash(at(t.bob.userId, GENERAL), 'pictionary');
    await eventually(() => expect(here.original()).not.toBeNull());
    const shared = notesIn(GENERAL).length;
    expect((await share(files.report ?? '', { accessLevel: 'public' })).status).toBe(201);
    await eventually(() => expect(notesIn(GENERAL).length).toBe(shared + 1));
    expect(lobbyNotes()).toHaveLength(before + 1);
  });

  test('switched off again, nothing more is noted', async () => {
    expect((await save({ channelId: GENERAL, events: DISCORD_NOTES_DEFAULTS.events })).status).toBe(200);
    const before = t.discord.interactions.messages.length;
    expect((await share(files.report ?? '', { accessLevel: 'public' })).status).toBe(201);
    expect(await queued()).toBe(0);
    expect(t.discord.interactions.messages.length).toBe(before);
  });

  test('bad settings are refused with a message', async () => {
    const bad = await api<{ error: string }>(t, admin, 'PUT', '/api/admin/discord-notes', {
      channelId: 'general',
      events: ALL_ON,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/channelId/);
  });
});

/** Without PUBLIC_URL a note could not link anywhere: the card says so and the test note is refused. */
describe.skipIf(process.env.TEST_DB === 'postgres')('channel notes without PUBLIC_URL', () => {
  let t: MusicTestContext;
  beforeAll(async () => {
    t = await startMusicApp();
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  test('the state names what is missing; the test note is refused (409) with it', async () => {
    const admin = (
      await t.signIn({ discord_id: '500000000000000009', username: 'root', access_level: 'admin' })
    ).token;
    const state = await api<{ data: { notConfigured: string } }>(t, admin, 'GET', '/api/admin/discord-notes');
    expect(state.body.data.notConfigured).toBe(DISCORD_NOTE_TEXTS.noPublicUrl);
    const sent = await api<{ error: string }>(t, admin, 'POST', '/api/admin/discord-notes/test');
    expect(sent).toMatchObject({ status: 409, body: { error: DISCORD_NOTE_TEXTS.noPublicUrl } });
  });
});
