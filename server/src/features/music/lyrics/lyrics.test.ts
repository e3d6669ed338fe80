import { currentLineIndex, MUSIC_LYRICS_CACHE_MS, type Song } from '@guildhall/common';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createOutbound } from '../../../platform/outbound/fetcher.ts';
import { createResolver } from '../../../platform/outbound/resolver.ts';
import { type FakeLrclib, startFakeLrclib } from '../../../test/fake-lrclib.ts';
import { manualClock } from '../../../test/manual-clock.ts';
import { parseLrc } from './lrc.ts';
import { lyricsQueryFor } from './query.ts';
import { createLyricsService } from './service.ts';

const SYNCED =
  '[ar:Fixture Artist]\n[00:01.50]First line\n[00:04.00]Second line\n[00:07.25][00:12.00]Chorus\n';

const song = (over: Partial<Song>): Song => ({
  id: 'id-1',
  youtube_id: 'id-1',
  entryId: 'entry-1',
  title: 'Sine Song',
  uploader: 'Fixture Artist',
  duration: 180,
  url: 'https://www.youtube.com/watch?v=id-1',
  thumbnail: null,
  platform: 'youtube',
  requestedBy: { id: '1', displayName: 'alice', avatar: null },
  ...over,
});

describe('LRC and the query sent to LRCLIB', () => {
  test('parses time tags (several per line, offset), drops metadata, sorts by time', () => {
    expect(parseLrc(SYNCED)).toEqual([
      { time: 1.5, text: 'First line' },
      { time: 4, text: 'Second line' },
      { time: 7.25, text: 'Chorus' },
      { time: 12, text: 'Chorus' },
    ]);
    expect(parseLrc('[offset:+500]\n[00:02.00]a\n[01:00.123]b')).toEqual([
      { time: 1.5, text: 'a' },
      { time: 59.623, text: 'b' },
    ]);
    const lines = parseLrc(SYNCED);
    expect([0, 1.5, 5, 100].map((p) => currentLineIndex(lines, p))).toEqual([-1, 0, 1, 3]);
  });

  test('splits "Artist - Title", drops video decorations and Topic, and never uses "Library" as the artist', () => {
    expect(
      lyricsQueryFor(song({ title: 'Fixture Artist - Sine Song (Official Video)', uploader: 'Label' })),
    ).toEqual({ artist: 'Fixture Artist', track: 'Sine Song', duration: 180 });
    expect(lyricsQueryFor(song({ uploader: 'Fixture Artist - Topic' })).artist).toBe('Fixture Artist');
    expect(
      lyricsQueryFor(
        song({ title: 'Sine Song.flac', uploader: 'Library', platform: 'library', duration: 0 }),
      ),
    ).toEqual({ artist: null, track: 'Sine Song', duration: 0 });
  });
});

