import type { REST } from '@discordjs/rest';
import { DISCORD_NOTE_TEXTS as T } from '@guildhall/common';
import { Routes } from 'discord-api-types/v10';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { fail } from '../../platform/errors.ts';
import { type Escape, renderNote } from './render.ts';
import { oldestNotes, takeNote } from './repo.ts';
import { loadSettings, type NotePayload } from './service.ts';

/** Notes posted per drain: the rest waits for the next beat (Discord's per-channel limit is 5 per 5 s). */
const BATCH = 5;

/**
 * Posts the queued notes through the bot's own REST client, only on the instance holding the bot (the
 * bot's READY hands the client over, its logout takes it back): every instance queues, one posts. A note
 * is taken off the queue before it is posted, so it is posted at most once; one Discord refuses is logged
 * and dropped (a deleted channel must not block the queue).
 */
export class NotePoster {
  private rest: REST | null = null;
  private escape: Escape | null = null;
  private running: Promise<void> | null = null;
  private readonly o: { db: Db; log: FastifyBaseLogger; publicUrl: string | null; isHolder: () => boolean };

  constructor(o: { db: Db; log: FastifyBaseLogger; publicUrl: string | null; isHolder: () => boolean }) {
    this.o = o;
  }

  /** The bot logged in here (its REST client), or left (null). */
  attach(rest: REST | null): void {
    this.rest = rest;
    if (rest) this.kick();
  }

  /** Whether this instance posts now. */
  canPost(): boolean {
    return this.rest !== null && this.o.isHolder();
  }

  /** Posts what is queued, unless a drain is under way (which picks up what was queued meanwhile). */
  kick(): void {
    if (this.running || !this.canPost()) return;
    this.running = this.drain()
      .catch((err: unknown) => this.o.log.warn({ err }, 'discord notes: the queue could not be read'))
      .finally(() => {
        this.running = null;
      });
  }

  /** Resolves once the drain under way (if any) is done (tests; a clean stop). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Posts one note now, in the channel saved (the admin's test note): throws what Discord answered, so
   * the admin reads why it did not arrive.
   */
  async postNow(payload: NotePayload): Promise<void> {
    const { channelId } = await loadSettings(this.o.db);
    if (!channelId) throw fail('BAD_REQUEST', T.noChannel);
    if (!this.o.publicUrl) throw fail('DISCORD_NOTES_NOT_CONFIGURED', T.noPublicUrl);
    const rest = this.rest;
    if (!rest) throw fail('DISCORD_NOTES_NOT_CONFIGURED', T.noBot);
    try {
      await rest.post(Routes.channelMessages(channelId), {
        body: renderNote(payload, this.o.publicUrl, await this.escaper()),
      });
    } catch (err) {
      throw fail('BAD_GATEWAY', T.refused(err instanceof Error ? err.message : String(err)));
    }
  }

  private async escaper(): Promise<Escape> {
    this.escape ??= (await import('discord.js')).escapeMarkdown;
    return this.escape;
  }

  private async drain(): Promise<void> {
    const { db, log, publicUrl } = this.o;
    for (;;) {
      const rest = this.rest;
      if (!rest || !this.o.isHolder()) return;
      const notes = await oldestNotes(db, BATCH);
      if (notes.length === 0) return;
      const { channelId } = await loadSettings(db);
      const esc = await this.escaper();
      for (const note of notes) {
        if (!(await takeNote(db, note.id))) continue;
        // Switched off (no channel) or no address for the links since it was queued: dropped.
        if (!channelId || !publicUrl) continue;
        try {
          const body = renderNote(JSON.parse(note.payload) as NotePayload, publicUrl, esc);
          await rest.post(Routes.channelMessages(channelId), { body });
        } catch (err) {
          log.warn({ err, channelId }, 'discord notes: a note could not be posted');
        }
      }
      if (notes.length < BATCH) return;
    }
  }
}
