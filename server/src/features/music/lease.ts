import { MUSIC_BOT_LEASE_RENEWALS, type MusicBotHolder } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Clock } from '../../platform/feature.ts';
import { findLease, insertLeaseIfAbsent, releaseLease, renewLease, takeExpiredLease } from './repo.ts';

/** The lease's row name: one Discord bot per deployment. */
const LEASE_NAME = 'discord-bot';
/** What a released lease's expiry is set to: long past on every instance's clock. */
const RELEASED = new Date(0).toISOString();

export type LeaseOptions = {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** This instance's id (unique per process start). */
  instanceId: string;
  ttlMs: number;
  /** Called once this instance holds the lease (the bot may log in); `epoch` is its fencing token. */
  onAcquired: (epoch: number) => void;
  /** Called when this instance no longer holds it (another took it, or it could not renew in time). */
  onLost: () => void;
};

/**
 * The lease that decides which instance holds the Discord bot: a row in the shared database with the
 * holder, an expiry and a fencing epoch (docs/operations.md, "One music bot").
 *
 * Every instance ticks every third of the lease period: the holder extends it, the others take it when it
 * has run out (the row lock lets exactly one of them). An instance that does not hold it also looks right
 * when the holder's lease as last read runs out, so a dead holder's bot is taken over at its expiry and not
 * up to a third of a period later: after a kill -9 the music plays on within the lease period plus the new
 * holder's login and rejoin (issue 42 asks for 15 s; with the default 10 s lease that leaves 5 s for them).
 * A holder that cannot renew (the database away) steps down by itself once its lease has run out, before
 * anyone else can take it over — so two instances never both believe they hold the bot, as long as their
 * clocks agree within the lease period. A graceful stop releases it at once. Every write of stored playback carries the epoch and is refused when a newer holder
 * wrote already. Time comes from the context's clock, so tests move it instead of waiting.
 */
export class BotLease {
  private readonly o: LeaseOptions;
  /** This instance's epoch while it holds the lease, else null. */
  private held: { epoch: number; expiresAt: number } | null = null;
  /** The holder as last read (for forwarding, /readyz and the admin panel). */
  private known: { holder: string; epoch: number; expiresAt: string } | null = null;
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(o: LeaseOptions) {
    this.o = o;
  }

  /** This instance's fencing token while it holds the lease, else null. */
  get epoch(): number | null {
    return this.held?.epoch ?? null;
  }

  get isHolder(): boolean {
    return this.held !== null;
  }

  /** The instance holding the bot now as far as this one knows (null: none, or its lease ran out). */
  holder(): string | null {
    if (this.held) return this.o.instanceId;
    const k = this.known;
    if (!k || Date.parse(k.expiresAt) <= this.o.clock.now()) return null;
    return k.holder;
  }

  describe(): MusicBotHolder {
    const holder = this.holder();
    const k = this.known;
    return {
      thisInstance: this.o.instanceId,
      leased: true,
      holder,
      epoch: holder ? (this.held?.epoch ?? k?.epoch ?? null) : null,
      expiresAt: holder
        ? this.held
          ? new Date(this.held.expiresAt).toISOString()
          : (k?.expiresAt ?? null)
        : null,
    };
  }

  /** The first tick at once, then one every third of the lease period. */
  start(): Promise<void> {
    this.stopped = false;
    return this.tick();
  }

  /** Ticks now (another instance released the lease or took it): a handover need not wait for the timer. */
  poke(): Promise<void> {
    return this.tick();
  }

  /** Stops ticking; with `release`, ends this instance's lease at once so another takes over now. */
  async stop(release: boolean): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.o.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    const held = this.held;
    this.held = null;
    if (held && release) {
      await releaseLease(this.o.db, LEASE_NAME, this.o.instanceId, held.epoch, RELEASED).catch(
        (err: unknown) =>
          this.o.log.warn(
            { err },
            'music bot: could not release the lease; another instance takes over when it runs out',
          ),
      );
    }
  }

  private tick(): Promise<void> {
    // One tick at a time; a poke during a tick is served by it.
    this.running ??= this.renewOrTake().finally(() => {
      this.running = null;
      this.schedule();
    });
    return this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer !== null) this.o.clock.clearTimeout(this.timer);
    this.timer = this.o.clock.setTimeout(() => {
      this.timer = null;
      return this.tick();
    }, this.nextLookInMs());
  }

  /** A third of the period; for an instance waiting for the bot, sooner if the holder's lease runs out first. */
  private nextLookInMs(): number {
    const period = Math.max(1, Math.floor(this.o.ttlMs / MUSIC_BOT_LEASE_RENEWALS));
    const k = this.known;
    if (this.held || !k) return period;
    // A live holder renews before this comes; just after it (the expiry must have passed to take the lease).
    const untilExpiry = Date.parse(k.expiresAt) - this.o.clock.now() + 1;
    return untilExpiry > 0 ? Math.min(period, untilExpiry) : period;
  }

  private async renewOrTake(): Promise<void> {
    if (this.stopped) return;
    const { db, instanceId, ttlMs, clock } = this.o;
    const now = clock.now();
    const expiresAt = now + ttlMs;
    try {
      if (this.held) {
        if (await renewLease(db, LEASE_NAME, instanceId, this.held.epoch, iso(expiresAt))) {
          this.held.expiresAt = expiresAt;
        } else {
          this.o.log.warn(
            { epoch: this.held.epoch },
            'music bot: another instance took the lease; stopping the bot here',
          );
          this.lose();
        }
      } else {
        const first = await insertLeaseIfAbsent(db, {
          name: LEASE_NAME,
          holder: instanceId,
          epoch: 1,
          expires_at: iso(expiresAt),
          acquired_at: iso(now),
        });
        if (first || (await takeExpiredLease(db, LEASE_NAME, instanceId, iso(now), iso(expiresAt)))) {
          const row = await findLease(db, LEASE_NAME);
          if (row && row.holder === instanceId && !this.stopped) {
            this.held = { epoch: Number(row.epoch), expiresAt };
            this.o.log.info({ epoch: this.held.epoch }, 'music bot: this instance holds the bot lease');
            this.o.onAcquired(this.held.epoch);
          }
        }
      }
      const row = await findLease(db, LEASE_NAME);
      this.known = row ? { holder: row.holder, epoch: Number(row.epoch), expiresAt: row.expires_at } : null;
    } catch (err) {
      this.o.log.warn({ err }, 'music bot: the lease could not be read or renewed');
      // Self-fencing: with the database away, nobody can take the lease before it runs out; once it has,
      // this instance must assume someone did.
      if (this.held && clock.now() >= this.held.expiresAt) {
        this.o.log.warn('music bot: the lease ran out without a renewal; stopping the bot here');
        this.lose();
      }
    }
  }

  private lose(): void {
    this.held = null;
    this.o.onLost();
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
