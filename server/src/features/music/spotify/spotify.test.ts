import { type SearchResult, spotifyQueuedText, MUSIC_SPOTIFY_SKIP_REASONS as WHY } from '@guildhall/common';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { UsersTable } from '../../../db/schema.ts';
import { createOutbound } from '../../../platform/outbound/fetcher.ts';
import { createResolver } from '../../../platform/outbound/resolver.ts';
import { type FakeSpotify, startFakeSpotify } from '../../../test/fake-spotify.ts';
import { manualClock } from '../../../test/manual-clock.ts';
import type { MusicCommands } from '../front.ts';
import { createSpotifyClient, type SpotifyTrack, SpotifyUnavailable } from './client.ts';
import { isSpotifyUrl, parseSpotifyLink } from './links.ts';
import { bareTitle, isMatch, matchTracks } from './match.ts';
import { withSpotify } from './play.ts';

const id = (stem: string, n: number) => `${stem}${String(n).padStart(22 - stem.length, '0')}`;

describe('Spotify links (issue 48)', () => {
  test('track, album, playlist and artist links and URIs; anything else of Spotify is not one', () => {
    const t = id('Track', 1);
    expect(parseSpotifyLink(`https://open.spotify.com/track/${t}?si=abc`)).toEqual({ kind: 'track', id: t });
    expect(parseSpotifyLink(`https://open.spotify.com/intl-de/album/${t}`)).toEqual({ kind: 'album', id: t });
    expect(parseSpotifyLink(`spotify:playlist:${t}`)).toEqual({ kind: 'playlist', id: t });
    expect(parseSpotifyLink(`https://open.spotify.com/artist/${t}`)).toEqual({ kind: 'artist', id: t });
    expect(parseSpotifyLink(`https://open.spotify.com/episode/${t}`)).toBeNull();
    expect(parseSpotifyLink('https://open.spotify.com/track/short')).toBeNull();
    expect(isSpotifyUrl('https://open.spotify.com/episode/x')).toBe(true);
    expect(isSpotifyUrl('https://www.youtube.com/watch?v=abcdefghijk')).toBe(false);
  });

  test('the message of a link: queued, cut at 100 like other list links, skipped, duplicates', () => {
    expect(spotifyQueuedText({ queued: 2, total: 3, cut: false, skipped: 1, duplicates: 0 })).toBe(
      'Queued 2 tracks; 1 skipped (no matching song)',
    );
    expect(spotifyQueuedText({ queued: 100, total: 120, cut: true, skipped: 0, duplicates: 0 })).toBe(
      'Queued 100 tracks from the first 100 of 120 (at most 100 per link)',
    );
  });
});

