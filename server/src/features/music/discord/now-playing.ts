import {
  DISCORD_TEXTS,
  MUSIC_LOOP_LABELS,
  type MusicButtonAction,
  musicButtonId,
  type PlaybackStatus,
} from '@guildhall/common';
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIMessage,
  ButtonStyle,
  ComponentType,
  escapeMarkdown,
  type REST,
  type RESTPostAPIChannelMessageJSONBody,
  Routes,
} from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';

/** The body of the now-playing message for a status: the song, its state, and the control buttons. */
export function nowPlayingBody(s: PlaybackStatus): RESTPostAPIChannelMessageJSONBody {
  const song = s.currentSong;
  const allowed_mentions = { parse: [] };
  if (!song) return { content: DISCORD_TEXTS.nothingPlaying, embeds: [], components: [], allowed_mentions };
  const state = s.isPaused ? 'Paused' : 'Playing';
  const lines = [
    `**${escapeMarkdown(song.title)}** — ${escapeMarkdown(song.uploader)} (${formatDuration(song.duration)})`,
    `${state} · volume ${s.volume} % · ${MUSIC_LOOP_LABELS[s.loop]} · requested by ${escapeMarkdown(song.requestedBy.displayName)}`,
  ];
  if (s.queue.length > 0)
    lines.push(`Next: ${escapeMarkdown(s.queue[0]?.title ?? '')} (+${s.queue.length - 1} more)`);
  if (s.skipVotes.voters.length > 0)
    lines.push(`Skip votes: ${s.skipVotes.voters.length} of ${s.skipVotes.needed}`);
  return {
    content: `${DISCORD_TEXTS.nowPlayingTitle}: ${lines.join('\n')}`,
    embeds: [],
    components: musicButtons(s),
    allowed_mentions,
  };
}

const button = (
  action: MusicButtonAction,
  guildId: string,
  label: string,
  style: ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Danger = ButtonStyle.Secondary,
): APIButtonComponent => ({
  type: ComponentType.Button,
  custom_id: musicButtonId(action, guildId),
  label,
  style,
});

/** Two rows (Discord allows five buttons a row): pause/resume, skip, stop, loop; volume down, up. */
export function musicButtons(s: PlaybackStatus): APIActionRowComponent<APIButtonComponent>[] {
  const t = DISCORD_TEXTS.buttons;
  const g = s.guildId;
  return [
    {
      type: ComponentType.ActionRow,
      components: [
        button('toggle', g, s.isPaused ? t.resume : t.pause, ButtonStyle.Primary),
        button('skip', g, t.skip),
        button('stop', g, t.stop, ButtonStyle.Danger),
        button('loop', g, `${t.loop}: ${s.loop}`),
      ],
    },
    {
      type: ComponentType.ActionRow,
      components: [button('voldown', g, t.voldown), button('volup', g, t.volup)],
    },
  ];
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

type Placed = { channelId: string; messageId: string | null };

/**
 * One now-playing message per server, in the text channel music was last asked for from: posted once,
 * then edited in place on every status change (never one message per song). Edits are coalesced: at
 * most one request in flight per server, and the latest status wins, so a burst of changes costs two
 * edits, within Discord's per-channel limits.
 */
export class NowPlaying {
  private readonly placed = new Map<string, Placed>();
  private readonly pending = new Map<string, PlaybackStatus>();
  private readonly running = new Map<string, Promise<void>>();
  private rest: REST | null = null;
  private readonly log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.log = log;
  }

  /** The bot's REST client (null while no bot is logged in here). */
  attach(rest: REST | null): void {
    this.rest = rest;
  }

  /** Music was asked for from this channel: the message lives here from now on (the old one is removed). */
  useChannel(guildId: string, channelId: string): void {
    const old = this.placed.get(guildId);
    if (old?.channelId === channelId) return;
    this.placed.set(guildId, { channelId, messageId: null });
    if (old?.messageId && this.rest) {
      this.rest.delete(Routes.channelMessage(old.channelId, old.messageId)).catch((err: unknown) => {
        this.log.debug({ err, guildId }, 'music: could not remove the old now-playing message');
      });
    }
  }

  /** Where the message of a server is (tests, and the next edit). */
  where(guildId: string): Placed | null {
    return this.placed.get(guildId) ?? null;
  }

  /** A status change: the message follows it (posted first if there is none yet). */
  update(status: PlaybackStatus): void {
    if (!this.placed.has(status.guildId) || !this.rest) return;
    this.pending.set(status.guildId, status);
    if (!this.running.has(status.guildId)) {
      const run = this.drain(status.guildId).finally(() => this.running.delete(status.guildId));
      this.running.set(status.guildId, run);
    }
  }

  /** Resolves once every edit asked for so far is done (tests; a clean stop). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private async drain(guildId: string): Promise<void> {
    for (let s = this.pending.get(guildId); s; s = this.pending.get(guildId)) {
      this.pending.delete(guildId);
      await this.render(guildId, s).catch((err: unknown) => {
        this.log.warn({ err, guildId }, 'music: could not update the now-playing message');
      });
    }
  }

  private async render(guildId: string, s: PlaybackStatus): Promise<void> {
    const at = this.placed.get(guildId);
    const rest = this.rest;
    if (!at || !rest) return;
    const body = nowPlayingBody(s);
    if (at.messageId) {
      try {
        await rest.patch(Routes.channelMessage(at.channelId, at.messageId), { body });
        return;
      } catch (err) {
        // 10008 Unknown Message: someone deleted it; post a new one. Anything else is reported.
        if ((err as { code?: unknown }).code !== 10008) throw err;
      }
    }
    if (!s.currentSong) return; // no message for "nothing playing" until a song plays
    const message = (await rest.post(Routes.channelMessages(at.channelId), { body })) as APIMessage;
    if (this.placed.get(guildId) === at) at.messageId = message.id;
  }
}
