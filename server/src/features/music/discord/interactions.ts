import {
  DISCORD_AUTOCOMPLETE_MAX,
  DISCORD_AUTOCOMPLETE_WAIT_MS,
  DISCORD_CHOICE_MAX_CHARS,
  DISCORD_COMMANDS,
  DISCORD_OPTIONS,
  DISCORD_SHARE_TEXTS,
  DISCORD_TEXTS,
  type DiscordCommandName,
  MUSIC_CONTROLS_PER_MINUTE,
  MUSIC_LOOP_MODES,
  MUSIC_PLATFORM_LABELS,
  MUSIC_READS_PER_MINUTE,
  MUSIC_SEARCHES_PER_MINUTE,
  MUSIC_TEXTS,
  MUSIC_VOLUME_MAX,
  MUSIC_VOLUME_MIN,
  MUSIC_VOLUME_STEP,
  type MusicButtonAction,
  type MusicPlatform,
  musicButtonId,
  type PlaybackStatus,
  parseMusicButtonId,
  type SearchResult,
} from '@guildhall/common';
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type AutocompleteInteraction,
  type ButtonInteraction,
  ButtonStyle,
  type ChatInputCommandInteraction,
  ComponentType,
  escapeMarkdown,
  type Interaction,
  MessageFlags,
} from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.ts';
import type { OfferedCommand } from '../../../platform/bot-holder.ts';
import { fail } from '../../../platform/errors.ts';
import type { Clock } from '../../../platform/feature.ts';
import { dateOn } from '../../../platform/time.ts';
import type { MusicCommands } from '../front.ts';
import type { Caller } from '../service.ts';
import { identify } from './identity.ts';
import type { MemberLimits } from './limits.ts';
import { formatDuration, type NowPlaying } from './now-playing.ts';
import { shareChoices, shareReply } from './share-command.ts';

export type InteractionDeps = {
  db: Db;
  /** The same commands the web routes call (forwarding, permissions and texts are theirs). */
  music: MusicCommands;
  log: FastifyBaseLogger;
  /** PUBLIC_URL: the "Open portal" buttons link there (none without it: Discord needs an absolute URL). */
  publicUrl: string | null;
  nowPlaying: NowPlaying;
  limits: MemberLimits;
  /** How long a command may work before it is deferred (DISCORD_DEFER_AFTER_MS; a test seam). */
  deferAfterMs: () => number;
  /** The feature's clock (a share made by `/share` is dated by it). */
  clock: Clock;
  /** The commands other features offer through the bot (the games'). */
  offered: () => OfferedCommand[];
};

/**
 * What a command answers: text (never pinging anyone) and buttons; `ephemeral` when only the caller may
 * see it although the command answers in the channel otherwise (a game command's "you are in a game").
 */
type Reply = {
  content: string;
  components?: APIActionRowComponent<APIButtonComponent>[];
  ephemeral?: boolean;
};

/** A refusal or failure the member can read: the portal's own message. */
class Refusal extends Error {}

const SEARCH_ORDER: MusicPlatform[] = ['library', 'youtube', 'soundcloud'];

/**
 * The one entry point for every interaction the bot's gateway delivers (only the instance holding the
 * bot has a gateway, so only it answers). Never throws: a failure to answer is logged.
 */
export async function handleInteraction(d: InteractionDeps, i: Interaction): Promise<void> {
  try {
    if (i.isAutocomplete()) await autocomplete(d, i);
    else if (i.isChatInputCommand()) await command(d, i);
    else if (i.isButton()) await buttonPress(d, i);
  } catch (err) {
    d.log.warn({ err, interaction: i.id }, 'music: could not answer a Discord interaction');
  }
}

function portalRow(d: InteractionDeps, path = '/music'): APIActionRowComponent<APIButtonComponent>[] {
  return linkRow(d, DISCORD_TEXTS.openPortal, path);
}

/** The member-facing message of an error: the portal's own for its refusals, a generic one otherwise. */
function messageOf(d: InteractionDeps, err: unknown): string {
  if (err instanceof Refusal) return err.message;
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status < 600 && err instanceof Error) return err.message;
  d.log.error({ err }, 'music: a Discord command failed');
  return DISCORD_TEXTS.failed;
}

