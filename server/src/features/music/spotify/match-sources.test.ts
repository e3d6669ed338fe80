import { MUSIC_SPOTIFY_SKIP_REASONS as WHY } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeSoundCloud, startFakeSoundCloud } from '../../../test/fake-soundcloud.ts';
import { type FakeYouTube, startFakeYouTube } from '../../../test/fake-youtube.ts';
import { soundcloudSource } from '../sources/soundcloud.ts';
import { youtubeSource } from '../sources/youtube.ts';
import type { SpotifyTrack } from './client.ts';
import { type MatchResult, matchTracks, type Search } from './match.ts';

const track = (name: string, artist: string, seconds: number, isrc: string | null): SpotifyTrack => ({
  id: `Track${name.replace(/\W/g, '')}`.padEnd(22, '0').slice(0, 22),
  name,
  artists: [artist],
  durationMs: seconds * 1000,
  artwork: null,
  isLocal: false,
  isrc,
});

/** Each result as "how: song id", or the reason it was skipped. */
const shown = (results: MatchResult[]) =>
  results.map((r) => ('song' in r ? `${r.by}: ${r.song.platform} ${r.song.id}` : `skipped: ${r.reason}`));

/**
 * Issue 48: a Spotify track is matched on YouTube Music first, by its ISRC, then by artist, title and
 * length (±3 s), then on YouTube, then on SoundCloud; through the real YouTube source (youtubei.js, its
 * YouTube Music client included) and SoundCloud source against their loopback fakes.
 */
describe('matching Spotify tracks through YouTube Music, YouTube and SoundCloud (the fakes)', () => {
  let yt: FakeYouTube;
  let sc: FakeSoundCloud;
  let search: Search;
  beforeAll(async () => {
    yt = await startFakeYouTube([
      // Known to YouTube Music by its ISRC under its original title: the artist/title search cannot find it.
      {
        id: 'kazeNoUta01',
        title: '風の歌',
        channel: 'Fixture Band - Topic',
        hz: 440,
        seconds: 2,
        music: { artists: ['Fixture Band'], album: 'Winds', isrc: 'USFX12600001' },
      },
      // On YouTube Music by name (Spotify's ISRC for it is not known there), 2 s longer than Spotify's.
      {
        id: 'secondWave1',
        title: 'Second Wave',
        channel: 'Fixture Artist - Topic',
        hz: 550,
        seconds: 3,
        music: { artists: ['Fixture Artist'], album: 'Waves' },
      },
      // The same recording uploaded to YouTube (found there when YouTube Music cannot be asked).
      {
        id: 'secondWaveV',
        title: 'Fixture Artist - Second Wave (Audio)',
        channel: 'Fixture Artist',
        hz: 550,
        seconds: 2,
      },
      // Third Wish: YouTube Music's song by that ISRC, title and artist is another length (a live
      // recording), and so is YouTube's video; only SoundCloud has the track's length.
      {
        id: 'thirdWish01',
        title: 'Third Wish (Live)',
        channel: 'Fixture Band - Topic',
        hz: 660,
        seconds: 9,
        music: { artists: ['Fixture Band'], isrc: 'USFX12600003' },
      },
      {
        id: 'thirdWishV1',
        title: 'Fixture Band - Third Wish (Live at the Hall)',
        channel: 'Fixture Band',
        hz: 660,
        seconds: 9,
      },
      // Lost Song exists only at another length everywhere: never queued in its place.
      {
        id: 'lostSong001',
        title: 'Lost Song',
        channel: 'Nobody - Topic',
        hz: 770,
        seconds: 8,
        music: { artists: ['Nobody'], isrc: 'USFX12600004' },
      },
    ]);
    sc = await startFakeSoundCloud([
      { id: 303, title: 'Fixture Band - Third Wish', hz: 330, seconds: 2 },
      { id: 404, title: 'Nobody - Lost Song (extended)', hz: 880, seconds: 20 },
    ]);
    const youtube = youtubeSource(yt.baseUrl);
    const soundcloud = soundcloudSource(sc.apiUrl, sc.clientId);
    search = (query, platform) =>
      platform === 'youtube-music'
        ? youtube.searchSongs(query, 5)
        : platform === 'youtube'
          ? youtube.search(query, 5)
          : soundcloud.search(query, 5);
  });
  afterAll(async () => {
    await Promise.all([yt?.close(), sc?.close()]);
  });

  const tracks = [
    track('Kaze no Uta', 'Fixture Band', 2.4, 'USFX12600001'),
    track('Second Wave', 'Fixture Artist', 1, 'USFX12600002'),
    track('Third Wish', 'Fixture Band', 2, 'USFX12600003'),
    track('Lost Song', 'Nobody', 4, 'USFX12600004'),
  ];

  test('by ISRC on YouTube Music, by artist and title there, SoundCloud last; a wrong length is never taken', async () => {
    yt.musicSearches.length = 0;
    const results = await matchTracks(tracks, search, { concurrency: 1, budgetMs: 60_000 });
    expect(shown(results)).toEqual([
      'isrc: youtube kazeNoUta01',
      'youtube-music: youtube secondWave1',
      'soundcloud: soundcloud 303',
      `skipped: ${WHY.noMatch}`,
    ]);
    // The ISRC first, then artist and title: the order asked of YouTube Music.
    expect(yt.musicSearches).toEqual([
      'USFX12600001',
      'USFX12600002',
      'Fixture Artist Second Wave',
      'USFX12600003',
      'Fixture Band Third Wish',
      'USFX12600004',
      'Nobody Lost Song',
    ]);
    const [first] = results;
    // The song plays from YouTube: a YouTube Music song is a video id.
    expect(first && 'song' in first && first.song.url).toBe('https://www.youtube.com/watch?v=kazeNoUta01');
  });

  test('YouTube Music down: its tracks fall through to YouTube; everything down is "could not be searched"', async () => {
    yt.setMusicMode('error5xx');
    try {
      const results = await matchTracks(tracks.slice(0, 2), search, { concurrency: 1, budgetMs: 60_000 });
      expect(shown(results)).toEqual([
        `skipped: ${WHY.noMatch}`, // 風の歌 is only found by its ISRC
        'youtube: youtube secondWaveV',
      ]);
      yt.setMode('error5xx');
      sc.setMode('error5xx');
      const down = await matchTracks(tracks.slice(0, 1), search, { concurrency: 1, budgetMs: 60_000 });
      expect(shown(down)).toEqual([`skipped: ${WHY.searchFailed}`]);
    } finally {
      yt.setMusicMode('ok');
      yt.setMode('ok');
      sc.setMode('ok');
    }
  });
});
