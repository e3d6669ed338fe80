import {
  MUSIC_QUEUE_MAX,
  MUSIC_TEXTS,
  type MusicPlayResponse,
  type PlatformHealth,
  type SearchResult,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeToMono, dominantFrequency } from '../../test/fake-discord-bot/index.ts';
import { type FakeSoundCloud, startFakeSoundCloud } from '../../test/fake-soundcloud.ts';
import { api, audioAfter, GUILD_ID, type MusicTestContext, startMusicApp } from './test-helpers.ts';

/** SoundCloud through its v2 API shapes and AAC HLS, on loopback, played into the fake Discord. */
// Audio does not depend on the database: run once (on SQLite), not again in CI's PostgreSQL pass.
describe.skipIf(process.env.TEST_DB === 'postgres')('SoundCloud source', () => {
  let sc: FakeSoundCloud;
  let t: MusicTestContext;
  beforeAll(async () => {
    sc = await startFakeSoundCloud(
      [
        { id: 101, title: 'Sine Tone 523', hz: 523, seconds: 6 },
        { id: 102, title: 'Other track', hz: 300, seconds: 4 },
        { id: 103, title: 'Gone track', hz: 300, seconds: 2, gone: true },
      ],
      [
        // Seven tracks: the first five come in full, the last two as stubs fetched from /tracks?ids=.
        { slug: 'evening', title: 'Evening', trackIds: [102, 101, 102, 101, 102, 102, 101] },
        // 120 entries: more than a link may queue.
        {
          slug: 'marathon',
          title: 'Marathon',
          trackIds: Array.from({ length: 120 }, (_, i) => (i % 2 ? 101 : 102)),
        },
        { slug: 'ninety', title: 'Ninety', trackIds: Array.from({ length: 90 }, () => 102) },
      ],
    );
    t = await startMusicApp({ SOUNDCLOUD_API_URL: sc.apiUrl, SOUNDCLOUD_CLIENT_ID: sc.clientId });
  });
  afterAll(async () => {
    await t?.closeAll();
    await sc?.close();
  });

  test('reports Available from a real request, searches, and plays the HLS stream', async () => {
    const platforms = await api<{ data: { platforms: PlatformHealth[] } }>(
      t,
      t.alice.token,
      'GET',
      '/api/music/platforms',
    );
    expect(platforms.body.data.platforms.find((p) => p.platform === 'soundcloud')).toMatchObject({
      available: true,
      reason: null,
    });

    const search = await api<{ data: { results: SearchResult[] } }>(
      t,
      t.alice.token,
      'POST',
      '/api/music/search',
      {
        query: 'sine',
        platform: 'soundcloud',
      },
    );
    expect(search.body.data.results).toEqual([
      {
        id: '101',
        youtube_id: '101',
        title: 'Sine Tone 523',
        uploader: 'Fixture Artist',
        duration: 6,
        url: 'https://soundcloud.com/fixture-artist/sine-tone-523',
        thumbnail: 'https://i1.sndcdn.com/artworks-101-large.jpg',
        platform: 'soundcloud',
      },
    ]);

    const since = performance.now();
    const play = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: 'https://soundcloud.com/fixture-artist/sine-tone-523',
    });
    expect(play.status).toBe(200);
    expect(play.body.data).toMatchObject({
      action: 'playing',
      song: { platform: 'soundcloud', title: 'Sine Tone 523' },
    });
    const packets = await audioAfter(t.discord, since, 0, 60);
    expect(Math.abs(dominantFrequency(decodeToMono(packets.slice(10))) - 523)).toBeLessThanOrEqual(5);
    expect(sc.log).toEqual(expect.arrayContaining(['/resolve', '/tracks/101', '/hls/101/playlist.m3u8']));
  });
  test('a song whose stream the platform refuses answers "Failed to play song", not "playing"', async () => {
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
    const res = await api<{ error: string; code: string }>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: 'https://soundcloud.com/fixture-artist/gone-track',
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      code: 'PLAY_FAILED',
      error: expect.stringMatching(/^Failed to play song/),
    });
  });

  test('a set link queues its tracks (stubs fetched by id), the first one plays; a longer set is cut at 100 with a message', async () => {
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    const since = performance.now();
    const res = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: 'https://soundcloud.com/fixture-artist/sets/evening',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      action: 'playing',
      added: 7,
      message: 'Queued 7 tracks',
      song: { title: 'Other track' },
    });
    expect(res.body.data.status.queue.map((s) => s.title)).toEqual([
      'Sine Tone 523',
      'Other track',
      'Sine Tone 523',
      'Other track',
      'Other track',
      'Sine Tone 523',
    ]);
    expect(sc.log).toContain('/tracks');
    // The first track's audio (300 Hz) reaches Discord.
    const packets = await audioAfter(t.discord, since, 0, 40);
    expect(Math.abs(dominantFrequency(decodeToMono(packets.slice(10))) - 300)).toBeLessThanOrEqual(5);

    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    const long = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: 'https://soundcloud.com/fixture-artist/sets/marathon',
    });
    expect(long.body.data).toMatchObject({
      action: 'queued',
      added: 100,
      message: 'Queued the first 100 of 120 tracks (at most 100 per link)',
    });
    expect(long.body.data.status.queue).toHaveLength(100);
    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
  });

  test('the queue cap holds under parallel plays: with 10 places left, 10 of 20 parallel requests are queued', async () => {
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    const play = (url: string) =>
      api<MusicPlayResponse & { error: string; code: string }>(t, t.alice.token, 'POST', '/api/music/play', {
        guildId: GUILD_ID,
        url,
      });
    // One playing, then 4 × 100 + 90 queued: 490 of 500.
    expect((await play('https://soundcloud.com/fixture-artist/sine-tone-523')).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await play('https://soundcloud.com/fixture-artist/sets/marathon')).body.data.added).toBe(100);
    }
    const ninety = await play('https://soundcloud.com/fixture-artist/sets/ninety');
    expect(ninety.body.data.status.queue).toHaveLength(MUSIC_QUEUE_MAX - 10);
    // Each play resolves the link over HTTP first, so the 20 interleave before they reach the queue.
    const results = await Promise.all(
      Array.from({ length: 20 }, () => play('https://soundcloud.com/fixture-artist/other-track')),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'QUEUE_FULL', error: MUSIC_TEXTS.queueFull });
    }
    const full = await api<{ data: { queue: unknown[] } }>(
      t,
      t.alice.token,
      'GET',
      `/api/music/status/${GUILD_ID}`,
    );
    expect(full.body.data.queue).toHaveLength(MUSIC_QUEUE_MAX);
    // A list link on a full queue is refused whole.
    const list = await play('https://soundcloud.com/fixture-artist/sets/evening');
    expect(list.status).toBe(409);
    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
  });
});
