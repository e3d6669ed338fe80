import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { MUSIC_TEXTS, type MusicPlayResponse, type SearchResult } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { isSilenceFrame, startFakeDiscordBot } from '../../test/fake-discord-bot/index.ts';
import { type FakeSoundCloud, startFakeSoundCloud } from '../../test/fake-soundcloud.ts';
import { type FakeYouTube, startFakeYouTube } from '../../test/fake-youtube.ts';
import { deadline } from '../../test/time-scale.ts';
import {
  ALICE,
  addToLibrary,
  api,
  audioAfter,
  GUILD_ID,
  type MusicTestContext,
  startMusicApp,
  status,
  TEST_GUILDS,
  tone,
  VOICE_CHANNEL_ID,
} from './test-helpers.ts';

/**
 * Fault containment (issue 25): each outside dependency of the music feature breaks while a song plays
 * or the bot waits in its channel, through the real discord.js bot, @discordjs/voice, ffmpeg, youtubei.js
 * and fetch against the loopback fakes. Each case asserts that the process stays up (vitest fails a file
 * on any unhandled error or rejection, which is how an unheard 'error' event ends a real process), what
 * a member is told, and that the feature recovers by itself once the dependency is back.
 *
 * With CHAOS_TABLE=<file>, each case appends its row (situation, what the member saw, seconds to
 * recover) for docs/operations.md.
 */
/** An outage's length is the input under test: the dependency stays away this long, whatever happens. */
const outageLasts = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

type Row = { situation: string; survived: boolean; memberSaw: string; recoveredS: number | null };
const rows: Row[] = [];
const record = (row: Row) => {
  rows.push(row);
  if (process.env.CHAOS_TABLE) fs.appendFileSync(process.env.CHAOS_TABLE, `${JSON.stringify(row)}\n`);
};

