import { MUSIC_TEXTS, PLAYLISTS_PAGE_SIZE, PLAYLISTS_PER_MEMBER_MAX, type Playlist } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { api, GUILD_ID } from './test-helpers.ts';

/**
 * Issue 26 on playlists, on SQLite and (with TEST_DB=postgres) PostgreSQL alike: names follow the
 * file-name character rules, song info refuses NUL and other control characters, durations are
 * range-checked (PostgreSQL answered 500 to both), the list is paginated and capped per member.
 */
type Res<T> = { success: boolean; data: T; error: string; code?: string };

describe('playlist input (issue 26)', () => {
  let t: TestContext;
  let alice: string;
  let bob: string;
  let playlistId: string;
  beforeAll(async () => {
    t = await createTestApp();
    alice = (await t.signIn({ discord_id: '500000000000000101', username: 'alice' })).token;
    bob = (await t.signIn({ discord_id: '500000000000000102', username: 'bob' })).token;
    const made = await api<Res<{ playlist: Playlist }>>(
      t,
      alice,
      'POST',
      `/api/music/playlists/${GUILD_ID}`,
      {
        name: 'Evening',
      },
    );
    playlistId = made.body.data.playlist.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (name: unknown, token = alice) =>
    api<Res<{ playlist: Playlist }>>(t, token, 'POST', `/api/music/playlists/${GUILD_ID}`, { name });

  test('names with control, NUL, bidi-override, zero-width characters or lone surrogates are refused with a 400', async () => {
    for (const name of [
      'a\u0000b',
      'tab\there',
      'evil\u202egpj',
      'zero\u200bwidth',
      'lone \ud800',
      'bell\u0007',
    ]) {
      const res = await create(name);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.success).toBe(false);
      // The app-wide control-character guard (issue 26) or the playlist name rule: either names the field.
      expect(res.body.error).toMatch(/Playlist name must|body\.name/);
    }
    // Renaming follows the same rules.
    const rename = await api<Res<unknown>>(t, alice, 'PUT', `/api/music/playlist/${playlistId}`, {
      name: 'x\u0000',
    });
    expect(rename.status).toBe(400);
    // What people write is fine: "/" (AC/DC), emoji with joiners, other scripts, NFC-normalised.
    for (const name of ['AC/DC hits', '👨‍👩‍👧 family', 'موسيقى', 'Cafe\u0301']) {
      const res = await create(name);
      expect(res.status, name).toBe(200);
      if (name.startsWith('Cafe')) expect(res.body.data.playlist.name).toBe('Café');
    }
    expect((await create('   ')).body.error).toBe(MUSIC_TEXTS.playlistNameRequired);
  });

  test('song info: NUL and control characters in any text field, and out-of-range durations, are a 400', async () => {
    const add = (songInfo: Record<string, unknown>) =>
      api<Res<unknown>>(t, alice, 'POST', `/api/music/playlist/${playlistId}/songs`, { songInfo });
    const ok = {
      youtube_id: 'dQw4w9WgXcQ',
      title: 'Song',
      url: 'https://youtu.be/dQw4w9WgXcQ',
      duration: 212,
    };
    for (const bad of [
      { ...ok, youtube_id: 'dQw4\u0000' },
      { ...ok, title: 'So\u0000ng' },
      { ...ok, uploader: 'Up\u0000loader' },
      { ...ok, thumbnail: 'https://i.ytimg.com/a\u0000.jpg' },
      { ...ok, title: 'rtl\u202eevil' },
      { ...ok, duration: 9007199254740991 },
      { ...ok, duration: 86_401 },
      { ...ok, duration: -1 },
    ]) {
      const res = await add(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.length).toBeGreaterThan(0);
    }
    expect((await add(ok)).status).toBe(200);
  });

  test('the list is paginated (newest change first) and each member has at most 100 playlists per server', async () => {
    // Bob fills his allowance; the next one is refused.
    for (let i = 0; i < PLAYLISTS_PER_MEMBER_MAX; i++) {
      expect((await create(`Bob ${i}`, bob)).status).toBe(200);
    }
    const over = await create('One too many', bob);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ error: MUSIC_TEXTS.tooManyPlaylists, code: 'TOO_MANY_PLAYLISTS' });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/music/playlists/${GUILD_ID}${cursor ? `?cursor=${cursor}` : ''}`;
      const page = await api<Res<{ playlists: Playlist[]; nextCursor: string | null }>>(t, bob, 'GET', url);
      expect(page.status).toBe(200);
      expect(page.body.data.playlists.length).toBeLessThanOrEqual(PLAYLISTS_PAGE_SIZE);
      seen.push(...page.body.data.playlists.map((p) => p.id));
      cursor = page.body.data.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(Math.ceil(PLAYLISTS_PER_MEMBER_MAX / PLAYLISTS_PAGE_SIZE));
    expect(new Set(seen).size).toBe(seen.length); // no playlist twice across pages
    expect(seen).toHaveLength(PLAYLISTS_PER_MEMBER_MAX); // Bob's own (Alice's are private)
    const bad = await api<Res<unknown>>(t, bob, 'GET', `/api/music/playlists/${GUILD_ID}?cursor=nonsense`);
    expect(bad.status).toBe(400);
    const badLimit = await api<Res<unknown>>(t, bob, 'GET', `/api/music/playlists/${GUILD_ID}?limit=500`);
    expect(badLimit.status).toBe(400);
  });
});