function refusal(d: InteractionDeps, message: string) {
  return {
    content: message,
    components: portalRow(d),
    flags: MessageFlags.Ephemeral as const,
    allowedMentions: { parse: [] },
  };
}

/**
 * Answers a command within Discord's 3 s: the work's result directly when it is done within
 * DISCORD_DEFER_AFTER_MS, else a deferral (type 5) first and then an edit of the original response. A
 * failure is shown only to the caller (ephemeral; after a deferral the public "thinking" is removed and
 * the refusal follows up).
 */
async function answer(
  d: InteractionDeps,
  i: ChatInputCommandInteraction,
  work: () => Promise<Reply>,
  { ephemeral = false } = {},
) {
  const flags = ephemeral ? { flags: MessageFlags.Ephemeral as const } : {};
  const result = work().then(
    (reply) => ({ ok: true as const, reply }),
    (err: unknown) => ({ ok: false as const, message: messageOf(d, err) }),
  );
  const after = d.deferAfterMs();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    if (after > 0) timer = setTimeout(() => resolve(null), after);
    else resolve(null); // 0: always defer first (a test seam)
  });
  const early = await Promise.race([late, result]);
  clearTimeout(timer);
  if (early) {
    if (!early.ok) await i.reply(refusal(d, early.message));
    else {
      const { ephemeral: only, ...reply } = early.reply;
      const replyFlags = only ? { flags: MessageFlags.Ephemeral as const } : flags;
      await i.reply({ ...reply, ...replyFlags, allowedMentions: { parse: [] } });
    }
    return;
  }
  await i.deferReply(flags);
  const done = await result;
  if (done.ok && (ephemeral || !done.reply.ephemeral)) {
    const { ephemeral: _only, ...reply } = done.reply;
    await i.editReply({ ...reply, allowedMentions: { parse: [] } });
    return;
  }
  if (done.ok) {
    // Only for the caller after a public "thinking…": that goes, and the answer follows up ephemerally.
    const { ephemeral: _only, ...reply } = done.reply;
    await i.deleteReply().catch(() => {});
    await i.followUp({ ...reply, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
    return;
  }
  await i.deleteReply().catch(() => {});
  await i.followUp(refusal(d, done.message));
}

async function command(d: InteractionDeps, i: ChatInputCommandInteraction): Promise<void> {
  const name = i.commandName as DiscordCommandName;
  if (name === DISCORD_COMMANDS.portal.name) {
    const music = isMusicPlace(d, i);
    await i.reply({
      content: music ? DISCORD_TEXTS.portalMusic : DISCORD_TEXTS.portal,
      components: portalRow(d, music ? '/music' : '/'),
      flags: MessageFlags.Ephemeral,
    });
    return;
  }
  if (name === DISCORD_COMMANDS.share.name) return shareCommand(d, i);
  const offered = d.offered().find((c) => c.name === name);
  if (offered) return offeredCommand(d, i, offered);
  const guildId = i.guildId;
  if (!guildId) {
    await i.reply(refusal(d, DISCORD_TEXTS.notInServer));
    return;
  }
  const reads = name === 'queue' || name === 'np';
  const who = await identify(d.db, i.user.id, reads ? 'login' : 'user');
  if (!who.ok) {
    await i.reply(refusal(d, who.message));
    return;
  }
  const caller = who.caller;
  const id = caller.user.discord_id;
  try {
    d.limits.take(reads ? 'read' : 'control', id, reads ? MUSIC_READS_PER_MINUTE : MUSIC_CONTROLS_PER_MINUTE);
  } catch (err) {
    await i.reply(refusal(d, messageOf(d, err)));
    return;
  }
  const music = d.music;
  switch (name) {
    case 'play': {
      const query = i.options.getString(DISCORD_OPTIONS.query, true).trim();
      d.nowPlaying.useChannel(guildId, i.channelId);
      return answer(d, i, async () => {
        const url = isLink(query) ? query : await firstResult(d, caller, query);
        const r = await music.play(caller.user, guildId, url);
        if ('message' in r && typeof r.message === 'string') return { content: r.message };
        const title = `**${escapeMarkdown(r.song.title)}**`;
        return {
          content:
            r.action === 'playing'
              ? `Playing ${title} (${formatDuration(r.song.duration)})`
              : `Queued ${title} at position ${(r.position ?? 0) + 1}`,
        };
      });
    }
    case 'queue':
      return answer(d, i, async () => ({ content: queueText(await music.status(guildId)) }));
    case 'np':
      return answer(d, i, async () => ({ content: nowText(await music.status(guildId)) }));
    case 'skip':
      return answer(d, i, async () => {
        const r = await music.control(caller, guildId, 'skip');
        const voting = r.status.skipVotes.voters.length > 0;
        return {
          content: r.message,
          components: voting ? [voteRow(guildId)] : [],
        };
      });
    case 'pause':
    case 'resume':
    case 'stop':
      return answer(d, i, async () => ({ content: (await music.control(caller, guildId, name)).message }));
    case 'volume': {
      const volume = i.options.getInteger(DISCORD_OPTIONS.volume, true);
      return answer(d, i, async () => ({
        content: (await music.setVolume(caller, guildId, volume)).message,
      }));
    }
    default:
      await i.reply(refusal(d, DISCORD_TEXTS.failed));
  }
}

/**
 * `/share <file>`: level user (the share route's), counted as a control; answered to the caller only,
 * with a link made by the files feature (share-command.ts).
 */
async function shareCommand(d: InteractionDeps, i: ChatInputCommandInteraction): Promise<void> {
  const who = await identify(d.db, i.user.id, 'user');
  if (!who.ok) {
    await i.reply(refusal(d, who.message));
    return;
  }
  const caller = who.caller;
  try {
    d.limits.take('control', caller.user.discord_id, MUSIC_CONTROLS_PER_MINUTE);
  } catch (err) {
    await i.reply(refusal(d, messageOf(d, err)));
    return;
  }
  const file = i.options.getString(DISCORD_OPTIONS.file, true);
  return answer(d, i, () => shareReply(d.db, d.publicUrl, caller, file, d.log, dateOn(d.clock)), {
    ephemeral: true,
  });
}

/**
 * `/portal`'s context: the music page where music is the subject (the channel of the now-playing message,
 * the bot's voice channel's chat, or a caller sitting in the bot's voice channel), the home page elsewhere.
 */
function isMusicPlace(d: InteractionDeps, i: ChatInputCommandInteraction): boolean {
  const guildId = i.guildId;
  if (!guildId) return false;
  if (d.nowPlaying.where(guildId)?.channelId === i.channelId) return true;
  const botChannel = i.guild?.members.me?.voice.channelId ?? null;
  if (!botChannel) return false;
  return i.channelId === botChannel || i.guild?.voiceStates.cache.get(i.user.id)?.channelId === botChannel;
}

/**
 * A command another feature offers (`/pictionary`, `/tictactoe`): the caller's approval and the command's
 * level, its per-member limit, then the feature's own service as that member. Its answer is posted in the
 * channel with a Join link button to the lobby, or shown to the caller alone with an Open portal button.
 */
async function offeredCommand(
  d: InteractionDeps,
  i: ChatInputCommandInteraction,
  offered: OfferedCommand,
): Promise<void> {
  // An invite is only worth posting with a link (Discord takes absolute URLs only).
  if (!d.publicUrl) {
    await i.reply(refusal(d, DISCORD_SHARE_TEXTS.noPublicUrl));
    return;
  }
  const who = await identify(d.db, i.user.id, offered.access);
  if (!who.ok) {
    await i.reply(refusal(d, who.message));
    return;
  }
  const caller = who.caller;
  try {
    d.limits.take(`command:${offered.name}`, caller.user.discord_id, offered.perMinute);
  } catch (err) {
    await i.reply(refusal(d, messageOf(d, err)));
    return;
  }
  const member = {
    discordId: caller.user.discord_id,
    username: escapeMarkdown(caller.user.username),
    level: caller.level,
  };
  return answer(d, i, async () => {
    const a = await offered.run(member, { guildId: i.guildId, channelId: i.channelId });
    if (a.private) return { content: a.content, components: portalRow(d, a.path), ephemeral: true };
    return { content: a.content, components: linkRow(d, DISCORD_TEXTS.join, a.path) };
  });
}

/** One link button to a portal page (none without PUBLIC_URL). */
function linkRow(
  d: InteractionDeps,
  label: string,
  path: string,
): APIActionRowComponent<APIButtonComponent>[] {
  if (!d.publicUrl) return [];
  const url = new URL(path, d.publicUrl).toString();
  return [
    {
      type: ComponentType.ActionRow,
      components: [{ type: ComponentType.Button, style: ButtonStyle.Link, label, url }],
    },
  ];
}

function voteRow(guildId: string): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Primary,
        custom_id: musicButtonId('skip', guildId),
        label: DISCORD_TEXTS.voteSkip,
      },
    ],
  };
}

