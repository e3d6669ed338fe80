import {
  linkCutText,
  MUSIC_TEXTS,
  type MusicPlayResponse,
  type PlatformHealth,
  type SearchResult,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeToMono, dominantFrequency } from '../../test/fake-discord-bot/index.ts';
import { type FakeYouTube, startFakeYouTube } from '../../test/fake-youtube.ts';
import { api, audioAfter, GUILD_ID, type MusicTestContext, startMusicApp } from './test-helpers.ts';

const EVENING = 'PLfixtureEvening000000000000000001';
const MARATHON = 'PLfixtureMarathon00000000000000120';
const SOMEONE_ELSES = 'PLfixturePrivate000000000000000001';
const listUrl = (id: string) => `https://www.youtube.com/playlist?list=${id}`;

/** YouTube through InnerTube's response shapes on loopback, searched and played into the fake Discord. */
// Audio does not depend on the database: run once (on SQLite), not again in CI's PostgreSQL pass.
describe.skipIf(process.env.TEST_DB === 'postgres')('YouTube source', () => {
  let yt: FakeYouTube;
  let t: MusicTestContext;
  beforeAll(async () => {
    yt = await startFakeYouTube(
      [
        { id: 'fixtureA440', title: 'Sine Tone 440', channel: 'Fixture Channel', hz: 440, seconds: 6 },
        { id: 'fixtureB300', title: 'Other tone', channel: 'Fixture Channel', hz: 300, seconds: 4 },
      ],
      [
        { id: EVENING, title: 'Evening', videoIds: ['fixtureA440', 'fixtureB300', 'fixtureA440'] },
        // 120 entries: two pages (100, then a continuation of 20), more than a link may queue.
        {
          id: MARATHON,
          title: 'Marathon',
          videoIds: Array.from({ length: 120 }, (_, i) => (i % 2 ? 'fixtureA440' : 'fixtureB300')),
        },
        { id: SOMEONE_ELSES, title: 'Private', videoIds: ['fixtureA440'], private: true },
      ],
    );
    t = await startMusicApp({ YOUTUBE_BASE_URL: yt.baseUrl });
  });
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

  test('a playlist link queues its videos (issue 27) and the first one reaches Discord: 440 Hz', async () => {
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    const since = performance.now();
    const res = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: listUrl(EVENING),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      action: 'playing',
      added: 3,
      message: 'Queued 3 tracks',
      song: { platform: 'youtube', title: 'Sine Tone 440', duration: 6 },
    });
    expect(res.body.data.status.queue.map((s) => s.title)).toEqual(['Other tone', 'Sine Tone 440']);
    expect(yt.log).toContain('POST /youtubei/v1/browse WEB');
    const packets = await audioAfter(t.discord, since, 0, 60);
    expect(Math.abs(dominantFrequency(decodeToMono(packets.slice(10))) - 440)).toBeLessThanOrEqual(5);
  });

  test('a playlist longer than 100 is cut at 100 with a message; its second page comes through the continuation', async () => {
    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    const browsesBefore = yt.log.filter((l) => l.startsWith('POST /youtubei/v1/browse')).length;
    const res = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: listUrl(MARATHON),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ action: 'queued', added: 100, message: linkCutText(100, 120) });
    expect(res.body.data.message).toBe('Queued the first 100 of 120 tracks (at most 100 per link)');
    expect(res.body.data.status.queue).toHaveLength(100);
    // The first page holds 100 entries, and 100 are enough: no continuation was asked for.
    expect(yt.log.filter((l) => l.startsWith('POST /youtubei/v1/browse')).length - browsesBefore).toBe(1);
    await api(t, t.alice.token, 'DELETE', `/api/music/queue/${GUILD_ID}`);
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
  });

  test('an unknown or private playlist is a 404 with a clear message; a watch link with &list= is the one video', async () => {
    for (const id of [SOMEONE_ELSES, 'PLdoesnotexist000000000000000000']) {
      const res = await api<{ error: string; code: string }>(t, t.alice.token, 'POST', '/api/music/play', {
        guildId: GUILD_ID,
        url: listUrl(id),
      });
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ code: 'LIST_NOT_FOUND', error: MUSIC_TEXTS.listNotFound });
    }
    const one = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: `https://www.youtube.com/watch?v=fixtureB300&list=${EVENING}&index=2`,
    });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ action: 'playing', song: { title: 'Other tone' } });
    expect(one.body.data.added).toBeUndefined();
    expect(one.body.data.status.queue).toEqual([]);
    await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`);
  });
});
