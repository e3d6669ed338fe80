import type { REST } from '@discordjs/rest';
import { DISCORD_NOTE_TEXTS, DISCORD_NOTES_DEFAULTS } from '@guildhall/common';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { noteFileShared, noteLobbyOpened, noteSongRequested } from './index.ts';
import { NotePoster } from './poster.ts';
import { oldestNotes, takeNote, writeSettingsValue } from './repo.ts';
import { enqueue, loadSettings, type NotePayload, saveSettings } from './service.ts';

const GENERAL = '400000000000000030';
const OTHER = '400000000000000031';
const NOW = Date.parse('2026-11-29T01:00:00Z');

/**
 * The notes' settings and queue on the database (SQLite and PostgreSQL): a note is queued only for an event
 * switched on with a channel chosen, never twice where a command already posted it, and taken off the queue
 * once however many drains race for it.
 */
describe('channel notes: settings and queue', () => {
  let t: TestContext;
  let alice = '';
  const queued = async (): Promise<NotePayload[]> =>
    (await oldestNotes(t.db, 100)).map((n) => JSON.parse(n.payload) as NotePayload);

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { racy: true, features: ['auth', 'users', 'discord-notes'] });
    alice = (await t.signIn({ username: 'alice' })).userId;
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.db.deleteFrom('discord_notes_outbox').execute();
  });

  test('the defaults until saved (and when the saved value is unreadable); a saved value reads back', async () => {
    expect(await loadSettings(t.db)).toEqual(DISCORD_NOTES_DEFAULTS);
    const saved = { channelId: GENERAL, events: { share: true, lobby: false, song: true } };
    await saveSettings(t.db, saved);
    expect(await loadSettings(t.db)).toEqual(saved);
    await writeSettingsValue(t.db, '{"channelId": 7');
    expect(await loadSettings(t.db)).toEqual(DISCORD_NOTES_DEFAULTS);
  });

  test('nothing is queued while an event is off or no channel is chosen', async () => {
    await saveSettings(t.db, { channelId: null, events: { share: true, lobby: true, song: true } });
    await noteFileShared(t.db, { sharerId: alice, name: 'a.txt', size: 1, path: '/shared/x', now: NOW });
    await saveSettings(t.db, { channelId: GENERAL, events: { share: false, lobby: false, song: false } });
    await noteFileShared(t.db, { sharerId: alice, name: 'a.txt', size: 1, path: '/shared/x', now: NOW });
    await noteLobbyOpened(t.db, { game: 'pictionary', hostId: alice, path: '/p', now: NOW });
    await noteSongRequested(t.db, { who: 'alice', title: 'Song', more: 0, now: NOW });
    expect(await queued()).toEqual([]);
  });

  test('switched on, each event queues its note in order; a command’s invite in the notes channel is not repeated', async () => {
    await saveSettings(t.db, { channelId: GENERAL, events: { share: true, lobby: true, song: true } });
    await noteFileShared(t.db, { sharerId: alice, name: 'a.txt', size: 12, path: '/shared/tok', now: NOW });
    await noteLobbyOpened(t.db, {
      game: 'tictactoe',
      hostId: alice,
      path: '/t',
      now: NOW + 1,
      postedIn: GENERAL,
    });
    await noteLobbyOpened(t.db, {
      game: 'pictionary',
      hostId: alice,
      path: '/p',
      now: NOW + 2,
      postedIn: OTHER,
    });
    await noteSongRequested(t.db, { who: 'Alice A.', title: 'Song', more: 2, now: NOW + 3 });
    expect(await queued()).toEqual([
      { kind: 'share', who: 'alice', name: 'a.txt', size: 12, path: '/shared/tok' },
      { kind: 'lobby', game: 'pictionary', who: 'alice', path: '/p' },
      { kind: 'song', who: 'Alice A.', title: 'Song', more: 2 },
    ]);
  });

  test('a queued note is taken once, however many drains race for it', async () => {
    await saveSettings(t.db, { channelId: GENERAL, events: { share: false, lobby: false, song: true } });
    await noteSongRequested(t.db, { who: 'alice', title: 'Once', more: 0, now: NOW });
    const [note] = await oldestNotes(t.db, 10);
    const taken = await Promise.all([1, 2, 3].map(() => takeNote(t.db, note?.id ?? '')));
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect(await queued()).toEqual([]);
  });

  test('only the instance holding the bot posts: elsewhere, or with no bot logged in, the note waits in the queue', async () => {
    await saveSettings(t.db, { channelId: GENERAL, events: { share: false, lobby: false, song: true } });
    let holder = false;
    const posted: { route: string; body: unknown }[] = [];
    const rest = {
      post: async (route: string, o: { body: unknown }) => {
        posted.push({ route, body: o.body });
        return {};
      },
    } as unknown as REST;
    const poster = new NotePoster({
      db: t.db,
      log: t.app.log,
      publicUrl: 'https://portal.example.test',
      isHolder: () => holder,
    });
    await enqueue(t.db, { kind: 'song', who: 'alice', title: 'Held', more: 0 }, NOW);
    poster.attach(rest); // the bot logged in here, but another instance holds the lease now
    await poster.settled();
    expect(posted).toEqual([]);
    expect(await queued()).toHaveLength(1);

    holder = true;
    poster.kick();
    await poster.settled();
    expect(posted).toEqual([
      {
        route: `/channels/${GENERAL}/messages`,
        body: { content: DISCORD_NOTE_TEXTS.song('alice', 'Held'), allowed_mentions: { parse: [] } },
      },
    ]);
    expect(await queued()).toEqual([]);

    poster.attach(null); // the bot logged out here: nothing to post with
    await enqueue(t.db, { kind: 'song', who: 'alice', title: 'Later', more: 0 }, NOW + 1);
    poster.kick();
    await poster.settled();
    expect(posted).toHaveLength(1);
    expect(await queued()).toHaveLength(1);
  });
});
