import type { MusicLyricsResponse, MusicPlayResponse } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeLrclib, startFakeLrclib } from '../../../test/fake-lrclib.ts';
import { addToLibrary, api, GUILD_ID, type MusicTestContext, startMusicApp, tone } from '../test-helpers.ts';

/** GET /api/music/lyrics/:guildId with the real bot (fake Discord) playing a library song, LRCLIB faked. */
describe.skipIf(process.env.TEST_DB === 'postgres')('lyrics of the song playing', () => {
  let lrclib: FakeLrclib;
  let t: MusicTestContext;
  beforeAll(async () => {
    lrclib = await startFakeLrclib([
      {
        artistName: 'Fixture Artist',
        trackName: 'Sine Song',
        duration: 30,
        syncedLyrics: '[00:00.50]Hum along\n[00:10.00]Still humming',
        plainLyrics: 'Hum along\nStill humming',
      },
    ]);
    t = await startMusicApp(
      { MUSIC_LYRICS_URL: lrclib.url, OUTBOUND_TEST_ALLOW: '127.0.0.1' },
      undefined,
      // The time limit is the input under test: a hanging LRCLIB must end as "could not check".
      { featureOptions: { music: { lyrics: { timeoutMs: 300 } } } },
    );
  });
  afterAll(async () => {
    await t?.closeAll();
    await lrclib?.close();
  });

  const lyrics = () =>
    api<MusicLyricsResponse>(t, t.bob.token, 'GET', `/api/music/lyrics/${GUILD_ID}`).then((r) => r.body.data);

  test('nothing playing, then synced lines of the playing song; LRCLIB down is "unavailable"', async () => {
    expect(await lyrics()).toMatchObject({ state: 'nothing_playing', lines: [] });
    const url = await addToLibrary(t, t.alice.token, 'Fixture Artist - Sine Song.wav', await tone(440, 30));
    const play = await api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url,
    });
    expect(play.status).toBe(200);
    const found = await lyrics();
    expect(found).toMatchObject({
      state: 'synced',
      entryId: play.body.data.song.entryId,
      lines: [
        { time: 0.5, text: 'Hum along' },
        { time: 10, text: 'Still humming' },
      ],
      matched: { artist: 'Fixture Artist', track: 'Sine Song' },
    });
    expect(lrclib.log).toEqual(['/api/get?artist_name=Fixture+Artist&track_name=Sine+Song&duration=30']);

    // Cached per track: LRCLIB going down later does not take the found lyrics away.
    lrclib.setMode('error500');
    expect((await lyrics()).state).toBe('synced');
    expect(lrclib.log).toHaveLength(1);

    // A song not looked up yet while LRCLIB hangs: "could not check", never "not found".
    lrclib.setMode('hang');
    const other = await addToLibrary(t, t.alice.token, 'Unknown Hum.wav', await tone(300, 30));
    const skip = await api(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url: other });
    expect(skip.status).toBe(200);
    expect((await api(t, t.alice.token, 'POST', `/api/music/skip/${GUILD_ID}`)).status).toBe(200);
    expect(await lyrics()).toMatchObject({
      state: 'unavailable',
      title: expect.stringContaining('Unknown Hum'),
    });
  });

  test('another server with nothing playing asks LRCLIB nothing; a bad id is a 400', async () => {
    const before = lrclib.log.length;
    const res = await api<MusicLyricsResponse>(t, t.bob.token, 'GET', '/api/music/lyrics/400000000000000099');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'nothing_playing', entryId: null });
    expect(lrclib.log).toHaveLength(before);
    const bad = await api<{ code: string }>(t, t.bob.token, 'GET', '/api/music/lyrics/not-a-guild');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION');
  });
});