describe('lyrics from LRCLIB (a loopback fake, through the outbound fetcher)', () => {
  let fake: FakeLrclib;
  const clock = manualClock();
  const outbound = createOutbound({
    resolver: createResolver([]),
    concurrency: 8,
    timeoutMs: 8000,
    allow: ['127.0.0.1'],
  });
  // The time limit is the input under test: a hanging LRCLIB must end as "could not check".
  const hangLimitMs = 300;
  let service: ReturnType<typeof createLyricsService>;
  beforeAll(async () => {
    fake = await startFakeLrclib([
      {
        artistName: 'Fixture Artist',
        trackName: 'Sine Song',
        duration: 180,
        syncedLyrics: SYNCED,
        plainLyrics: 'x',
      },
      {
        artistName: 'Plain Person',
        trackName: 'Words Only',
        duration: 200,
        syncedLyrics: null,
        plainLyrics: 'One\n\nTwo',
      },
      {
        artistName: 'Search Band',
        trackName: 'Found Later',
        duration: 100,
        syncedLyrics: '[00:03.00]Hi',
        plainLyrics: 'Hi',
      },
      {
        artistName: 'Search Band',
        trackName: 'Found Later (Live)',
        duration: 400,
        syncedLyrics: '[00:09.00]Wrong',
        plainLyrics: 'Wrong',
      },
    ]);
  });
  beforeEach(() => {
    fake.setMode('ok');
    fake.log.length = 0;
    service = createLyricsService({
      outbound: async () => outbound,
      baseUrl: fake.url,
      clock,
      log: pino({ level: 'silent' }),
      timeoutMs: hangLimitMs,
    });
  });
  afterAll(async () => {
    await fake?.close();
    await outbound.close();
  });

  test('synced lyrics come as timed lines, asked by artist, track and duration', async () => {
    const res = await service.forSong('g1', song({}), 'member-1');
    expect(res).toMatchObject({ state: 'synced', entryId: 'entry-1', matched: { artist: 'Fixture Artist' } });
    expect(res.lines.map((l) => l.time)).toEqual([1.5, 4, 7.25, 12]);
    expect(fake.log).toEqual(['/api/get?artist_name=Fixture+Artist&track_name=Sine+Song&duration=180']);
  });

  test('plain lyrics only come as lines without times', async () => {
    const res = await service.forSong(
      'g1',
      song({ id: 'p', title: 'Words Only', uploader: 'Plain Person', duration: 201 }),
      'm',
    );
    expect(res.state).toBe('plain');
    expect(res.lines).toEqual([
      { time: null, text: 'One' },
      { time: null, text: '' },
      { time: null, text: 'Two' },
    ]);
  });

  test('search is the fallback, and only a result within ±3 s of the duration counts', async () => {
    const res = await service.forSong(
      'g1',
      song({ id: 's', title: 'Found Later', uploader: 'Someone Else', duration: 102 }),
      'm',
    );
    expect(res).toMatchObject({ state: 'synced', lines: [{ time: 3, text: 'Hi' }] });
    expect(fake.log[1]).toBe('/api/search?q=Found+Later');
    const far = await service.forSong(
      'g1',
      song({ id: 's2', title: 'Found Later', uploader: 'x', duration: 300 }),
      'm',
    );
    expect(far.state).toBe('not_found');
  });

  test('no lyrics: "not found", cached per track until the cache time passes', async () => {
    const none = song({ id: 'n', title: 'Nobody Sang This', uploader: 'Nobody' });
    expect((await service.forSong('g1', none, 'm')).state).toBe('not_found');
    expect(fake.log).toHaveLength(2); // get, then search
    expect((await service.forSong('g1', none, 'm')).state).toBe('not_found');
    expect(fake.log).toHaveLength(2);
    await clock.advance(MUSIC_LYRICS_CACHE_MS + 1);
    await service.forSong('g1', none, 'm');
    expect(fake.log).toHaveLength(4);
  });

  test('LRCLIB answering 500 is "unavailable", never "not found", and is not cached', async () => {
    fake.setMode('error500');
    const res = await service.forSong('g1', song({ id: 'e' }), 'm');
    expect(res).toMatchObject({ state: 'unavailable', lines: [], matched: null });
    fake.setMode('ok');
    expect((await service.forSong('g1', song({ id: 'e' }), 'm')).state).toBe('synced');
  });

  test('a hanging LRCLIB is "unavailable" once the time limit passes', async () => {
    fake.setMode('hang');
    const res = await service.forSong('g1', song({ id: 'h' }), 'm');
    expect(res.state).toBe('unavailable');
    expect(fake.log).toHaveLength(1);
  });

  test('LRCLIB not listening at all is "unavailable"', async () => {
    const gone = createLyricsService({
      outbound: async () => outbound,
      baseUrl: 'http://127.0.0.1:9',
      clock,
      log: pino({ level: 'silent' }),
    });
    expect((await gone.forSong('g1', song({}), 'm')).state).toBe('unavailable');
  });

  test('nothing playing asks nothing', async () => {
    expect(await service.forSong('g1', null, 'm')).toEqual({
      guildId: 'g1',
      state: 'nothing_playing',
      entryId: null,
      title: null,
      lines: [],
      matched: null,
    });
    expect(fake.log).toEqual([]);
  });
});
