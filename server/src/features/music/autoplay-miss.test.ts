import type { SearchResult, Song } from '@guildhall/common';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/manual-clock.ts';
import { createAutoplay } from './autoplay.ts';
import type { HistoryStore } from './history/store.ts';
import type { MusicSource } from './sources/types.ts';

/**
 * Issue 48: when autoplay adds nothing at the end of the queue the panel says why, so each way a pick can
 * come back empty is named: no related list for the source, none that was not played recently, the source
 * could not be asked, or it did not answer within the pick's limit (on the injected clock).
 */
describe('autoplay says why it added nothing', () => {
  const finished: Song = {
    id: 'a1',
    youtube_id: 'a1',
    title: 'Seed',
    uploader: 'Artist',
    duration: 100,
    url: 'https://soundcloud.com/x/seed',
    thumbnail: null,
    platform: 'soundcloud',
    entryId: 'e1',
    requestedBy: { avatar: null, displayName: 'ann' },
  };
  const played: SearchResult = { ...finished, id: 'p1', youtube_id: 'p1', title: 'Played' };
  const history = (keys: string[]): HistoryStore => ({
    record: async () => {},
    list: async () => [],
    recentKeys: async () => new Set(keys),
  });
  const source = (related?: MusicSource['related']): MusicSource => ({
    platform: 'soundcloud',
    search: async () => [],
    owns: () => true,
    resolve: async () => null,
    input: async () => ({ kind: 'url', url: 'http://127.0.0.1:9/' }),
    health: async () => ({ available: true, reason: null }),
    ...(related ? { related } : {}),
  });
  const pick = (s: MusicSource, recent: string[] = [], clock = manualClock()) =>
    createAutoplay({ sources: [s], history: history(recent), log: pino({ level: 'silent' }), clock })(
      'g1',
      finished,
      [],
    );
  const miss = (reason: string) => ({
    song: null,
    miss: { afterTitle: 'Seed', source: 'SoundCloud', reason },
  });

  it('a source without related songs: unsupported', async () => {
    expect(await pick(source())).toEqual(miss('unsupported'));
  });

  it('only songs played recently: none', async () => {
    expect(
      await pick(
        source(async () => [played]),
        ['soundcloud:p1'],
      ),
    ).toEqual(miss('none'));
  });

  it('the source fails: unavailable', async () => {
    expect(
      await pick(
        source(async () => {
          throw new Error('HTTP 503');
        }),
      ),
    ).toEqual(miss('unavailable'));
  });

  it('the source does not answer within the limit: timeout', async () => {
    const clock = manualClock();
    const answer = pick(
      source(() => new Promise<SearchResult[]>(() => {})),
      [],
      clock,
    );
    await clock.advance(1500);
    expect(await answer).toEqual(miss('timeout'));
  });

  it('a related song not played recently: that song, marked Autoplay', async () => {
    const fresh = { ...played, id: 'f1', youtube_id: 'f1', title: 'Fresh' };
    const got = await pick(
      source(async () => [played, fresh]),
      ['soundcloud:p1'],
    );
    expect(got.miss).toBeNull();
    expect(got.song).toMatchObject({ title: 'Fresh', autoplay: true });
  });
});
