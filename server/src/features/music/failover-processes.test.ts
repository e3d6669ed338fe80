import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  libraryUrl,
  MUSIC_BOT_LEASE_SECONDS_DEFAULT,
  type MusicBotHolder,
  type PlaybackStatus,
} from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../db/index.ts';
import { deleteRedisKeys } from '../../platform/rate-limit/testing.ts';
import { createPgSchema } from '../../test/app.ts';
import { eventually } from '../../test/eventually.ts';
import { buildSignedInUser } from '../../test/factories.ts';
import { testCaBundle } from '../../test/fake-discord-bot/ca-env.ts';
import {
  type FakeDiscordBot,
  isSilenceFrame,
  startFakeDiscordBot,
} from '../../test/fake-discord-bot/index.ts';
import { type ServerProcess, ServerProcesses } from '../../test/server-process.ts';
import { findLease } from './repo.ts';
import {
  ALICE,
  audioAfter,
  chirp,
  chirpPosition,
  GUILD_ID,
  TEST_GUILDS,
  tone,
  VOICE_CHANNEL_ID,
} from './test-helpers.ts';

/**
 * Issue 42, "what it must show" point 2, with real processes: two portal processes (`node
 * server/src/main.ts`, as production runs them) on one PostgreSQL schema, one Redis and one shared
 * DATA_DIR, the bot of each logging in to the fake Discord that decodes the audio it receives. The holder
 * is killed with SIGKILL mid-song (its sockets close as a dying process's do; nothing of it runs again),
 * then both instances are restarted one after the other with SIGTERM. Runs once, in the PostgreSQL pass.
 *
 * The song is a rising tone (test-helpers `chirp`): its pitch at the fake tells where in the song the
 * bot is. The pitch is read only below 2 kHz (the first 17 s), so before each disruption the song is
 * sought back to 2 s — through the instance that does not hold the bot, so that forwarding is exercised
 * on every step too.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const enabled = process.env.TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL && !!redisUrl;

/**
 * The lease these processes run with (MUSIC_BOT_LEASE_SECONDS): shorter than the product's default so
 * the kill costs the suite less; the takeover is timed in phases and the default's bound is checked from
 * them (see the first test).
 */
const TEST_LEASE_SECONDS = 5;
/** The bound: after a kill -9 of the holder, the song plays on within 15 s. */
const FAILOVER_BOUND_MS = 15_000;
/** Positions must agree within ±2 s (issue 42). */
const POSITION_TOLERANCE_S = 2;
/** Where each disruption starts from: early in the chirp, where its pitch is read reliably. */
const SEEK_TO_S = 2;

type Instance = ServerProcess & { name: string };

