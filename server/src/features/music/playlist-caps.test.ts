import { randomUUID } from 'node:crypto';
import { MUSIC_TEXTS, PLAYLIST_MAX_SONGS, PLAYLISTS_PER_MEMBER_MAX, type Playlist } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { api, GUILD_ID } from './test-helpers.ts';

/**
 * Issue 27: the per-member playlist cap and the per-playlist song cap are checked and taken in one step,
 * on SQLite and (with TEST_DB=postgres) PostgreSQL alike: parallel requests at the edge of an allowance
 * never pass it (the count-then-insert let 20 parallel creates at 95 all through).
 */
type Res<T> = { success: boolean; data: T; error: string; code?: string };
const PARALLEL = 20;
const FREE = 5;

describe('playlist caps under parallel requests (issue 27)', () => {
  let t: TestContext;
  let alice: string;
  const aliceId = '500000000000000201';
  beforeAll(async () => {
    t = await createTestApp();
    alice = (await t.signIn({ discord_id: aliceId, username: 'alice' })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  test(`${PARALLEL} parallel creates with ${FREE} playlists left: ${FREE} made, the rest 409, never more than the cap`, async () => {
    const at = new Date().toISOString();
    await t.db
      .insertInto('music_playlists')
      .values(
        Array.from({ length: PLAYLISTS_PER_MEMBER_MAX - FREE }, (_, i) => ({
          id: randomUUID(),
          guild_id: GUILD_ID,
          name: `Existing ${i}`,
          is_public: 0,
          created_by: aliceId,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        api<Res<{ playlist: Playlist }>>(t, alice, 'POST', `/api/music/playlists/${GUILD_ID}`, {
          name: `Parallel ${i}`,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(FREE);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(PARALLEL - FREE);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: MUSIC_TEXTS.tooManyPlaylists, code: 'TOO_MANY_PLAYLISTS' });
    }
    const row = await t.db
      .selectFrom('music_playlists')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('created_by', '=', aliceId)
      .where('guild_id', '=', GUILD_ID)
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(PLAYLISTS_PER_MEMBER_MAX);
  });

  test(`${PARALLEL} parallel song adds with ${FREE} places left: ${FREE} added at distinct positions, the rest 409`, async () => {
    await t.db.deleteFrom('music_playlists').where('created_by', '=', aliceId).execute();
    const made = await api<Res<{ playlist: Playlist }>>(
      t,
      alice,
      'POST',
      `/api/music/playlists/${GUILD_ID}`,
      {
        name: 'Nearly full',
      },
    );
    const playlistId = made.body.data.playlist.id;
    const at = new Date().toISOString();
    await t.db
      .insertInto('music_playlist_songs')
      .values(
        Array.from({ length: PLAYLIST_MAX_SONGS - FREE }, (_, i) => ({
          id: randomUUID(),
          playlist_id: playlistId,
          song_key: `existing${i}`,
          platform: 'youtube' as const,
          title: `Existing ${i}`,
          uploader: '',
          duration: 60,
          url: `https://www.youtube.com/watch?v=existing${String(i).padStart(3, '0')}`,
          thumbnail: null,
          position: i,
          added_at: at,
        })),
      )
      .execute();
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => {
        const id = `parallel${String(i).padStart(3, '0')}`;
        return api<Res<unknown>>(t, alice, 'POST', `/api/music/playlist/${playlistId}/songs`, {
          songInfo: { youtube_id: id, title: `Parallel ${i}`, url: `https://youtu.be/${id}`, duration: 60 },
        });
      }),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(FREE);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: MUSIC_TEXTS.playlistFull, code: 'PLAYLIST_FULL' });
    }
    const rows = await t.db
      .selectFrom('music_playlist_songs')
      .select('position')
      .where('playlist_id', '=', playlistId)
      .execute();
    expect(rows).toHaveLength(PLAYLIST_MAX_SONGS);
    expect(new Set(rows.map((r) => Number(r.position))).size).toBe(PLAYLIST_MAX_SONGS);
  });
});
