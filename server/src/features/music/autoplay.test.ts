import {
  MUSIC_AUTOPLAY_REQUESTER,
  type MusicHistoryResponse,
  type MusicPlayResponse,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { manualClock } from '../../test/manual-clock.ts';
import {
  addToLibrary,
  api,
  GUILD_ID,
  hears,
  type MusicTestContext,
  startMusicApp,
  status,
  tone,
} from './test-helpers.ts';

/**
 * Issue 48, what it must show: autoplay on, a one-song queue ends and a related song (from the same library
 * folder, never one of the last 50 played) starts, marked Autoplay; a member's request queued meanwhile
 * plays before the next autoplay song. The app runs on a clock the test never moves: autoplay's pick is
 * bounded by a 1.5 s limit on that clock, so a song that starts at all was picked on the song's end event
 * itself, never after waiting on a timer.
 */
describe('autoplay when the queue ends (issue 48)', () => {
  let t: MusicTestContext;
  const clock = manualClock();
  const urls: Record<string, string> = {};
  beforeAll(async () => {
    t = await startMusicApp({}, undefined, { clock });
    for (const [name, hz, seconds] of [
      ['Radio A', 440, 2],
      ['Radio B', 550, 60],
      ['Radio C', 660, 60],
      ['Request D', 880, 60],
    ] as const) {
      urls[name] = await addToLibrary(t, t.alice.token, `${name}.wav`, await tone(hz, seconds));
    }
  });
  afterAll(() => t?.closeAll());

  const play = (url: string) =>
    api<MusicPlayResponse>(t, t.alice.token, 'POST', '/api/music/play', { guildId: GUILD_ID, url });

  it('is off by default; a member in the channel switches it on for the server', async () => {
    expect((await status(t, t.alice.token)).options.autoplay).toBe(false);
    const on = await api(t, t.alice.token, 'POST', `/api/music/autoplay/${GUILD_ID}`, { enabled: true });
    expect(on.status).toBe(200);
    expect((await status(t, t.alice.token)).options.autoplay).toBe(true);
  });

  it('a one-song queue ends: a related song of the same folder starts, marked Autoplay; a request goes first', async () => {
    const timersBefore = clock.pending();
    expect((await play(urls['Radio A']!)).status).toBe(200);
    const auto = await eventually(
      async () => {
        const s = await status(t, t.alice.token);
        expect(s.currentSong).toMatchObject({
          autoplay: true,
          requestedBy: { displayName: MUSIC_AUTOPLAY_REQUESTER },
        });
        return s;
      },
      { interval: 100 },
    );
    // Not the song that ended (it was just played); the next of its folder.
    expect(auto.currentSong?.title).toBe('Radio B');
    expect(auto.state).toBe('playing');
    await hears(t.discord, 550);
    // The pick's 1.5 s limit on the feature's clock was set and cleared: never waited for.
    expect(clock.pending()).toBe(timersBefore);

    // A member's request while the autoplay song plays: queued, and it plays next.
    const request = await play(urls['Request D']!);
    expect(request.body.data).toMatchObject({ action: 'queued', position: 0 });
    expect((await api(t, t.alice.token, 'POST', `/api/music/skip/${GUILD_ID}`)).status).toBe(200);
    expect((await status(t, t.alice.token)).currentSong?.title).toBe('Request D');
    await hears(t.discord, 880);

    // The history has all three, the autoplay one under "Autoplay".
    const history = await api<MusicHistoryResponse>(
      t,
      t.alice.token,
      'GET',
      `/api/music/history/${GUILD_ID}`,
    );
    expect(history.body.data.entries.map((e) => [e.title, e.requestedBy.displayName])).toEqual([
      ['Request D', 'alice'],
      ['Radio B', MUSIC_AUTOPLAY_REQUESTER],
      ['Radio A', 'alice'],
    ]);
  });
});
