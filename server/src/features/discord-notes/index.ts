/**
 * Channel notes (issue 44): what other features call when something worth a note happens, and the
 * feature that posts them from the bot's instance. Each `note…` queues a note only if the admin switched
 * that event on and chose a channel; it never posts by itself.
 */
import { DISCORD_NOTES_DRAIN_MS } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { beatOn, defineFeature } from '../../platform/feature.ts';
import { NotePoster } from './poster.ts';
import { type NotesConfig, notesRoutes } from './routes.ts';
import { nameOf, noteIfWanted } from './service.ts';

export type { DiscordNotesTables } from './tables.ts';

/**
 * The poster of each app, by its database: a note queued here is posted at once when this instance
 * holds the bot, instead of at the next beat. Other features know the database, not this feature's state.
 */
const posters = new WeakMap<Db, NotePoster>();
const queued = (db: Db) => (wanted: boolean) => {
  if (wanted) posters.get(db)?.kick();
};

/** A file shared by a public, password-less link (the caller checks that): name, size, sharer, link. */
export async function noteFileShared(
  db: Db,
  n: { sharerId: string; name: string; size: number; path: string; now: number },
): Promise<void> {
  await noteIfWanted(
    db,
    'share',
    async () => ({
      kind: 'share',
      who: await nameOf(db, n.sharerId),
      name: n.name,
      size: n.size,
      path: n.path,
    }),
    { now: n.now },
  ).then(queued(db));
}

/**
 * A lobby anyone may join was opened: a note with a Join button to `path`. `postedIn`: the channel a
 * game command already posted the invite in (no second copy there).
 */
export async function noteLobbyOpened(
  db: Db,
  n: {
    game: 'pictionary' | 'tictactoe';
    hostId: string;
    path: string;
    now: number;
    postedIn?: string | null;
  },
): Promise<void> {
  await noteIfWanted(
    db,
    'lobby',
    async () => ({ kind: 'lobby', game: n.game, who: await nameOf(db, n.hostId), path: n.path }),
    { now: n.now, postedIn: n.postedIn },
  ).then(queued(db));
}

/** A song was requested (queued or played): its title, who asked, and how many more a list link added. */
export async function noteSongRequested(
  db: Db,
  n: { who: string; title: string; more: number; now: number },
): Promise<void> {
  const payload = { kind: 'song' as const, who: n.who, title: n.title, more: n.more };
  await noteIfWanted(db, 'song', async () => payload, { now: n.now }).then(queued(db));
}

type NotesState = { poster: NotePoster; stopBeat: (() => void) | null };

export const discordNotesFeature = defineFeature<NotesState, NotesConfig>({
  name: 'discord-notes',
  config: (c) => ({
    botToken: c.discord.botToken,
    apiUrl: c.discord.botApiUrl,
    guildId: c.discord.defaultGuildId ?? null,
    publicUrl: c.publicUrl ?? null,
  }),
  setup: ({ db, log, config, botHolder }) => {
    const poster = new NotePoster({
      db,
      log,
      publicUrl: config.publicUrl,
      isHolder: () => botHolder.isHolder(),
    });
    // Only where the bot is logged in (the holder) is there a client to post with.
    botHolder.onBotReady((client) => poster.attach(client.rest));
    botHolder.onBotGone(() => poster.attach(null));
    posters.set(db, poster);
    return { poster, stopBeat: null };
  },
  routes: (ctx, { poster }) => notesRoutes(ctx, poster),
  // Notes queued on other instances are posted within a beat.
  start: ({ clock }, state) => {
    state.stopBeat = beatOn(clock, DISCORD_NOTES_DRAIN_MS, async () => {
      state.poster.kick();
      await state.poster.settled();
    });
  },
  stop: async (_ctx, state) => {
    state.stopBeat?.();
    state.stopBeat = null;
    state.poster.attach(null);
    await state.poster.settled();
  },
});
