import {
  MUSIC_AUTOPLAY_REQUESTER,
  type MusicHistoryResponse,
  type MusicPlayResponse,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { type FakeSoundCloud, startFakeSoundCloud } from '../../test/fake-soundcloud.ts';
import { type FakeYouTube, startFakeYouTube } from '../../test/fake-youtube.ts';
import { manualClock } from '../../test/manual-clock.ts';
import { api, GUILD_ID, hears, type MusicTestContext, startMusicApp, status } from './test-helpers.ts';

/**
 * Issue 48, autoplay from the streaming sources: after a YouTube song, a song of YouTube Music's radio for
 * it (the fake's `next`, asked as youtubei.js's music client asks it); after a SoundCloud song, one of
 * SoundCloud's related tracks; never one of the last 50 played, marked Autoplay, a member's request before
 * it. A source that cannot be asked adds nothing (the queue ends as without autoplay). The app runs on a
 * clock the test never moves, so the pick's 1.5 s limit never decides anything here.
 */
describe('autoplay from YouTube and SoundCloud (issue 48)', () => {
  let t: MusicTestContext;
  let yt: FakeYouTube;
  let sc: FakeSoundCloud;
  const clock = manualClock();
  beforeAll(async () => {
    yt = await startFakeYouTube([
      { id: 'ytRecent001', title: 'Played Before', channel: 'Fixture Band', hz: 330, seconds: 30 },
      {
        id: 'ytSeed00001',
        title: 'Seed Song',
        channel: 'Fixture Band - Topic',
        hz: 440,
        seconds: 2,
        music: { artists: ['Fixture Band'] },
        // The radio lists the seed itself, a song played a moment ago, then one never played.
        related: ['ytSeed00001', 'ytRecent001', 'ytRelated01'],
      },
      {
        id: 'ytRelated01',
        title: 'Related One',
        channel: 'Fixture Band - Topic',
        hz: 550,
        seconds: 60,
        music: { artists: ['Fixture Band'] },
      },
      { id: 'ytRequest01', title: 'Member Request', channel: 'Someone', hz: 880, seconds: 60 },
      {
        id: 'ytSeed00002',
        title: 'Lonely Seed',
        channel: 'Fixture Band',
        hz: 495,
        seconds: 2,
        related: ['ytFresh0001'],
      },
      { id: 'ytFresh0001', title: 'Never Played', channel: 'Fixture Band', hz: 660, seconds: 60 },
    ]);
    sc = await startFakeSoundCloud([
      { id: 11, title: 'Cloud Seed', hz: 392, seconds: 2 },
      { id: 12, title: 'Cloud Played', hz: 587, seconds: 30 },
      { id: 13, title: 'Cloud Related', hz: 698, seconds: 60 },
    ]);
    t = await startMusicApp(
      {
        YOUTUBE_BASE_URL: yt.baseUrl,
        SOUNDCLOUD_API_URL: sc.apiUrl,
        SOUNDCLOUD_CLIENT_ID: sc.clientId,
      },
      undefined,
      { clock },
    );
  });
  afterAll(async () => {
    await t?.closeAll();
    await Promise.all([yt?.close(), sc?.close()]);
  });

  const play = (url: string) =>
    api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url });
  const watch = (id: string) => `https://www.youtube.com/watch?v=${id}`;
  const setAutoplay = async (enabled: boolean) =>
    expect((await api(t, t.alice.token, 'POST', `/api/music/autoplay/${GUILD_ID}`, { enabled })).status).toBe(
      200,
    );
  /** Plays a song with autoplay off and skips it once heard: it is then one of the last songs played. */
  const playedBefore = async (url: string, hz: number) => {
    await setAutoplay(false);
    expect((await play(url)).status).toBe(200);
    await hears(t.discord, hz);
    expect((await api(t, t.alice.token, 'POST', `/api/music/skip/${GUILD_ID}`)).status).toBe(200);
    await setAutoplay(true);
  };
  const autoplaying = (title: string) =>
    eventually(
      async () => {
        const s = await status(t, t.alice.token);
        expect(s.currentSong).toMatchObject({
          title,
          autoplay: true,
          requestedBy: { displayName: MUSIC_AUTOPLAY_REQUESTER },
        });
        return s;
      },
      { interval: 100 },
    );

  it("after a YouTube song: YouTube Music's radio for it, skipping the song and one played recently", async () => {
    await playedBefore(watch('ytRecent001'), 330);
    const before = yt.log.filter((l) => l === 'POST /youtubei/v1/next WEB_REMIX').length;
    expect((await play(watch('ytSeed00001'))).status).toBe(200);
    const s = await autoplaying('Related One');
    expect(s.currentSong).toMatchObject({ platform: 'youtube', id: 'ytRelated01' });
    await hears(t.discord, 550);
    // Asked through the music client's `next`: the song, then its automix radio.
    expect(yt.log.filter((l) => l === 'POST /youtubei/v1/next WEB_REMIX').length).toBeGreaterThanOrEqual(
      before + 2,
    );

    // A member's request while the autoplay song plays goes next.
    const request = await play(watch('ytRequest01'));
    expect(request.body.data).toMatchObject({ action: 'queued', position: 0 });
    expect((await api(t, t.alice.token, 'POST', `/api/music/skip/${GUILD_ID}`)).status).toBe(200);
    expect((await status(t, t.alice.token)).currentSong?.title).toBe('Member Request');
    await hears(t.discord, 880);
    expect((await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`)).status).toBe(200);
  });

  it("after a SoundCloud song: one of SoundCloud's related tracks, not one played recently", async () => {
    await playedBefore('https://soundcloud.com/fixture-artist/cloud-played', 587);
    expect((await play('https://soundcloud.com/fixture-artist/cloud-seed')).status).toBe(200);
    const s = await autoplaying('Cloud Related');
    expect(s.currentSong).toMatchObject({ platform: 'soundcloud', id: '13' });
    await hears(t.discord, 698);
    expect(sc.log.some((l) => l.startsWith('/tracks/11/related'))).toBe(true);
    expect((await api(t, t.alice.token, 'POST', `/api/music/stop/${GUILD_ID}`)).status).toBe(200);
  });

  it('YouTube Music unreachable: the queue ends with nothing added, never another song in its place', async () => {
    yt.setMusicMode('error5xx');
    try {
      const asked = () => yt.log.filter((l) => l === 'POST /youtubei/v1/next WEB_REMIX').length;
      const before = asked();
      expect((await play(watch('ytSeed00002'))).status).toBe(200);
      await hears(t.discord, 495);
      // Asked as the song started and again at its end; both refused.
      await eventually(() => expect(asked()).toBeGreaterThanOrEqual(before + 2), { interval: 100 });
      const ended = await eventually(
        async () => {
          const s = await status(t, t.alice.token);
          expect(s.currentSong).toBeNull();
          return s;
        },
        { interval: 100 },
      );
      expect(ended.queue).toEqual([]);
      // The panel says why nothing follows, not just "Nothing is playing".
      expect(ended.autoplayMiss).toEqual({
        afterTitle: 'Lonely Seed',
        source: 'YouTube',
        reason: 'unavailable',
      });
      const history = await api<MusicHistoryResponse>(
        t,
        t.alice.token,
        'GET',
        `/api/music/history/${GUILD_ID}`,
      );
      expect(history.body.data.entries[0]?.title).toBe('Lonely Seed');
      expect(history.body.data.entries.map((e) => e.title)).not.toContain('Never Played');
    } finally {
      yt.setMusicMode('ok');
    }
  });
});
