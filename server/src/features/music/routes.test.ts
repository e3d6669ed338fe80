import {
  MUSIC_STATUS_EVENT,
  MUSIC_TEXTS,
  type MusicStatusPush,
  musicRoom,
  type PlatformHealth,
  type PlaybackStatus,
  type Playlist,
  type PlaylistWithSongs,
  type SearchResult,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectClient, listen, nextEvent, subscribe } from '../../platform/realtime/testing.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import {
  ALICE,
  addToLibrary,
  api,
  GUILD_ID,
  type MusicTestContext,
  OTHER_GUILD_ID,
  startMusicApp,
  status,
  synthesize,
  tone,
} from './test-helpers.ts';

/** A reply read loosely: `data` on success, `error` and `code` on failure. */
type Ok<T> = { success: boolean; data: T };
type Err = { error: string; code?: string };

describe('music API without DISCORD_BOT_TOKEN', () => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.signIn()).token;
  });
  afterAll(() => t.close());

  test('lists no servers, reports the bot offline, and refuses to play', async () => {
    expect((await api(t, token, 'GET', '/api/music/guilds')).body).toEqual({
      success: true,
      data: { guilds: [], defaultGuildId: null },
    });
    const s = await status(t, token);
    expect(s).toMatchObject({ connected: false, state: 'stopped', currentSong: null, queue: [] });
    const play = await api<Err>(t, token, 'POST', '/api/music/play', { guildId: GUILD_ID, url: 'library:x' });
    expect(play.status).toBe(503);
    expect(play.body).toMatchObject({ success: false, error: MUSIC_TEXTS.botOffline, code: 'BOT_OFFLINE' });
    expect((await api<Err>(t, token, 'POST', `/api/music/pause/${GUILD_ID}`)).status).toBe(503);
  });
});