describe.skipIf(process.env.TEST_DB === 'postgres')('music chaos: Discord gateway and voice server', () => {
  let t: MusicTestContext;
  let song: string;
  const play = (token = t.alice.token) =>
    api<MusicPlayResponse & { error?: string; code?: string }>(t, token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url: song,
    });
  const post = (path: string) => api(t, t.alice.token, 'POST', `/api/music/${path}/${GUILD_ID}`);
  /** Audio (not silence) arriving from now on: playback works. */
  const audioFlows = () => audioAfter(t.discord, performance.now(), 0, 25);

  beforeAll(async () => {
    t = await startMusicApp();
    song = await addToLibrary(t, t.alice.token, 'long tone.wav', await tone(440, 120));
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  test('voice server dropped mid-song and refusing connections for 3 s: reconnecting, 503 at once, then plays on', async () => {
    expect((await play()).status).toBe(200);
    await audioFlows();
    const outageAt = performance.now();
    await t.discord.voice.refuse();
    await eventually(async () => expect((await status(t, t.alice.token)).botState).toBe('reconnecting'), {
      interval: 100,
    });
    const s = await status(t, t.alice.token);
    expect(s.botStateSince).not.toBeNull();
    expect(s.currentSong?.title).toBe('long tone');
    // A play during the outage is answered at once, with why.
    const askedAt = performance.now();
    const refused = await play();
    expect(performance.now() - askedAt).toBeLessThan(deadline(1000));
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'BOT_RECONNECTING' });
    expect(refused.body.error).toMatch(/reconnecting/);
    // The outage lasts 3 s in all.
    await outageLasts(3000 - (performance.now() - outageAt));
    const backAt = performance.now();
    await t.discord.voice.accept();
    await eventually(async () => expect((await status(t, t.alice.token)).botState).toBe('online'), {
      interval: 200,
    });
    await audioFlows();
    const recovered = (performance.now() - backAt) / 1000;
    expect((await status(t, t.alice.token)).currentSong?.title).toBe('long tone');
    record({
      situation: 'Discord voice server: dropped mid-song, refusing connections for 3 s',
      survived: true,
      memberSaw: 'badge "Reconnecting · N s"; play → 503 "…reconnecting. Try again in a moment." at once',
      recoveredS: Math.round(recovered * 10) / 10,
    });
  });

  test('voice server closes with codes 4006, 4015 and 1011: the bot rejoins and plays on', async () => {
    for (const code of [4006, 4015, 1011]) {
      await audioFlows();
      const at = performance.now();
      t.discord.voice.closeAll(code);
      await eventually(async () => expect((await status(t, t.alice.token)).botState).toBe('online'), {
        interval: 200,
      });
      await audioFlows();
      record({
        situation: `Discord voice server: closes the connection with code ${code}`,
        survived: true,
        memberSaw: 'badge "Reconnecting" for a moment, then the song goes on',
        recoveredS: Math.round((performance.now() - at) / 100) / 10,
      });
    }
  });

  test('voice server goes away while the bot waits idle in its channel; playing afterwards works', async () => {
    expect((await post('stop')).status).toBe(200);
    expect((await status(t, t.alice.token)).idle).toBe(true);
    await t.discord.voice.refuse();
    await eventually(async () => expect((await status(t, t.alice.token)).botState).toBe('reconnecting'), {
      interval: 100,
    });
    await outageLasts(3000); // the process must ride it out
    const backAt = performance.now();
    await t.discord.voice.accept();
    await eventually(async () => expect((await status(t, t.alice.token)).botState).toBe('online'), {
      interval: 200,
    });
    expect((await play()).status).toBe(200);
    await audioFlows();
    record({
      situation: 'Discord voice server: gone for 3 s while the bot waits idle in its channel',
      survived: true,
      memberSaw: 'badge "Reconnecting · N s", then Idle again; the next play works',
      recoveredS: Math.round((performance.now() - backAt) / 100) / 10,
    });
  });

  test('gateway connection dropped: reconnecting, 503 at once, then the bot resumes and plays on', async () => {
    await audioFlows();
    const at = performance.now();
    t.discord.dropGateway();
    // The session resumes quickly; the status says reconnecting in between (or is already back).
    const refusedOrOk = await play();
    expect([200, 503]).toContain(refusedOrOk.status);
    if (refusedOrOk.status === 503) expect(refusedOrOk.body.code).toBe('BOT_RECONNECTING');
    await eventually(async () => expect((await status(t, t.alice.token)).botState).toBe('online'), {
      interval: 200,
    });
    await audioFlows();
    record({
      situation: 'Discord gateway: connection dropped (resumed)',
      survived: true,
      memberSaw: 'badge "Reconnecting · N s" while down; a play meanwhile → 503 at once',
      recoveredS: Math.round((performance.now() - at) / 100) / 10,
    });
  });

  test(
    'the whole fake Discord killed and restarted: offline-then-reconnecting, then playing works again',
    async () => {
      await audioFlows();
      const port = Number(new URL(t.discord.apiUrl).port);
      await t.discord.close();
      await eventually(async () => expect((await status(t, t.alice.token)).botState).toBe('reconnecting'), {
        interval: 100,
      });
      const refused = await play();
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('BOT_RECONNECTING');
      await outageLasts(3000); // Discord stays away a while
      const backAt = performance.now();
      const restarted = await startFakeDiscordBot(TEST_GUILDS, port);
      restarted.setVoiceState(GUILD_ID, ALICE.id, VOICE_CHANNEL_ID);
      t.discord = restarted;
      await eventually(
        async () => {
          const s = await status(t, t.alice.token);
          expect(s.botState).toBe('online');
          expect(s.connected).toBe(true);
        },
        { interval: 250 },
      );
      await eventually(async () => expect((await play()).status).toBe(200), { interval: 500 });
      await audioFlows();
      record({
        situation: 'Discord (gateway, REST and voice) killed, back after 3 s on the same address',
        survived: true,
        memberSaw: 'badge "Reconnecting · N s"; play → 503 at once; then plays again',
        recoveredS: Math.round((performance.now() - backAt) / 100) / 10,
      });
    },
    deadline(150_000),
  );

  test('ffmpeg killed mid-track: the song goes on from where it was', async () => {
    await audioFlows();
    const before = (await status(t, t.alice.token)).elapsedTime;
    // The track's ffmpeg runs under the platform's process spawner, a child of this process.
    const childrenOf = (pid: number | string, name?: string) => {
      try {
        return execFileSync('pgrep', ['-P', String(pid), ...(name ? [name] : [])], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .filter(Boolean);
      } catch {
        return []; // pgrep exits 1 when nothing matches
      }
    };
    const pids = childrenOf(process.pid).flatMap((helper) => childrenOf(helper, 'ffmpeg'));
    expect(pids.length).toBeGreaterThan(0);
    const at = performance.now();
    for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
    await audioFlows();
    const s = await status(t, t.alice.token);
    expect(s).toMatchObject({ state: 'playing', currentSong: { title: 'long tone' } });
    expect(s.elapsedTime).toBeGreaterThanOrEqual(before);
    record({
      situation: 'ffmpeg killed mid-track (SIGKILL)',
      survived: true,
      memberSaw: 'a moment of silence; the song goes on from where it was',
      recoveredS: Math.round((performance.now() - at) / 100) / 10,
    });
    expect((await post('stop')).status).toBe(200);
  });
});