describe('matching a Spotify track to a playable song', () => {
  const track = (name: string, artist: string, seconds: number): SpotifyTrack => ({
    id: id('T', 1),
    name,
    artists: [artist],
    durationMs: seconds * 1000,
    artwork: null,
    isLocal: false,
    isrc: null,
  });
  const song = (
    title: string,
    uploader: string,
    duration: number,
    platform: 'youtube' | 'soundcloud' = 'youtube',
  ) =>
    ({
      id: title,
      youtube_id: title,
      title,
      uploader,
      duration,
      url: `https://x/${title}`,
      thumbnail: null,
      platform,
    }) satisfies SearchResult;

  test('by artist, title and length within ±3 s; a version suffix does not matter', () => {
    const t = track('First Light - 2011 Remaster', 'Fixture Band', 200);
    expect(bareTitle(t.name)).toBe('First Light');
    expect(isMatch(t, song('Fixture Band - First Light (Official Audio)', 'Fixture Band VEVO', 203))).toBe(
      true,
    );
    expect(isMatch(t, song('Fixture Band - First Light', 'x', 204))).toBe(false); // 4 s off
    expect(isMatch(t, song('Fixture Band - Last Light', 'x', 200))).toBe(false); // another song
    expect(isMatch(t, song('First Light (cover)', 'Someone Else', 200))).toBe(false); // another artist
  });

  test('YouTube first, then SoundCloud; no good match is skipped with its reason, never replaced', async () => {
    const tracks = [
      track('First Light', 'Fixture Band', 30),
      track('Second Wave', 'Fixture Artist', 30),
      track('Third Wish', 'Fixture Band', 30),
      { ...track('Home Demo', 'Me', 30), id: null, isLocal: true },
    ];
    const asked: string[] = [];
    const results = await matchTracks(
      tracks,
      async (query, platform) => {
        asked.push(`${platform}: ${query}`);
        if (platform === 'youtube-music') return [];
        if (platform === 'youtube')
          return [
            song('Fixture Band - First Light', 'Fixture Band', 31),
            song('Fixture Band - Third Wish', 'Fixture Band', 95),
          ];
        if (query.includes('Third')) throw new Error('SoundCloud is down');
        return [song('Second Wave', 'Fixture Artist', 30, 'soundcloud')];
      },
      { concurrency: 2, budgetMs: 60_000 },
    );
    expect(results.map((r) => ('song' in r ? `${r.song.platform}: ${r.song.title}` : r.reason))).toEqual([
      'youtube: Fixture Band - First Light',
      'soundcloud: Second Wave',
      WHY.noMatch,
      WHY.local,
    ]);
    expect(asked).not.toContain('soundcloud: Fixture Band First Light');
  });

  test('every platform failing is "could not be searched", not "no match"', async () => {
    const [r] = await matchTracks(
      [track('First Light', 'Fixture Band', 30)],
      async () => {
        throw new Error('down');
      },
      { concurrency: 1, budgetMs: 60_000 },
    );
    expect(r && 'reason' in r && r.reason).toBe(WHY.searchFailed);
  });
});

describe("Spotify's Web API client (the loopback fake, through the outbound fetcher)", () => {
  let fake: FakeSpotify;
  const clock = manualClock();
  const outbound = createOutbound({
    resolver: createResolver([]),
    concurrency: 8,
    timeoutMs: 8000,
    allow: ['127.0.0.1'],
  });
  const tracks = Array.from({ length: 120 }, (_, i) => ({
    id: id('Track', i + 1),
    name: `Song ${i + 1}`,
    artists: ['Fixture Band'],
    durationMs: 30_000,
    // Spotify writes ISRCs without dashes; one with them is read all the same.
    ...(i === 0 ? { isrc: 'us-fx1-26-00001' } : {}),
  }));
  const client = (o: { secret?: string; timeoutMs?: number } = {}) =>
    createSpotifyClient({
      outbound: async () => outbound,
      apiUrl: fake.url,
      accountsUrl: fake.url,
      clientId: fake.clientId,
      clientSecret: o.secret ?? fake.clientSecret,
      clock,
      timeoutMs: o.timeoutMs,
    });
  beforeAll(async () => {
    fake = await startFakeSpotify({
      tracks,
      albums: [{ id: id('Album', 1), name: 'Long Album', trackIds: tracks.slice(0, 60).map((t) => t.id) }],
      playlists: [{ id: id('Playlist', 1), name: 'Big', trackIds: tracks.map((t) => t.id) }],
      artists: [
        { id: id('Artist', 1), name: 'Fixture Band', topTrackIds: tracks.slice(0, 12).map((t) => t.id) },
      ],
    });
  });
  afterAll(async () => {
    await fake?.close();
    await outbound.close();
  });

  test('a playlist is read page by page and cut at 100; the total says how many it holds', async () => {
    const c = client();
    const read = await c.tracks({ kind: 'playlist', id: id('Playlist', 1) }, 100, 'member');
    expect(read?.total).toBe(120);
    expect(read?.tracks).toHaveLength(100);
    expect(read?.tracks[0]).toEqual({
      id: id('Track', 1),
      name: 'Song 1',
      artists: ['Fixture Band'],
      durationMs: 30_000,
      artwork: expect.stringMatching(/^https:\/\/i\.scdn\.co\/image\/.+-300$/),
      isLocal: false,
      isrc: 'USFX12600001',
    });
    expect(read?.tracks[1]?.isrc).toBeNull();
    // An album's tracks come 50 a page: the second page is followed, with the album's cover on each.
    const album = await c.tracks({ kind: 'album', id: id('Album', 1) }, 100, 'member');
    expect(album?.tracks).toHaveLength(60);
    // Simplified track objects carry no external ids: an album's tracks are matched by artist and title.
    expect(album?.tracks[0]?.isrc).toBeNull();
    expect(album?.tracks[59]?.artwork).toMatch(/-300$/);
    expect(fake.log.filter((l) => l.includes('/albums/')).length).toBe(3);
    // An artist's top tracks (at most 10, with the market client credentials need).
    const top = await c.tracks({ kind: 'artist', id: id('Artist', 1) }, 100, 'member');
    expect(top?.tracks).toHaveLength(10);
    expect(fake.log.some((l) => l.includes('top-tracks?market=US'))).toBe(true);
    // One token for all of it (kept until a minute before it expires).
    expect(fake.tokensIssued()).toBe(1);
  });

  test('a link to nothing is null; Spotify down, slow or refusing the credentials is "unavailable"', async () => {
    expect(await client().tracks({ kind: 'track', id: id('Missing', 1) }, 100, 'm')).toBeNull();
    await expect(
      client({ secret: 'wrong' }).tracks({ kind: 'track', id: id('Track', 1) }, 100, 'm'),
    ).rejects.toThrow(SpotifyUnavailable);
    fake.setMode('error500');
    await expect(client().tracks({ kind: 'track', id: id('Track', 1) }, 100, 'm')).rejects.toThrow(
      SpotifyUnavailable,
    );
    // The time limit is the input under test: a hanging Spotify ends as "unavailable".
    fake.setMode('hang');
    await expect(
      client({ timeoutMs: 300 }).tracks({ kind: 'track', id: id('Track', 1) }, 100, 'm'),
    ).rejects.toThrow(SpotifyUnavailable);
    fake.setMode('ok');
  });
});