/** A link the panel's search box would play as one (`http(s)://…` or `library:…`). */
function isLink(query: string): boolean {
  return /^https?:\/\//i.test(query) || query.startsWith('library:');
}

/** A search typed into /play: the first result of the library, then YouTube, then SoundCloud. */
async function firstResult(d: InteractionDeps, caller: Caller, query: string): Promise<string> {
  d.limits.take('search', caller.user.discord_id, MUSIC_SEARCHES_PER_MINUTE);
  for (const platform of SEARCH_ORDER) {
    const found = await d.music.search(query, 1, platform).catch(() => []);
    if (found[0]) return found[0].url;
  }
  throw new Refusal(DISCORD_TEXTS.noResults);
}

function queueText(s: PlaybackStatus): string {
  if (!s.currentSong && s.queue.length === 0) return DISCORD_TEXTS.queueEmpty;
  const lines = s.currentSong ? [`Now: **${escapeMarkdown(s.currentSong.title)}**`] : [];
  s.queue.slice(0, 10).forEach((song, n) => {
    lines.push(`${n + 1}. ${escapeMarkdown(song.title)} (${formatDuration(song.duration)})`);
  });
  if (s.queue.length > 10) lines.push(`… and ${s.queue.length - 10} more`);
  if (s.queue.length === 0) lines.push(DISCORD_TEXTS.queueEmpty);
  return lines.join('\n');
}

