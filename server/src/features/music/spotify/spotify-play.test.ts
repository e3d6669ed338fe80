import {
  MUSIC_SPOTIFY_SKIP_REASONS,
  MUSIC_SPOTIFY_TEXTS,
  type MusicPlayResponse,
  type SpotifySkipped,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.ts';
import { type FakeSoundCloud, startFakeSoundCloud } from '../../../test/fake-soundcloud.ts';
import { type FakeSpotify, startFakeSpotify } from '../../../test/fake-spotify.ts';
import { type FakeYouTube, startFakeYouTube } from '../../../test/fake-youtube.ts';
import { api, GUILD_ID, hears, type MusicTestContext, startMusicApp, status } from '../test-helpers.ts';

const PLAYLIST = 'SpotifyPlaylist0000001';
const link = `https://open.spotify.com/playlist/${PLAYLIST}?si=0123456789abcdef`;
type Played = MusicPlayResponse & { data: { skipped?: SpotifySkipped[] }; code?: string; error?: string };

/**
 * Issue 48, what it must show: a Spotify playlist of 3 tracks through the fake Discord, the fake Web API,
 * YouTube and SoundCloud: 2 songs queued (the first matched on YouTube Music by its ISRC, the second on
 * SoundCloud, each heard at its own pitch) shown with Spotify's title, artist and cover; the third (YouTube has it only at
 * another length) listed as skipped with its reason. Without credentials the link says what to configure.
 */
describe('Spotify links through the bot (issue 48)', () => {
  let spotify: FakeSpotify;
  let yt: FakeYouTube;
  let sc: FakeSoundCloud;
  let t: MusicTestContext;
  beforeAll(async () => {
    spotify = await startFakeSpotify({
      tracks: [
        {
          id: 'TrackFirstLight0000001',
          name: 'First Light',
          artists: ['Fixture Band'],
          durationMs: 30_400,
          isrc: 'USFX12600011',
        },
        {
          id: 'TrackSecondWave0000002',
          name: 'Second Wave',
          artists: ['Fixture Artist'],
          durationMs: 29_800,
        },
        { id: 'TrackThirdWish00000003', name: 'Third Wish', artists: ['Fixture Band'], durationMs: 30_000 },
      ],
      playlists: [
        {
          id: PLAYLIST,
          name: 'Fixture mix',
          trackIds: ['TrackFirstLight0000001', 'TrackSecondWave0000002', 'TrackThirdWish00000003'],
        },
      ],
    });
    yt = await startFakeYouTube([
      // YouTube Music's song of that ISRC: matched first (heard at 440 Hz).
      {
        id: 'firstLightM',
        title: 'First Light',
        channel: 'Fixture Band - Topic',
        hz: 440,
        seconds: 30,
        music: { artists: ['Fixture Band'], album: 'Fixture Album', isrc: 'USFX12600011' },
      },
      // The same song uploaded to YouTube: a match too, but YouTube Music is asked first.
      {
        id: 'firstLight1',
        title: 'Fixture Band - First Light (Official Audio)',
        channel: 'Fixture Band',
        hz: 415,
        seconds: 30,
      },
      // The same title at another length (a live version): never queued in its place.
      {
        id: 'thirdWish01',
        title: 'Fixture Band - Third Wish (Live)',
        channel: 'Fixture Band',
        hz: 660,
        seconds: 95,
      },
    ]);
    sc = await startFakeSoundCloud([{ id: 4242, title: 'Second Wave', hz: 550, seconds: 30 }]);
    t = await startMusicApp({
      SPOTIFY_CLIENT_ID: spotify.clientId,
      SPOTIFY_CLIENT_SECRET: spotify.clientSecret,
      SPOTIFY_API_URL: spotify.url,
      SPOTIFY_ACCOUNTS_URL: spotify.url,
      OUTBOUND_TEST_ALLOW: '127.0.0.1',
      YOUTUBE_BASE_URL: yt.baseUrl,
      SOUNDCLOUD_API_URL: sc.apiUrl,
      SOUNDCLOUD_CLIENT_ID: sc.clientId,
    });
  });
  afterAll(async () => {
    await t?.closeAll();
    await Promise.all([spotify?.close(), yt?.close(), sc?.close()]);
  });

  test('a playlist of 3: 2 matched songs queued and heard at their pitch, 1 listed as skipped with its reason', async () => {
    const res = await api<Played>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: link,
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      action: 'playing',
      added: 2,
      message: 'Queued 2 tracks; 1 skipped (no matching song)',
      skipped: [{ title: 'Third Wish', artist: 'Fixture Band', reason: MUSIC_SPOTIFY_SKIP_REASONS.noMatch }],
    });
    // Spotify's title, artist and cover; the audio of the matched source.
    expect(data.song).toMatchObject({
      title: 'First Light',
      uploader: 'Fixture Band',
      thumbnail: expect.stringMatching(/^https:\/\/i\.scdn\.co\/image\//),
      platform: 'youtube',
      id: 'firstLightM',
    });
    expect(yt.musicSearches[0]).toBe('USFX12600011');
    expect(data.status.queue).toEqual([
      expect.objectContaining({
        title: 'Second Wave',
        uploader: 'Fixture Artist',
        platform: 'soundcloud',
        id: '4242',
      }),
    ]);
    await hears(t.discord, 440);

    expect((await api(t, t.alice.token, 'POST', `/api/music/skip/${GUILD_ID}`)).status).toBe(200);
    expect((await status(t, t.alice.token)).currentSong?.title).toBe('Second Wave');
    await hears(t.discord, 550);
    expect((await status(t, t.alice.token)).history.map((s) => s.title)).toContain('First Light');
  });

  test('Spotify down is an honest 502; a link to nothing a 404; neither is a 500', async () => {
    spotify.setMode('error500');
    const down = await api<Played>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: link,
    });
    expect(down.status).toBe(502);
    expect(down.body).toMatchObject({ code: 'PLATFORM_UNAVAILABLE', error: MUSIC_SPOTIFY_TEXTS.unavailable });
    spotify.setMode('ok');
    const missing = await api<Played>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: 'https://open.spotify.com/album/AlbumMissing0000000001',
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'LIST_NOT_FOUND', error: MUSIC_SPOTIFY_TEXTS.notFound });
  });
});

describe('a Spotify link without Spotify credentials', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  test('says what an administrator has to configure', async () => {
    const { token } = await t.signIn({ discord_id: '500000000000000077', username: 'dana' });
    const res = await api<Played>(t, token, 'POST', '/api/music/play', { guildId: GUILD_ID, url: link });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'SPOTIFY_NOT_CONFIGURED',
      error: MUSIC_SPOTIFY_TEXTS.notConfigured,
    });
  });
});