describe('music API with the bot online', () => {
  let t: MusicTestContext;
  let songs: Record<'a' | 'b' | 'c' | 'd', string>;
  const alice = () => t.alice.token;

  beforeAll(async () => {
    // A YouTube that does not answer: the Platforms panel must say so rather than "Available".
    t = await startMusicApp({ YOUTUBE_BASE_URL: 'http://127.0.0.1:9' });
    const audio = await tone(440, 30);
    songs = {
      a: await addToLibrary(t, alice(), 'Alpha song.wav', audio),
      b: await addToLibrary(t, alice(), 'Bravo song.wav', audio),
      c: await addToLibrary(t, alice(), 'Charlie song.wav', audio),
      d: await addToLibrary(t, alice(), 'Delta tune.wav', audio),
    };
    await addToLibrary(t, alice(), 'notes.txt', Buffer.from('not audio'));
    // Ogg/Opus states no duration in its header: found from the last page through the seekable reader.
    await addToLibrary(
      t,
      alice(),
      'Echo ogg.ogg',
      await synthesize('sine=frequency=300:sample_rate=48000', 5, 'ogg'),
    );
  });
  afterAll(async () => {
    await t?.closeAll();
  });

  const play = (url: string, token = alice(), extra: Record<string, unknown> = {}) =>
    api<Ok<{ action: string; position: number | null; song: { title: string } }> & Err>(
      t,
      token,
      'POST',
      '/api/music/play',
      { guildId: GUILD_ID, url, ...extra },
    );
  const control = (
    path: string,
    body?: Record<string, unknown>,
    method: 'POST' | 'PUT' | 'DELETE' = 'POST',
  ) => api<Ok<{ message: string; status: PlaybackStatus }> & Err>(t, alice(), method, path, body);

  test('GET /guilds lists the servers the bot is on and the default server', async () => {
    const res = await api<Ok<{ guilds: unknown[]; defaultGuildId: string }>>(
      t,
      alice(),
      'GET',
      '/api/music/guilds',
    );
    expect(res.body.data.guilds).toEqual([
      { id: OTHER_GUILD_ID, name: 'Another server', memberCount: 1 },
      { id: GUILD_ID, name: 'Guildhall', memberCount: 3 },
    ]);
    expect(res.body.data.defaultGuildId).toBe(GUILD_ID);
  });

  test('GET /platforms reports each source from a real check, with the reason when unavailable', async () => {
    const res = await api<Ok<{ platforms: PlatformHealth[] }>>(t, alice(), 'GET', '/api/music/platforms');
    const by = Object.fromEntries(res.body.data.platforms.map((p) => [p.platform, p]));
    expect(by.library).toMatchObject({ name: 'Library', available: true, reason: null });
    // Members read which platform is down; why (a missing setting, the error) is for the operator.
    expect(by.youtube).toMatchObject({
      name: 'YouTube',
      available: false,
      reason: 'YouTube is not available right now',
    });
    expect(by.soundcloud).toMatchObject({
      available: false,
      reason: 'SoundCloud is not available right now',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/SOUNDCLOUD_CLIENT_ID|fetch failed|did not answer/);
    // The operator's details: /readyz names them (music is optional: degraded, still ready). Its probes
    // have a time limit of their own (READINESS_CHECK_TIMEOUT_MS), which a first probe on a busy machine
    // may reach while the YouTube client loads: "no answer within…" is then its honest answer, and a
    // later probe names the reasons.
    await eventually(async () => {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      const music = (
        ready.json() as { status: string; checks: Record<string, { ok: boolean; error?: string }> }
      ).checks.music;
      expect(music).toMatchObject({ ok: false, optional: true });
      expect(music?.error).toMatch(/SOUNDCLOUD_CLIENT_ID is not set/);
      expect(music?.error).toMatch(/YouTube: YouTube did not answer/);
    });
  });

  test('POST /search finds library audio by every word of the name, at most maxResults', async () => {
    const search = (body: Record<string, unknown>) =>
      api<Ok<{ results: SearchResult[] }> & Err>(t, alice(), 'POST', '/api/music/search', body);
    // A search waits at most 1.5 s for durations being probed and goes on; they are cached once known.
    const durations = async () => {
      const res = await search({ query: 'o', platform: 'library' });
      return res.body.data?.results.map((r) => r.duration) ?? res.body.error;
    };
    // Searches are rate-limited (60 a minute): poll gently.
    await expect.poll(durations, { interval: 500 }).toEqual([30, 30, 30, 5]);
    const all = await search({ query: 'song', platform: 'library' });
    expect(all.body.data.results.map((r) => r.title)).toEqual(['Alpha song', 'Bravo song', 'Charlie song']);
    expect(all.body.data.results[0]).toMatchObject({
      platform: 'library',
      duration: 30,
      url: songs.a,
      uploader: 'Library',
    });
    expect((await search({ query: 'SONG bravo', platform: 'library' })).body.data.results).toHaveLength(1);
    expect(
      (await search({ query: 'song', platform: 'library', maxResults: 2 })).body.data.results,
    ).toHaveLength(2);
    expect((await search({ query: 'notes', platform: 'library' })).body.data.results).toEqual([]);
    expect((await search({ query: 'echo', platform: 'library' })).body.data.results[0]).toMatchObject({
      duration: 5,
    });
    const tooMany = await search({ query: 'song', platform: 'library', maxResults: 11 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/maxResults must be from 1 to 10/);
    expect((await search({ query: '   ', platform: 'library' })).status).toBe(400);
    expect((await search({ query: 'x', platform: 'napster' })).status).toBe(400);
    // A platform that does not answer is a clear 502, not a 500.
    const yt = await search({ query: 'song', platform: 'youtube' });
    expect(yt.status).toBe(502);
    // One "Search failed" prefix, added by the panel; the server names the platform only.
    expect(yt.body.error).toBe('YouTube is not available right now');
  });

  test('POST /play checks who asks: a Discord identity, acting as itself, in a voice channel, on a known server', async () => {
    const code = await t.signIn({ provider: 'access_code' });
    expect((await play(songs.a, code.token)).body).toMatchObject({ error: MUSIC_TEXTS.discordIdMissing });
    const mismatch = await play(songs.a, alice(), { userId: t.bob.userId });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.error).toBe(MUSIC_TEXTS.userIdMismatch);
    const notInVoice = await play(songs.a, t.bob.token);
    expect(notInVoice.status).toBe(409);
    expect(notInVoice.body.error).toBe(MUSIC_TEXTS.notInVoice);
    expect((await play(songs.a, alice(), { guildId: '499999999999999999' })).status).toBe(404);
    expect((await play('https://example.com/song.mp3')).body).toMatchObject({
      error: MUSIC_TEXTS.unsupportedUrl,
    });
    const missing = await play('library:00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(MUSIC_TEXTS.songNotFound);
    const viewer = await t.signIn({ access_level: 'viewer', discord_id: ALICE.id.replace(/1$/, '9') });
    expect((await play(songs.a, viewer.token)).status).toBe(403);
    // Nothing playing yet: controls say so.
    const pause = await control(`/api/music/pause/${GUILD_ID}`);
    expect(pause.status).toBe(409);
    expect(pause.body.error).toBe(MUSIC_TEXTS.nothingPlaying);
  });

  test('POST /play plays, then queues; status shows the song, requester, queue and voice channel', async () => {
    const first = await play(songs.a, alice(), { userId: ALICE.id });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      action: 'playing',
      position: null,
      song: { title: 'Alpha song' },
    });
    const second = await play(songs.b);
    expect(second.body.data).toMatchObject({ action: 'queued', position: 0 });
    await play(songs.c);
    await play(songs.d);
    const s = await status(t, t.bob.token); // any member reads
    expect(s).toMatchObject({
      connected: true,
      isPlaying: true,
      isPaused: false,
      state: 'playing',
      currentSong: { title: 'Alpha song', requestedBy: { displayName: 'alice' } },
      voiceChannel: { id: '400000000000000010', name: 'Lounge' },
      listeners: 1,
      idle: false,
    });
    expect(s.queue.map((q) => q.title)).toEqual(['Bravo song', 'Charlie song', 'Delta tune']);
  });

  test('PUT /queue/reorder moves an entry; out-of-range and malformed indexes are refused', async () => {
    const reorder = (fromIndex: unknown, toIndex: unknown) =>
      control(`/api/music/queue/${GUILD_ID}/reorder`, { fromIndex, toIndex }, 'PUT');
    const titles = async () => (await status(t, alice())).queue.map((q) => q.title[0]);
    expect((await reorder(0, 2)).status).toBe(200);
    expect(await titles()).toEqual(['C', 'D', 'B']);
    await reorder(2, 0);
    expect(await titles()).toEqual(['B', 'C', 'D']);
    await reorder(1, 1);
    expect(await titles()).toEqual(['B', 'C', 'D']);
    const out = await reorder(0, 3);
    expect(out.status).toBe(400);
    expect(out.body.error).toBe(MUSIC_TEXTS.indexOutOfRange);
    expect((await reorder(3, 0)).status).toBe(400);
    expect((await reorder(-1, 0)).status).toBe(400);
    expect((await reorder(0.5, 1)).status).toBe(400);
    expect((await reorder('0', 1)).status).toBe(400);
    expect((await reorder(undefined, 1)).body.error).toMatch(/fromIndex is required/);
    expect(await titles()).toEqual(['B', 'C', 'D']);
  });

  // Each change waits for its new audio (gapless): a few seconds on a loaded machine.
  test('seek clamps to 0–100 %, effects and equalizer are stored, bad values are refused', async () => {
    const seek = (time: unknown) => control(`/api/music/seek/${GUILD_ID}`, { time });
    expect((await seek(-5)).body.data.status.elapsedTime).toBeLessThan(0.5);
    expect(Math.abs((await seek(25)).body.data.status.elapsedTime - 25)).toBeLessThan(0.5);
    expect((await seek('soon')).status).toBe(400);
    await seek(0);

    const fx = await control(`/api/music/effects/${GUILD_ID}`, { effects: ['echo', 'nightcore'] });
    expect(fx.body.data.status).toMatchObject({ activeEffects: ['echo', 'nightcore'], playbackRate: 1.25 });
    expect((await control(`/api/music/effects/${GUILD_ID}`, { effects: ['echo', 'echo'] })).status).toBe(400);
    expect((await control(`/api/music/effects/${GUILD_ID}`, { effects: ['reverb'] })).status).toBe(400);
    expect(
      (await control(`/api/music/effects/${GUILD_ID}`, { effects: [] })).body.data.status.activeEffects,
    ).toEqual([]);

    const eq = { bass: 12, lowMid: -12, mid: 0, highMid: 3, treble: -4 };
    expect((await control(`/api/music/equalizer/${GUILD_ID}`, { eq })).body.data.status.eqSettings).toEqual(
      eq,
    );
    for (const bad of [{ ...eq, bass: 13 }, { ...eq, mid: 1.5 }, { bass: 0 }, { ...eq, treble: '3' }]) {
      const res = await control(`/api/music/equalizer/${GUILD_ID}`, { eq: bad });
      expect(res.status).toBe(400);
      expect(res.body.error).toBeTruthy();
    }
    expect((await status(t, alice())).eqSettings).toEqual(eq);
  });

  test('status changes are pushed to the guild room at once', async () => {
    const base = await listen(t.app);
    const socket = await connectClient(base, t.bob.token);
    try {
      const snapshot = nextEvent<MusicStatusPush>(socket, MUSIC_STATUS_EVENT);
      expect(await subscribe(socket, musicRoom(GUILD_ID))).toEqual({ ok: true });
      expect((await snapshot).status.currentSong?.title).toBe('Alpha song');
      const paused = nextEvent<MusicStatusPush>(socket, MUSIC_STATUS_EVENT, (p) => p.status.isPaused);
      expect((await control(`/api/music/pause/${GUILD_ID}`)).body.data.status.state).toBe('paused');
      expect((await paused).status).toMatchObject({ guildId: GUILD_ID, state: 'paused' });
      const resumed = nextEvent<MusicStatusPush>(socket, MUSIC_STATUS_EVENT, (p) => p.status.isPlaying);
      await control(`/api/music/resume/${GUILD_ID}`);
      await resumed;
      expect((await subscribe(socket, 'music:not-a-guild')).ok).toBe(false);
    } finally {
      socket.close();
    }
  });

  test('skip, restart, clear queue and stop', async () => {
    const skip = await control(`/api/music/skip/${GUILD_ID}`);
    expect(skip.body.data.message).toBe('Skipped');
    expect(skip.body.data.status.currentSong?.title).toBe('Bravo song');
    expect(skip.body.data.status.history[0]?.title).toBe('Alpha song');
    expect((await control(`/api/music/restart/${GUILD_ID}`)).body.data.status.elapsedTime).toBeLessThan(0.5);
    // A seek past the end clamps to the end: the song is over and the next one plays.
    expect((await control(`/api/music/seek/${GUILD_ID}`, { time: 1e6 })).status).toBe(200);
    await eventually(async () => expect((await status(t, alice())).currentSong?.title).toBe('Charlie song'));
    const cleared = await control(`/api/music/queue/${GUILD_ID}`, undefined, 'DELETE');
    expect(cleared.body.data.status).toMatchObject({ queue: [], currentSong: { title: 'Charlie song' } });
    const stopped = await control(`/api/music/stop/${GUILD_ID}`);
    expect(stopped.body.data.status).toMatchObject({ state: 'stopped', currentSong: null, isPlaying: false });
    expect(stopped.body.data.status.history.map((h) => h.title)).toEqual([
      'Charlie song',
      'Bravo song',
      'Alpha song',
    ]);
    expect((await control(`/api/music/resume/${GUILD_ID}`)).status).toBe(409);
  });

  describe('playlists', () => {
    let privateId: string;
    let publicId: string;
    const pl = <T>(
      token: string,
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      path: string,
      body?: Record<string, unknown>,
    ) => api<Ok<T> & Err>(t, token, method, `/api/music${path}`, body);
    const songInfo = (url: string, title: string) => ({
      youtube_id: url.slice('library:'.length),
      title,
      uploader: 'Library',
      duration: 3,
      url,
    });

    test('create: name required and trimmed, private by default', async () => {
      const blank = await pl(alice(), 'POST', `/playlists/${GUILD_ID}`, { name: '   ' });
      expect(blank.status).toBe(400);
      expect(blank.body.error).toBe(MUSIC_TEXTS.playlistNameRequired);
      const priv = await pl<{ playlist: PlaylistWithSongs }>(alice(), 'POST', `/playlists/${GUILD_ID}`, {
        name: '  Late night  ',
      });
      expect(priv.body.data.playlist).toMatchObject({
        name: 'Late night',
        is_public: false,
        created_by: ALICE.id,
        creator_name: 'alice',
        song_count: 0,
        songs: [],
      });
      privateId = priv.body.data.playlist.id;
      const pub = await pl<{ playlist: PlaylistWithSongs }>(alice(), 'POST', `/playlists/${GUILD_ID}`, {
        name: 'Party',
        isPublic: true,
      });
      publicId = pub.body.data.playlist.id;
    });

    test('public playlists are listed for everyone with the creator name, private ones only for the creator', async () => {
      const mine = await pl<{ playlists: Playlist[] }>(alice(), 'GET', `/playlists/${GUILD_ID}`);
      expect(mine.body.data.playlists.map((p) => p.name).sort()).toEqual(['Late night', 'Party']);
      const theirs = await pl<{ playlists: Playlist[] }>(t.bob.token, 'GET', `/playlists/${GUILD_ID}`);
      expect(theirs.body.data.playlists).toEqual([
        expect.objectContaining({ name: 'Party', creator_name: 'alice' }),
      ]);
      expect((await pl(t.bob.token, 'GET', `/playlists/${OTHER_GUILD_ID}`)).body.data).toEqual({
        playlists: [],
        nextCursor: null,
      });
      expect((await pl(t.bob.token, 'GET', `/playlist/${privateId}`)).status).toBe(404);
      expect((await pl(t.bob.token, 'GET', `/playlist/${publicId}`)).status).toBe(200);
    });

    test('songs: only the creator adds and removes; a duplicate is refused with the spec text', async () => {
      const add = (token: string, id: string, url: string, title: string) =>
        pl<{ song: { id: string } }>(token, 'POST', `/playlist/${id}/songs`, {
          songInfo: songInfo(url, title),
        });
      expect((await add(alice(), publicId, songs.a, 'Alpha song')).status).toBe(200);
      expect((await add(alice(), publicId, songs.b, 'Bravo song')).status).toBe(200);
      const dup = await add(alice(), publicId, songs.a, 'Alpha song');
      expect(dup.status).toBe(409);
      expect(dup.body.error).toBe(MUSIC_TEXTS.songAlreadyAdded);
      const byOther = await add(t.bob.token, publicId, songs.c, 'Charlie song');
      expect(byOther.status).toBe(403);
      expect(byOther.body.error).toBe(MUSIC_TEXTS.notPlaylistCreator);
      expect((await add(t.bob.token, privateId, songs.c, 'Charlie song')).status).toBe(404);
      expect((await add(alice(), publicId, 'https://example.com/x', 'X')).status).toBe(400);
      expect(
        (await pl(alice(), 'POST', `/playlist/${publicId}/songs`, { songInfo: { title: 'x' } })).status,
      ).toBe(400);

      const c = await add(alice(), privateId, songs.c, 'Charlie song');
      const list = await pl<{ playlist: PlaylistWithSongs }>(alice(), 'GET', `/playlist/${publicId}`);
      expect(list.body.data.playlist.songs.map((s) => s.title)).toEqual(['Alpha song', 'Bravo song']);
      expect(list.body.data.playlist.song_count).toBe(2);
      expect(
        (await pl(t.bob.token, 'DELETE', `/playlist/${privateId}/songs/${c.body.data.song.id}`)).status,
      ).toBe(404);
      const removed = await pl<{ playlist: PlaylistWithSongs }>(
        alice(),
        'DELETE',
        `/playlist/${privateId}/songs/${c.body.data.song.id}`,
      );
      expect(removed.body.data.playlist.songs).toEqual([]);
      expect(
        (await pl(alice(), 'DELETE', `/playlist/${privateId}/songs/${c.body.data.song.id}`)).status,
      ).toBe(404);
    });

    test('rename: only the creator, name required and trimmed', async () => {
      expect((await pl(t.bob.token, 'PUT', `/playlist/${publicId}`, { name: 'Mine now' })).status).toBe(403);
      expect((await pl(t.bob.token, 'PUT', `/playlist/${privateId}`, { name: 'Mine now' })).status).toBe(404);
      const blank = await pl(alice(), 'PUT', `/playlist/${publicId}`, { name: ' ' });
      expect(blank.status).toBe(400);
      expect(blank.body.error).toBe(MUSIC_TEXTS.playlistNameRequired);
      const renamed = await pl<{ playlist: Playlist }>(alice(), 'PUT', `/playlist/${publicId}`, {
        name: ' Party! ',
      });
      expect(renamed.body.data.playlist.name).toBe('Party!');
    });

    test('visibility: only the creator changes it', async () => {
      expect(
        (await pl(t.bob.token, 'PUT', `/playlist/${publicId}/visibility`, { isPublic: false })).status,
      ).toBe(403);
      const res = await pl<{ playlist: Playlist }>(alice(), 'PUT', `/playlist/${privateId}/visibility`, {
        isPublic: true,
      });
      expect(res.body.data.playlist.is_public).toBe(true);
      expect((await pl(t.bob.token, 'GET', `/playlist/${privateId}`)).status).toBe(200);
      await pl(alice(), 'PUT', `/playlist/${privateId}/visibility`, { isPublic: false });
      expect(
        (await pl(alice(), 'PUT', `/playlist/${privateId}/visibility`, { isPublic: 'yes' })).status,
      ).toBe(400);
    });

    test('play replaces the queue and starts; queue appends; an empty or hidden playlist is refused', async () => {
      const played = await pl<{ added: number; action: string; status: PlaybackStatus }>(
        alice(),
        'POST',
        `/playlist/${publicId}/play/${GUILD_ID}`,
        { shuffle: false },
      );
      expect(played.status).toBe(200);
      expect(played.body.data).toMatchObject({ added: 2, action: 'playing' });
      expect(played.body.data.status.currentSong?.title).toBe('Alpha song');
      expect(played.body.data.status.queue.map((q) => q.title)).toEqual(['Bravo song']);

      const queued = await pl<{ added: number; action: string; status: PlaybackStatus }>(
        alice(),
        'POST',
        `/playlist/${publicId}/queue/${GUILD_ID}`,
        { shuffle: true },
      );
      expect(queued.body.data).toMatchObject({ added: 2, action: 'queued' });
      expect(queued.body.data.status.currentSong?.title).toBe('Alpha song');
      expect(queued.body.data.status.queue.map((q) => q.title).sort()).toEqual([
        'Alpha song',
        'Bravo song',
        'Bravo song',
      ]);

      const empty = await pl(alice(), 'POST', `/playlist/${privateId}/play/${GUILD_ID}`, {});
      expect(empty.status).toBe(409);
      expect(empty.body.error).toBe(MUSIC_TEXTS.playlistEmpty);
      expect((await pl(t.bob.token, 'POST', `/playlist/${privateId}/queue/${GUILD_ID}`, {})).status).toBe(
        404,
      );
      // Bob may use Alice's public playlist, but must be in a voice channel.
      expect((await pl(t.bob.token, 'POST', `/playlist/${publicId}/queue/${GUILD_ID}`, {})).status).toBe(409);
      await control(`/api/music/stop/${GUILD_ID}`);
    });

    test('delete: only the creator; then it is gone', async () => {
      expect((await pl(t.bob.token, 'DELETE', `/playlist/${publicId}`)).status).toBe(403);
      expect((await pl(alice(), 'DELETE', `/playlist/${publicId}`)).body).toEqual({
        success: true,
        data: { message: 'Playlist deleted' },
      });
      expect((await pl(alice(), 'GET', `/playlist/${publicId}`)).status).toBe(404);
      expect((await pl(alice(), 'GET', '/playlist/not-a-uuid')).status).toBe(400);
    });
  });
  test('when Discord drops the bot from its channel for good, the song stops and status says so', async () => {
    expect((await play(songs.a)).status).toBe(200);
    expect((await status(t, alice())).voiceChannel).not.toBeNull();
    t.discord.setVoiceState(GUILD_ID, t.discord.botUser.id, null); // a moderator disconnects the bot
    await eventually(
      async () => expect(await status(t, alice())).toMatchObject({ voiceChannel: null, currentSong: null }),
      { interval: 200 },
    );
    // Playing again joins again.
    expect((await play(songs.b)).body.data).toMatchObject({ action: 'playing' });
    expect((await status(t, alice())).voiceChannel?.name).toBe('Lounge');
    await control(`/api/music/stop/${GUILD_ID}`);
  });
});