function nowText(s: PlaybackStatus): string {
  const song = s.currentSong;
  if (!song) return DISCORD_TEXTS.nothingPlaying;
  const state = s.isPaused ? MUSIC_TEXTS.paused : MUSIC_TEXTS.playing;
  return `${state}: **${escapeMarkdown(song.title)}** — ${escapeMarkdown(song.uploader)} (${formatDuration(
    s.elapsedTime,
  )} / ${formatDuration(song.duration)}), requested by ${escapeMarkdown(song.requestedBy.displayName)}`;
}

/**
 * /play's suggestions: the portal's own search (library, YouTube, SoundCloud side by side), whatever has
 * answered within DISCORD_AUTOCOMPLETE_WAIT_MS (autocomplete has no deferral). Counted as a search; a member
 * who may not play, or who is over the limit, gets no suggestions.
 */
async function autocomplete(d: InteractionDeps, i: AutocompleteInteraction): Promise<void> {
  // The wait counts from here: the member lookup before the searches is part of Discord's 3 s.
  const entered = performance.now();
  const query = String(i.options.getFocused()).trim();
  const who = await identify(d.db, i.user.id, 'user');
  if (i.commandName === DISCORD_COMMANDS.share.name) {
    // The member's own files by name: a database read, no outside search (not counted as one).
    await i.respond(who.ok ? await shareChoices(d.db, who.caller, query) : []);
    return;
  }
  if (!who.ok || query.length < 2) {
    await i.respond([]);
    return;
  }
  if (isLink(query)) {
    await i.respond(query.length <= DISCORD_CHOICE_MAX_CHARS ? [{ name: query, value: query }] : []);
    return;
  }
  try {
    d.limits.take('search', who.caller.user.discord_id, MUSIC_SEARCHES_PER_MINUTE);
  } catch {
    await i.respond([]);
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, DISCORD_AUTOCOMPLETE_WAIT_MS - (performance.now() - entered)));
  });
  const answered = new Map<MusicPlatform, SearchResult[]>();
  const searches = SEARCH_ORDER.map((platform) =>
    d.music
      .search(query, 10, platform)
      .then((r) => void answered.set(platform, r))
      .catch(() => {}),
  );
  await Promise.race([Promise.all(searches), deadline]);
  clearTimeout(timer);
  const choices = SEARCH_ORDER.flatMap((p) => answered.get(p) ?? [])
    .filter((r) => r.url.length <= DISCORD_CHOICE_MAX_CHARS)
    .slice(0, DISCORD_AUTOCOMPLETE_MAX)
    .map((r) => ({ name: choiceName(r), value: r.url }));
  await i.respond(choices);
}

