import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from '../../platform/feature.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { manualClock } from '../../test/manual-clock.ts';
import { BotLease } from './lease.ts';
import { PlaybackStore } from './playback-store.ts';
import type { StoredPlayback } from './player.ts';
import { findLease } from './repo.ts';

const TTL = 10_000;
let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const silentLog = { info() {}, warn() {}, error() {}, debug() {} } as never;

describe('the bot lease (issue 42): one holder, taken over when it runs out, fenced', () => {
  it('one instance holds it; another takes it only after it ran out, with a new epoch; stale writes are refused', async () => {
    t = await createTestApp({}, undefined, { features: ['auth'] });
    const clock = manualClock();
    const events: string[] = [];
    const lease = (id: string) =>
      new BotLease({
        db: t!.db,
        clock,
        log: silentLog,
        instanceId: id,
        ttlMs: TTL,
        onAcquired: (epoch) => events.push(`${id} acquired ${epoch}`),
        onLost: () => events.push(`${id} lost`),
      });
    const a = lease('A');
    const b = lease('B');
    await a.start();
    await b.start();
    expect(events).toEqual(['A acquired 1']);
    expect(b.holder()).toBe('A');
    expect(b.describe()).toMatchObject({ thisInstance: 'B', leased: true, holder: 'A', epoch: 1 });

    // The holder renews every third of the period: B never gets it while A lives.
    await clock.advance(3 * TTL);
    expect(events).toEqual(['A acquired 1']);
    expect(a.isHolder).toBe(true);

    // A dies without releasing (kill -9): B takes over once the lease has run out, not before.
    await a.stop(false);
    await clock.advance(TTL / 2);
    expect(b.isHolder).toBe(false);
    await clock.advance(TTL);
    expect(events).toEqual(['A acquired 1', 'B acquired 2']);
    expect(b.epoch).toBe(2);

    // Fencing: A's last write, arriving late, cannot overwrite what B stored.
    const playback = (position: number): StoredPlayback => ({
      channel: { id: '1', name: 'Lounge' },
      current: null,
      queue: [],
      history: [],
      effects: [],
      eq: { bass: 0, lowMid: 0, mid: 0, highMid: 0, treble: 0 },
      paused: false,
      position,
    });
    const storeOf = (epoch: () => number | null) => new PlaybackStore(t!.db, silentLog, epoch, realClock);
    await storeOf(() => 2).save('42', () => playback(30));
    await storeOf(() => 1).save('42', () => playback(5));
    await storeOf(() => 1).savePosition('42', 6);
    expect((await storeOf(() => 2).load('42'))?.position).toBe(30);
    // An instance that holds no lease writes nothing.
    await storeOf(() => null).save('43', () => playback(1));
    expect(await storeOf(() => 2).load('43')).toBeNull();

    // A graceful stop releases at once: the next instance takes it on its next look, with no wait.
    const c = lease('C');
    await c.start();
    expect(c.isHolder).toBe(false);
    await b.stop(true);
    await c.poke();
    expect(events.at(-1)).toBe('C acquired 3');
    await c.stop(true);
  });

  it("a waiting instance takes a dead holder's lease as it runs out, not up to a third of a period later", async () => {
    t = await createTestApp({}, undefined, { features: ['auth'] });
    const clock = manualClock();
    const acquired: string[] = [];
    const lease = (id: string) =>
      new BotLease({
        db: t!.db,
        clock,
        log: silentLog,
        instanceId: id,
        ttlMs: TTL,
        onAcquired: () => acquired.push(id),
        onLost: () => {},
      });
    const a = lease('A');
    const b = lease('B');
    const renewal = Math.floor(TTL / 3);
    await a.start();
    // B's looks are out of step with A's renewals (instances start when they start).
    await clock.advance(1000);
    await b.start();
    await clock.advance(renewal - 1000); // A renews: its lease now runs a whole period from here
    const expiresAt = Date.parse((await findLease(t.db, 'discord-bot'))?.expires_at ?? '');
    expect(expiresAt).toBe(clock.now() + TTL);
    await a.stop(false); // killed right after renewing

    await clock.advance(expiresAt - clock.now() - 1);
    expect(b.isHolder).toBe(false);
    // B's looks every third of the period fall 2.3 s before the expiry and 1 s after it; it looks at it.
    await clock.advance(2);
    expect(acquired).toEqual(['A', 'B']);
    await b.stop(true);
  });
});
