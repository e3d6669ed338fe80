import { randomUUID } from 'node:crypto';
import {
  DISCORD_NOTES_DEFAULTS,
  type DiscordNoteEvent,
  DiscordNotesSettings,
  type DiscordNotesSettingsBody,
} from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { findUserById } from '../users/index.ts';
import { insertNote, readSettingsValue, writeSettingsValue } from './repo.ts';

/**
 * What a note says, as queued: plain values (names unescaped), rendered into a message by the bot's
 * instance when it posts (render.ts). `path` is a portal page; the message links to it absolutely.
 */
export type NotePayload =
  | { kind: 'share'; who: string; name: string; size: number; path: string }
  | { kind: 'lobby'; game: 'pictionary' | 'tictactoe'; who: string; path: string }
  | { kind: 'song'; who: string; title: string; more: number }
  | { kind: 'test'; who: string };

/** The settings as saved, or the defaults (no channel, every event off) when none were saved or they are unreadable. */
export async function loadSettings(db: Db): Promise<DiscordNotesSettings> {
  const raw = await readSettingsValue(db);
  if (!raw) return structuredClone(DISCORD_NOTES_DEFAULTS);
  try {
    const parsed = DiscordNotesSettings.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : structuredClone(DISCORD_NOTES_DEFAULTS);
  } catch {
    return structuredClone(DISCORD_NOTES_DEFAULTS);
  }
}

export async function saveSettings(db: Db, body: DiscordNotesSettingsBody): Promise<DiscordNotesSettings> {
  const settings: DiscordNotesSettings = { channelId: body.channelId, events: { ...body.events } };
  await writeSettingsValue(db, JSON.stringify(settings));
  return settings;
}

export async function enqueue(db: Db, payload: NotePayload, now: number): Promise<void> {
  await insertNote(db, {
    id: randomUUID(),
    payload: JSON.stringify(payload),
    created_at: new Date(now).toISOString(),
  });
}

/**
 * Queues a note for `event` if the admin switched it on and chose a channel; `postedIn` is the channel
 * where the same thing was already posted (a game command's invite), which gets no second copy. Returns
 * whether a note was queued.
 */
export async function noteIfWanted(
  db: Db,
  event: DiscordNoteEvent,
  make: () => Promise<NotePayload>,
  o: { now: number; postedIn?: string | null },
): Promise<boolean> {
  const s = await loadSettings(db);
  if (!s.channelId || !s.events[event]) return false;
  if (o.postedIn && o.postedIn === s.channelId) return false;
  await enqueue(db, await make(), o.now);
  return true;
}

/** A member's name as notes show it (their portal username), or a neutral word for an unknown id. */
export async function nameOf(db: Db, userId: string): Promise<string> {
  return (await findUserById(db, userId))?.username ?? 'A member';
}