function choiceName(r: SearchResult): string {
  const full = `${r.title} — ${r.uploader} (${MUSIC_PLATFORM_LABELS[r.platform]})`;
  return full.length <= DISCORD_CHOICE_MAX_CHARS ? full : `${full.slice(0, DISCORD_CHOICE_MAX_CHARS - 1)}…`;
}

/**
 * Every music button (now-playing message, vote-skip) goes through here, keyed by its versioned custom id,
 * so a button posted before a restart works after it. Acknowledged at once without changing the message
 * (type 6): the now-playing message follows the status by itself; what the member should read (a refusal,
 * a vote counted) follows up ephemerally.
 */
async function buttonPress(d: InteractionDeps, i: ButtonInteraction): Promise<void> {
  const parsed = parseMusicButtonId(i.customId);
  if (!parsed) {
    await i.reply(refusal(d, DISCORD_TEXTS.failed));
    return;
  }
  const who = await identify(d.db, i.user.id, 'user');
  if (!who.ok) {
    await i.reply(refusal(d, who.message));
    return;
  }
  await i.deferUpdate();
  const { action, guildId } = parsed;
  const caller = who.caller;
  try {
    d.limits.take('control', caller.user.discord_id, MUSIC_CONTROLS_PER_MINUTE);
    const message = await pressed(d, caller, guildId, action);
    if (message)
      await i.followUp({ content: message, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  } catch (err) {
    await i.followUp(refusal(d, messageOf(d, err)));
  }
}

/** Runs a button's action; returns a message only the presser should read (a vote counted), or null. */
async function pressed(
  d: InteractionDeps,
  caller: Caller,
  guildId: string,
  action: MusicButtonAction,
): Promise<string | null> {
  const music = d.music;
  switch (action) {
    case 'toggle': {
      const s = await music.status(guildId);
      await music.control(caller, guildId, s.isPaused ? 'resume' : 'pause');
      return null;
    }
    case 'skip': {
      const r = await music.control(caller, guildId, 'skip');
      return r.status.skipVotes.voters.length > 0 ? r.message : null;
    }
    case 'stop':
      await music.control(caller, guildId, 'stop');
      return null;
    case 'loop': {
      const s = await music.status(guildId);
      const next = MUSIC_LOOP_MODES[(MUSIC_LOOP_MODES.indexOf(s.loop) + 1) % MUSIC_LOOP_MODES.length];
      if (!next) throw fail('BAD_REQUEST', DISCORD_TEXTS.failed);
      await music.setLoop(caller, guildId, next);
      return null;
    }
    case 'voldown':
    case 'volup': {
      const s = await music.status(guildId);
      const step = action === 'volup' ? MUSIC_VOLUME_STEP : -MUSIC_VOLUME_STEP;
      const volume = Math.min(MUSIC_VOLUME_MAX, Math.max(MUSIC_VOLUME_MIN, s.volume + step));
      await music.setVolume(caller, guildId, volume);
      return null;
    }
  }
}