describe('Spotify links per member (issue 48)', () => {
  test('the sixth link of a member within a minute is a 429; a minute later, or another member, is served', async () => {
    const clock = manualClock();
    let looked = 0;
    const commands = {
      play: async () => {
        throw new Error('not a Spotify link');
      },
    } as unknown as MusicCommands;
    const client = {
      tracks: async () => {
        looked++;
        return null; // a link to nothing: 404, after Spotify was asked
      },
    } as unknown as ReturnType<typeof createSpotifyClient>;
    const music = withSpotify(commands, {
      client,
      searchSongs: async () => [],
      clock,
      log: pino({ level: 'silent' }),
    });
    const member = (id: string) => ({ discord_id: id }) as UsersTable;
    const link = `https://open.spotify.com/track/${id('Track', 1)}`;
    const code = (who: string) =>
      music.play(member(who), '1', link).then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    for (let i = 0; i < 5; i++) expect(await code('1')).toBe('LIST_NOT_FOUND');
    expect(await code('1')).toBe('RATE_LIMITED');
    expect(looked).toBe(5); // the refused link never reached Spotify
    expect(await code('2')).toBe('LIST_NOT_FOUND');
    await clock.advance(60_000);
    expect(await code('1')).toBe('LIST_NOT_FOUND');
  });

  test('without credentials a link says what to configure, before anything is asked', async () => {
    const music = withSpotify({} as MusicCommands, {
      client: null,
      searchSongs: async () => [],
      clock: manualClock(),
      log: pino({ level: 'silent' }),
    });
    await expect(
      music.play({ discord_id: '1' } as UsersTable, '1', `spotify:album:${id('Album', 1)}`),
    ).rejects.toMatchObject({ code: 'SPOTIFY_NOT_CONFIGURED' });
  });
});
