import { MUSIC_HISTORY_MAX, type MusicHistoryResponse, type Song } from '@guildhall/common';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { manualClock } from '../../../test/manual-clock.ts';
import { api } from '../test-helpers.ts';
import { createHistoryStore, type HistoryStore } from './store.ts';

const GUILD = '400000000000000001';
const OTHER = '400000000000000002';

const song = (n: number, who = 'alice'): Song => ({
  id: `file-${n}`,
  youtube_id: `file-${n}`,
  title: n % 2 ? `Morning Tune ${n}` : `Evening Song ${n}`,
  uploader: n % 3 ? 'Fixture Band' : 'Other Artist',
  duration: 120,
  url: `library:file-${n}`,
  thumbnail: null,
  platform: 'library',
  entryId: `entry-${n}`,
  requestedBy: { id: `5000000000000000${n % 10}`, avatar: null, displayName: who },
});

/**
 * Issue 48: the last 200 songs played per server, with requester and time, newest first and searchable;
 * on SQLite and PostgreSQL (the trim and the order are SQL).
 */
describe('music history (issue 48)', () => {
  let t: TestContext;
  let history: HistoryStore;
  const clock = manualClock(Date.parse('2026-11-28T20:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { features: ['auth', 'music'] });
    history = createHistoryStore(t.db, clock, pino({ level: 'silent' }));
    for (let n = 1; n <= MUSIC_HISTORY_MAX + 5; n++) {
      await history.record(GUILD, song(n, n === 205 ? 'bob' : 'alice'));
      await clock.advance(1000);
    }
    await history.record(OTHER, song(999));
  });
  afterAll(() => t?.close());

  it('keeps the last 200 per server, newest first, with who asked and when', async () => {
    const all = await history.list(GUILD);
    expect(all).toHaveLength(MUSIC_HISTORY_MAX);
    expect(all[0]).toMatchObject({
      title: 'Morning Tune 205',
      songId: 'file-205',
      url: 'library:file-205',
      platform: 'library',
      requestedBy: { displayName: 'bob', id: '50000000000000005' },
      playedAt: new Date(Date.parse('2026-11-28T20:00:00Z') + 204_000).toISOString(),
    });
    expect(all.at(-1)?.title).toBe('Evening Song 6');
    expect((await history.list(OTHER)).map((e) => e.title)).toEqual(['Morning Tune 999']);
  });

  it('searches title and artist, every word, any case', async () => {
    const found = await history.list(GUILD, 'evening OTHER');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((e) => e.title.startsWith('Evening') && e.uploader === 'Other Artist')).toBe(true);
    expect(await history.list(GUILD, 'nothing like this')).toEqual([]);
  });

  it('knows the last 50 played (autoplay avoids them)', async () => {
    const recent = await history.recentKeys(GUILD, 50);
    expect(recent.size).toBe(50);
    expect(recent.has('library:file-205')).toBe(true);
    expect(recent.has('library:file-155')).toBe(false);
  });

  it('GET /api/music/history/:guildId answers any member; a bad query is a 400', async () => {
    const { token } = await t.signIn({ access_level: 'viewer' });
    const res = await api<MusicHistoryResponse>(
      t,
      token,
      'GET',
      `/api/music/history/${GUILD}?q=morning%20205`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.entries.map((e) => e.title)).toEqual(['Morning Tune 205']);
    const long = await api(t, token, 'GET', `/api/music/history/${GUILD}?q=${'x'.repeat(101)}`);
    expect(long.status).toBe(400);
    const bad = await api(t, token, 'GET', '/api/music/history/not-a-guild');
    expect(bad.status).toBe(400);
  });
});