describe.skipIf(process.env.TEST_DB === 'postgres')('music chaos: a missing ffmpeg', () => {
  let t: MusicTestContext;
  beforeAll(async () => {
    t = await startMusicApp({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  test('play answers 503 with a member-facing message; /readyz names the problem; nothing else breaks', async () => {
    // A WAV needs no probe: its header gives the duration to ffprobe, which is still installed.
    const url = await addToLibrary(t, t.alice.token, 'tone.wav', await tone(440, 5));
    const res = await api<{ error: string; code: string }>(t, t.alice.token, 'POST', '/api/music/play', {
      guildId: GUILD_ID,
      url,
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: MUSIC_TEXTS.encoderUnavailable, code: 'ENCODER_UNAVAILABLE' });
    expect(t.discord.voice.packets.filter((p) => !isSilenceFrame(p.opus))).toHaveLength(0);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200); // music is optional: degraded, not unready
    expect(ready.json().checks.music.error).toMatch(/ffmpeg \(\/nonexistent\/ffmpeg\) does not run/);
    expect((await status(t, t.alice.token)).state).toBe('stopped');
    record({
      situation: 'ffmpeg missing (FFMPEG_PATH points nowhere)',
      survived: true,
      memberSaw: `play → 503 "${MUSIC_TEXTS.encoderUnavailable}"; /readyz: degraded, names ffmpeg`,
      recoveredS: null,
    });
  });
});

describe.skipIf(process.env.TEST_DB === 'postgres')(
  'music chaos: YouTube and SoundCloud answering 5xx and garbage',
  () => {
    let yt: FakeYouTube;
    let sc: FakeSoundCloud;
    let t: MusicTestContext;
    beforeAll(async () => {
      yt = await startFakeYouTube([
        { id: 'fixtureA440', title: 'Sine Tone 440', channel: 'Fixture Channel', hz: 440, seconds: 30 },
      ]);
      sc = await startFakeSoundCloud([{ id: 101, title: 'Sine Tone 523', hz: 523, seconds: 6 }]);
      t = await startMusicApp({
        YOUTUBE_BASE_URL: yt.baseUrl,
        SOUNDCLOUD_API_URL: sc.apiUrl,
        SOUNDCLOUD_CLIENT_ID: sc.clientId,
      });
    });
    afterAll(async () => {
      await t?.closeAll();
      await yt?.close();
      await sc?.close();
    });

    const search = (platform: string) =>
      api<{ data?: { results: SearchResult[] }; error?: string; code?: string }>(
        t,
        t.alice.token,
        'POST',
        '/api/music/search',
        { query: 'sine tone', platform },
      );

    for (const [platform, name, setMode] of [
      ['youtube', 'YouTube', (m: 'ok' | 'garbage' | 'error5xx') => yt.setMode(m)],
      ['soundcloud', 'SoundCloud', (m: 'ok' | 'garbage' | 'error5xx') => sc.setMode(m)],
    ] as const) {
      for (const mode of ['error5xx', 'garbage'] as const) {
        test(`${name} answering ${mode === 'error5xx' ? '503' : 'an HTML page'}: a clear 502, then search works again`, async () => {
          expect((await search(platform)).status).toBe(200);
          setMode(mode);
          const res = await search(platform);
          expect(res.status).toBe(502);
          expect(res.body).toMatchObject({
            error: `${name} is not available right now`,
            code: 'PLATFORM_UNAVAILABLE',
          });
          // The play of a song link is refused the same way (nothing half-started).
          const link =
            platform === 'youtube'
              ? 'https://www.youtube.com/watch?v=fixtureA440'
              : 'https://soundcloud.com/fixture-artist/sine-tone-523';
          const played = await api<{ error: string }>(t, t.alice.token, 'POST', '/api/music/play', {
            guildId: GUILD_ID,
            url: link,
          });
          expect(played.status).toBe(502);
          expect(played.body.error).toBe(`${name} is not available right now`);
          const at = performance.now();
          setMode('ok');
          const back = await search(platform);
          expect(back.status).toBe(200);
          expect(back.body.data?.results[0]?.title).toMatch(/^Sine Tone/);
          record({
            situation: `${name} API answering ${mode === 'error5xx' ? '503' : 'HTML instead of JSON'}`,
            survived: true,
            memberSaw: `search → "Search failed: ${name} is not available right now"; Platforms: "${name} is not available right now"`,
            recoveredS: Math.round((performance.now() - at) / 100) / 10,
          });
        });
      }
    }
  },
);
