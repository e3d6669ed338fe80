import type { MusicPlayResponse, PlatformHealth, SearchResult } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeToMono, dominantFrequency } from '../../test/fake-discord-bot/index.ts';
import { type FakeYouTube, startFakeYouTube } from '../../test/fake-youtube.ts';
import { api, audioAfter, GUILD_ID, type MusicTestContext, startMusicApp } from './test-helpers.ts';

/** YouTube through InnerTube's response shapes on loopback, searched and played into the fake Discord. */
// Audio does not depend on the database: run once (on SQLite), not again in CI's PostgreSQL pass.
describe.skipIf(process.env.TEST_DB === 'postgres')('YouTube source', () => {
  let yt: FakeYouTube;
  let t: MusicTestContext;
  beforeAll(async () => {
    yt = await startFakeYouTube([
      { id: 'fixtureA440', title: 'Sine Tone 440', channel: 'Fixture Channel', hz: 440, seconds: 6 },
    ]);
    t = await startMusicApp({ YOUTUBE_BASE_URL: yt.baseUrl });
  }, 30_000);
  afterAll(async () => {
    await t?.closeAll();
    await yt?.close();
  });

  test('reports Available, searches, and plays a search result: the 440 Hz tone reaches Discord', async () => {
    const platforms = await api<{ data: { platforms: PlatformHealth[] } }>(
      t,
      t.alice.token,
      'GET',
      '/api/music/platforms',
    );
    expect(platforms.body.data.platforms.find((p) => p.platform === 'youtube')).toMatchObject({
      available: true,
      reason: null,
    });

    const search = await api<{ data: { results: SearchResult[] } }>(
      t,
      t.alice.token,
      'POST',
      '/api/music/search',
      {
        query: 'sine tone',
        platform: 'youtube',
      },
    );
    const [result] = search.body.data.results;
    expect(result).toMatchObject({ title: 'Sine Tone 440', duration: 6, platform: 'youtube' });

    const since = performance.now();
    const play = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: result?.url,
    });
    expect(play.status).toBe(200);
    expect(play.body.data).toMatchObject({
      action: 'playing',
      song: { platform: 'youtube', title: 'Sine Tone 440', uploader: 'Fixture Channel', duration: 6 },
    });
    const packets = await audioAfter(t.discord, since, 0, 60);
    expect(Math.abs(dominantFrequency(decodeToMono(packets.slice(10))) - 440)).toBeLessThanOrEqual(5);
    expect(yt.log).toEqual(
      expect.arrayContaining([
        'POST /youtubei/v1/player WEB',
        'POST /youtubei/v1/player ANDROID_VR',
        'GET /videoplayback itag=251',
      ]),
    );
  });

  test('a link to a video YouTube says is unavailable answers 404 "Song not found"', async () => {
    const res = await api<{ code: string }>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: 'https://www.youtube.com/watch?v=missing0000',
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('SONG_NOT_FOUND');
  });
});
