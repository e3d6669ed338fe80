import type { MusicPlayResponse, PlatformHealth, SearchResult } from '@guildhall/common';
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
    sc = await startFakeSoundCloud([
      { id: 101, title: 'Sine Tone 523', hz: 523, seconds: 6 },
      { id: 102, title: 'Other track', hz: 300, seconds: 4 },
      { id: 103, title: 'Gone track', hz: 300, seconds: 2, gone: true },
    ]);
    t = await startMusicApp({ SOUNDCLOUD_API_URL: sc.apiUrl, SOUNDCLOUD_CLIENT_ID: sc.clientId });
  }, 30_000);
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
});