describe.runIf(enabled)(
  'one Discord bot, real processes: kill -9 of the holder and a rolling restart',
  () => {
    const processes = new ServerProcesses();
    const prefix = `gh-test-onebot-proc-${randomBytes(5).toString('hex')}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-onebot-proc-'));
    let discord: FakeDiscordBot;
    let schema: Awaited<ReturnType<typeof createPgSchema>>;
    let db: Db;
    let env: Record<string, string>;
    let alice: string;
    let admin: string;
    /** The instances running now, by name. */
    const live = new Map<string, Instance>();
    /** Every instance started (stopped ones too): their logs tell a failure's story. */
    const started: Instance[] = [];
    let expectedQueue: string[] = [];

    const start = async (name: string): Promise<Instance> => {
      const instance = { ...(await processes.start(env)), name };
      live.set(name, instance);
      started.push(instance);
      return instance;
    };
    const call = async <T>(
      instance: Instance,
      token: string,
      method: 'GET' | 'POST',
      url: string,
      body?: unknown,
    ): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${instance.url}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as T };
    };
    const status = async (instance: Instance) =>
      (await call<{ data: PlaybackStatus }>(instance, alice, 'GET', `/api/music/status/${GUILD_ID}`)).body
        .data;
    const holderSeenBy = async (instance: Instance) =>
      (await call<{ data: MusicBotHolder }>(instance, admin, 'GET', '/api/music/bot')).body.data;
    /** The instance whose bot is the one playing: it names itself as the holder. */
    const isHolder = async (instance: Instance) => {
      const h = await holderSeenBy(instance);
      return h.holder !== null && h.holder === h.thisInstance;
    };
    const upload = async (to: Instance, name: string, content: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(content)]), name);
      const started = await fetch(`${to.url}/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice}` },
        body: form,
      });
      expect(started.status).toBe(200);
      const { fileId, totalChunks } = (await started.json()) as { fileId: string; totalChunks: number };
      const done = await call(to, alice, 'POST', '/upload/complete', {
        fileId,
        fileName: name,
        fileSize: content.length,
        totalChunks,
      });
      expect(done.status).toBe(200);
      return libraryUrl(fileId);
    };
    /** Resolves once `instance` lists the bot's servers: the bot is logged in (here or at the holder). */
    const botOnline = (instance: Instance) =>
      eventually(async () => {
        const res = await call<{ data: { guilds: unknown[] } }>(instance, alice, 'GET', '/api/music/guilds');
        expect(res.body.data?.guilds, logs()).toHaveLength(TEST_GUILDS.length);
      });
    /** A failure's message: what the processes logged last. */
    const logs = () => started.map((i) => `--- ${i.name} ---\n${i.output().slice(-3000)}`).join('\n');

    /**
     * Seeks the chirp back to SEEK_TO_S through `via` (an instance that does not hold the bot) and waits
     * until the fake hears it there. Returns the holder's status right after.
     */
    const rewind = async (via: Instance, holder: Instance): Promise<PlaybackStatus> => {
      const res = await call(via, alice, 'POST', `/api/music/seek/${GUILD_ID}`, { time: SEEK_TO_S });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await eventually(async () =>
        expect(chirpPosition(await audioAfter(discord, performance.now(), 0, 50))).toBeLessThan(
          SEEK_TO_S + 3,
        ),
      );
      return status(holder);
    };

    /**
     * Polls `instance`'s status until its bot plays the chirp again, keeping every status seen: meanwhile
     * members must see the song and the queue as they were, "Reconnecting" and never a wrong "Idle".
     */
    const watchUntilPlaying = async (instance: Instance): Promise<PlaybackStatus[]> => {
      const seen: PlaybackStatus[] = [];
      await eventually(
        async () => {
          const s = await status(instance);
          seen.push(s);
          expect(s, logs()).toMatchObject({
            botState: 'online',
            state: 'playing',
            currentSong: { title: 'chirp' },
          });
        },
        { interval: 100 },
      );
      for (const s of seen) {
        const shown = JSON.stringify({ ...s, history: undefined }).slice(0, 800);
        expect(s.currentSong?.title, shown).toBe('chirp');
        expect(s.idle, shown).toBe(false);
        expect(
          s.queue.map((q) => q.title),
          shown,
        ).toEqual(expectedQueue);
        expect(['online', 'reconnecting'], shown).toContain(s.botState);
      }
      return seen;
    };

    beforeAll(async () => {
      discord = await startFakeDiscordBot(structuredClone(TEST_GUILDS));
      discord.setVoiceState(GUILD_ID, ALICE.id, VOICE_CHANNEL_ID);
      schema = await createPgSchema();
      env = {
        DATABASE_URL: schema.url,
        REDIS_URL: redisUrl as string,
        REDIS_PREFIX: prefix,
        DATA_DIR: dataDir, // one local file store for both, as a shared volume would be
        ACCESS_CODE: 'onebot-processes-access-code',
        DISCORD_BOT_TOKEN: discord.token,
        DISCORD_BOT_API_URL: discord.apiUrl,
        MUSIC_DEFAULT_GUILD_ID: GUILD_ID,
        MUSIC_BOT_LEASE_SECONDS: String(TEST_LEASE_SECONDS),
        // The fake's voice gateway serves TLS from the test CA; Node reads this only at process start.
        NODE_EXTRA_CA_CERTS: testCaBundle(),
      };
      // A first (it migrates the schema and takes the lease), then B.
      const a = await start('A');
      await start('B');
      db = openDb(schema.url);
      alice = (await buildSignedInUser(db, { discord_id: ALICE.id, username: ALICE.username })).token;
      admin = (await buildSignedInUser(db, { access_level: 'admin' })).token;
      await eventually(async () => expect(await isHolder(a), logs()).toBe(true));
      await Promise.all([...live.values()].map(botOnline));
    });

    afterAll(async () => {
      await processes.killAll(); // whatever happened above, no server outlives the suite
      await db?.destroy();
      await discord?.close();
      if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
      await schema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('A killed with SIGKILL mid-song: B takes the lease and plays the same song on at its position, queue intact, the takeover time reported', async () => {
      const a = live.get('A') as Instance;
      const b = live.get('B') as Instance;
      const [rising, a440, a100] = await Promise.all([chirp(100), tone(440, 5), tone(100, 5)]);
      const urls = {
        chirp: await upload(a, 'chirp.wav', rising),
        a440: await upload(b, 'tone 440.wav', a440),
        a100: await upload(a, 'tone 100.wav', a100),
      };
      // Played through A (the holder), queued through B.
      for (const [via, url] of [
        [a, urls.chirp],
        [b, urls.a440],
        [b, urls.a100],
      ] as const) {
        const res = await call(via, alice, 'POST', '/api/music/play', { guildId: GUILD_ID, url });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expectedQueue = ['tone 440', 'tone 100'];
      await audioAfter(discord, performance.now(), 0, 100); // two seconds of it at the fake
      expect(discord.identifyCount()).toBe(1);

      const before = await rewind(b, a);
      expect(before).toMatchObject({ state: 'playing', currentSong: { title: 'chirp' } });
      const oldSsrc = discord.voice.packets.at(-1)?.ssrc;
      const killedAtWall = Date.now();
      const killedAt = performance.now();
      expect((await a.kill()).signal).toBe('SIGKILL');
      // The dead holder's last lease: nothing renews or releases it any more.
      const lastLease = await findLease(db, 'discord-bot');
      expect(lastLease).toMatchObject({ epoch: 1 });

      const seen = await watchUntilPlaying(b);
      // While nobody held a running bot, B said so (the song stays on screen, never a wrong Idle).
      expect(seen.some((s) => s.botState === 'reconnecting')).toBe(true);
      const resumed = seen.at(-1) as PlaybackStatus;
      expect(resumed.voiceChannel?.id).toBe(VOICE_CHANNEL_ID);
      expect(await isHolder(b)).toBe(true);
      const lease = await findLease(db, 'discord-bot');
      expect(lease).toMatchObject({ epoch: 2 });

      // The same song, where it was: judged from the pitch of what the fake hears from B's new connection.
      // (A's last packets, sent before it died, may be read by the fake after the kill: not B's.)
      const heard = await eventually(() => {
        const fromB = discord.voice.packets.filter(
          (p) => p.receivedAt >= killedAt && p.ssrc !== oldSsrc && !isSilenceFrame(p.opus),
        );
        expect(fromB.length).toBeGreaterThanOrEqual(50);
        return fromB.slice(0, 50);
      });
      expect(Math.abs(chirpPosition(heard) - before.elapsedTime)).toBeLessThanOrEqual(POSITION_TOLERANCE_S);
      expect(Math.abs(resumed.elapsedTime - before.elapsedTime)).toBeLessThanOrEqual(
        // The status is read a moment after the audio came back; the song has moved on meanwhile.
        POSITION_TOLERANCE_S + (performance.now() - (heard[0]?.receivedAt ?? 0)) / 1000,
      );
      expect(discord.liveSessions()).toBe(1);
      expect(discord.identifyCount()).toBe(2); // B's login; A's session died with A

      // The takeover in phases, from events: the kill, the dead lease's expiry and B's acquisition (both in
      // the lease row, written from the instances' clocks — the same machine's), the first packet of B's audio.
      const wall = (perf: number) => killedAtWall + (perf - killedAt);
      const expiry = Date.parse(lastLease?.expires_at ?? '');
      const acquired = Date.parse(lease?.acquired_at ?? '');
      const firstAudio = wall(heard[0]?.receivedAt ?? Number.NaN);
      const phases = {
        leaseLeftAtKillMs: expiry - killedAtWall,
        takenAfterExpiryMs: acquired - expiry,
        resumeAfterTakeMs: firstAudio - acquired,
        totalMs: firstAudio - killedAtWall,
      };
      const message = JSON.stringify(phases);
      // The dead holder's lease had at most one period left (the holder renews every third of it).
      expect(phases.leaseLeftAtKillMs, message).toBeLessThanOrEqual(TEST_LEASE_SECONDS * 1000);
      // The takeover's time is the machine's (login, rejoin, ffmpeg start), so it is reported, not asserted: a
      // test never depends on the machine's speed (docs/testing.md; on a busy core it once took longer than
      // the quiet runs' 6.3–11.8 s). With the default lease the design's worst case is
      //   MUSIC_BOT_LEASE_SECONDS_DEFAULT + takenAfterExpiry + resumeAfterTake ≤ 15 s (issue 42),
      // measured and explained in docs/operations.md.
      console.info(
        `failover phases (this suite's ${TEST_LEASE_SECONDS} s lease; default ${MUSIC_BOT_LEASE_SECONDS_DEFAULT} s, bound ${FAILOVER_BOUND_MS} ms): ${message}`,
      );
    });

    it('a rolling restart of both instances, one after the other: the song plays on where it was, queue intact', async () => {
      const b = live.get('B') as Instance;
      live.delete('A'); // killed in the test above
      // A comes back (the operator restarts what was killed); B still holds the bot.
      const a2 = await start('A2');
      await eventually(async () =>
        expect((await holderSeenBy(a2)).holder).toBe((await holderSeenBy(b)).holder),
      );

      /** `stopping` (the holder) gets SIGTERM; `next` plays on from where the song was, with its queue. */
      const handover = async (stopping: Instance, next: Instance) => {
        expect(await isHolder(stopping)).toBe(true);
        const before = await rewind(next, stopping);
        const stoppedAt = performance.now();
        expect(await stopping.stop(), stopping.output().slice(-3000)).toEqual({ code: 0, signal: null });
        live.delete(stopping.name);
        // Features stop before the Redis clients they publish through (issue 42: a status published after
        // Redis closed logged ClientClosedError on every SIGTERM).
        expect(stopping.output()).not.toContain('The client is closed');
        await watchUntilPlaying(next);
        expect(await isHolder(next)).toBe(true);
        const heard = chirpPosition(await audioAfter(discord, stoppedAt, 0, 50));
        expect(Math.abs(heard - before.elapsedTime)).toBeLessThanOrEqual(POSITION_TOLERANCE_S);
        expect(discord.liveSessions()).toBe(1);
        expect(discord.botChannel(GUILD_ID)).toBe(VOICE_CHANNEL_ID);
      };

      // B is restarted: stopped (A2 takes over at once), then started again.
      await handover(b, a2);
      const b2 = await start('B2');
      await eventually(async () =>
        expect((await holderSeenBy(b2)).holder).toBe((await holderSeenBy(a2)).holder),
      );
      // Then A2: stopped (B2 takes over), then started again.
      await handover(a2, b2);
      const a3 = await start('A3');
      await eventually(async () => {
        expect((await holderSeenBy(a3)).holder).toBe((await holderSeenBy(b2)).holder);
        const [s3, s2] = [await status(a3), await status(b2)];
        expect(s3).toMatchObject({ botState: 'online', state: 'playing', currentSong: { title: 'chirp' } });
        expect(s3.queue.map((q) => q.title)).toEqual(expectedQueue);
        expect(s2.queue.map((q) => q.title)).toEqual(expectedQueue);
      });
      expect(discord.liveSessions()).toBe(1);
    });
  },
);
