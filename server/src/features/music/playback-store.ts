import { EqSettings, MusicEffect, Song, VoiceChannelInfo } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { Clock } from '../../platform/feature.ts';
import { isoOn } from '../../platform/time.ts';
import type { StoredPlayback } from './player.ts';
import { findGuildState, listGuildStates, saveGuildPosition, saveGuildState } from './repo.ts';
import type { MusicGuildStateTable } from './tables.ts';

/**
 * Each guild's playback kept in the database (issue 42), written by the instance that holds the bot: the
 * whole of it on every change (coalesced: one write per guild at a time, always of the latest state), the
 * position alone every few seconds while a song plays. Every write carries the holder's lease epoch
 * (`epoch()`; null while it holds none: nothing is written), and a newer holder's row is never overwritten.
 */
export class PlaybackStore {
  private readonly db: Db;
  private readonly log: FastifyBaseLogger;
  private readonly epoch: () => number | null;
  private readonly clock: Clock;
  /** Per guild: the write in progress, and the snapshot to write after it (only the latest is kept). */
  private readonly writes = new Map<
    string,
    { running: Promise<void>; next: (() => StoredPlayback) | null }
  >();

  constructor(db: Db, log: FastifyBaseLogger, epoch: () => number | null, clock: Clock) {
    this.db = db;
    this.log = log;
    this.epoch = epoch;
    this.clock = clock;
  }

  /** Stores a guild's playback soon; `snapshot` is taken when the write runs, so a burst of changes is one write. */
  save(guildId: string, snapshot: () => StoredPlayback): Promise<void> {
    const w = this.writes.get(guildId);
    if (w) {
      w.next = snapshot;
      return w.running;
    }
    const entry: { running: Promise<void>; next: (() => StoredPlayback) | null } = {
      running: Promise.resolve(),
      next: snapshot,
    };
    entry.running = (async () => {
      await new Promise<void>((r) => setImmediate(r));
      while (entry.next) {
        const take = entry.next;
        entry.next = null;
        await this.write(guildId, take());
      }
      this.writes.delete(guildId);
    })();
    this.writes.set(guildId, entry);
    return entry.running;
  }

  /** Stores the song's position only (a few bytes, every few seconds while it plays). */
  async savePosition(guildId: string, position: number): Promise<void> {
    const epoch = this.epoch();
    if (epoch === null || this.writes.has(guildId)) return; // a whole write is on its way
    await saveGuildPosition(this.db, guildId, epoch, position, isoOn(this.clock)).catch((err: unknown) =>
      this.log.warn({ err, guildId }, 'music: could not store the position'),
    );
  }

  /** Waits for every write in progress. */
  async flush(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes.values()].map((w) => w.running));
  }

  async load(guildId: string): Promise<StoredPlayback | null> {
    const row = await findGuildState(this.db, guildId);
    return row ? this.parse(row) : null;
  }

  async loadAll(): Promise<Map<string, StoredPlayback>> {
    const out = new Map<string, StoredPlayback>();
    for (const row of await listGuildStates(this.db)) {
      const s = this.parse(row);
      if (s) out.set(row.guild_id, s);
    }
    return out;
  }

  private async write(guildId: string, s: StoredPlayback): Promise<void> {
    const epoch = this.epoch();
    if (epoch === null) return;
    await saveGuildState(this.db, {
      guild_id: guildId,
      epoch,
      channel_id: s.channel?.id ?? null,
      channel_name: s.channel?.name ?? null,
      current_song: s.current ? JSON.stringify(s.current) : null,
      queue: JSON.stringify(s.queue),
      history: JSON.stringify(s.history),
      effects: JSON.stringify(s.effects),
      eq: JSON.stringify(s.eq),
      paused: s.paused ? 1 : 0,
      position: s.position,
      updated_at: isoOn(this.clock),
    }).catch((err: unknown) => this.log.warn({ err, guildId }, 'music: could not store the playback'));
  }

  /** A stored row as playback; a row this code cannot read (an older shape, damage) is left out and logged. */
  private parse(row: MusicGuildStateTable): StoredPlayback | null {
    const parsed = StoredRow.safeParse({
      channel: row.channel_id ? { id: row.channel_id, name: row.channel_name ?? 'Voice channel' } : null,
      current: row.current_song ? JSON.parse(row.current_song) : null,
      queue: JSON.parse(row.queue),
      history: JSON.parse(row.history),
      effects: JSON.parse(row.effects),
      eq: JSON.parse(row.eq),
      paused: Number(row.paused) === 1,
      position: Number(row.position),
    });
    if (!parsed.success) {
      this.log.warn(
        { guildId: row.guild_id, issues: parsed.error.issues.slice(0, 3) },
        'music: stored playback unreadable',
      );
      return null;
    }
    return parsed.data;
  }
}

const StoredRow = z.object({
  channel: VoiceChannelInfo.nullable(),
  current: Song.nullable(),
  queue: z.array(Song),
  history: z.array(Song),
  effects: z.array(MusicEffect),
  eq: EqSettings,
  paused: z.boolean(),
  position: z.number().min(0),
});
