import { MUSIC_HANDOVER_TEXT, type MusicBotHolder, type PlaybackStatus } from '@guildhall/common';
import type { FastifyBaseLogger } from 'fastify';
import { fail } from '../../platform/errors.ts';
import type { Clock } from '../../platform/feature.ts';
import { isoOn } from '../../platform/time.ts';
import type { Forwarder } from './forward.ts';
import type { BotLease } from './lease.ts';
import type { PlaybackStore } from './playback-store.ts';
import type { PlayerSettings } from './player.ts';
import { storedStatus } from './present.ts';
import type { MusicService } from './service.ts';

/** The MusicService calls the routes, rooms and playlists make that need the bot: these travel to the holder. */
export const FORWARDED = [
  'guilds',
  'status',
  'play',
  'playMany',
  'control',
  'reorder',
  'removeEntry',
  'playNext',
  'shuffle',
  'seek',
  'setEffects',
  'setEq',
  'setVolume',
  'setNormalize',
  'setLoop',
  'setOption',
] as const;
export type ForwardedCommand = (typeof FORWARDED)[number];

/** The bot's commands as every instance offers them: run here on the holder, forwarded to it elsewhere. */
export type MusicCommands = {
  [K in ForwardedCommand]: (
    ...args: Parameters<MusicService[K]>
  ) => Promise<Awaited<ReturnType<MusicService[K]>>>;
} & Pick<MusicService, 'platforms' | 'search' | 'platformOf'> & {
    /** Who holds the bot (/readyz, the admin panel). */
    holder(): MusicBotHolder;
  };

export type FrontOptions = {
  local: MusicService;
  log: FastifyBaseLogger;
  instanceId: string;
  defaultGuildId: string | null;
  /** Null on a single SQLite process: it always holds the bot. */
  lease: BotLease | null;
  /** Null without Redis: commands cannot reach another instance. */
  forwarder: () => Forwarder | null;
  store: PlaybackStore;
  /** The bot is logged in here and the stored playback restored: commands run here. */
  isReady: () => boolean;
  /** Whether a bot token is configured at all (without one, the bot is simply offline, as before). */
  hasToken: boolean;
  settings: (guildId: string) => Promise<PlayerSettings>;
  /** The feature's clock: when "Reconnecting" began. */
  clock: Clock;
};

/**
 * Routes every bot command to where the bot is (issue 42). On the holder (or the one SQLite process) it
 * runs here once the bot is up; on any other instance it is forwarded to the holder, whose result or error
 * (same code, same status) is the answer. While no instance holds a running bot, controls answer 503
 * BOT_RECONNECTING and status is the stored playback with the badge "Reconnecting".
 */
export function musicFront(o: FrontOptions): MusicCommands {
  const since = { at: null as string | null };
  type Where = { kind: 'here' } | { kind: 'holder'; id: string } | { kind: 'nowhere' };
  const where = (): Where => {
    // Without a token the local service says the bot is offline, as before; one SQLite process holds it.
    if (!o.hasToken || !o.lease) return { kind: 'here' };
    const holder = o.lease.holder();
    if (holder === o.instanceId) return o.isReady() ? { kind: 'here' } : { kind: 'nowhere' };
    return holder ? { kind: 'holder', id: holder } : { kind: 'nowhere' };
  };
  const reconnectingSince = () => {
    since.at ??= isoOn(o.clock);
    return since.at;
  };
  const stored = async (guildId: string): Promise<PlaybackStatus> =>
    storedStatus(guildId, await o.store.load(guildId), await o.settings(guildId), reconnectingSince());

  const run = async (name: ForwardedCommand, args: unknown[]): Promise<unknown> => {
    const w = where();
    if (w.kind === 'here') {
      if (name === 'status' && o.hasToken && !o.isReady()) {
        // One process restarting: its stored song shows as reconnecting while the bot logs in.
        const s = await o.store.load(args[0] as string);
        if (s && (s.current || s.queue.length > 0)) return stored(args[0] as string);
      }
      since.at = null;
      return (o.local[name] as (...a: unknown[]) => unknown)(...args);
    }
    const forwarder = o.forwarder();
    if (w.kind === 'holder' && forwarder) {
      try {
        return await forwarder.call(w.id, name, args);
      } catch (err) {
        if (name === 'status' || name === 'guilds') {
          o.log.debug(
            { err, holder: w.id },
            'music: the holder did not answer a read; answering from storage',
          );
        } else throw err;
      }
    }
    if (name === 'status') return stored(args[0] as string);
    if (name === 'guilds') return { guilds: [], defaultGuildId: o.defaultGuildId };
    throw fail('BOT_RECONNECTING', MUSIC_HANDOVER_TEXT);
  };

  const front = {
    platforms: () => o.local.platforms(),
    search: (...a: Parameters<MusicService['search']>) => o.local.search(...a),
    platformOf: (url: string) => o.local.platformOf(url),
    holder: (): MusicBotHolder =>
      o.lease?.describe() ?? {
        thisInstance: o.instanceId,
        leased: false,
        holder: o.hasToken ? o.instanceId : null,
        epoch: null,
        expiresAt: null,
      },
  } as MusicCommands;
  for (const name of FORWARDED) {
    (front as Record<string, unknown>)[name] = (...args: unknown[]) => run(name, args);
  }
  return front;
}

/** What another instance sends for the platform's `BotHolder.askHolder` (role sync's Check now). */
export const HOLDER_ASK_METHOD = 'holderAsk';

/**
 * The holder's side: runs a forwarded command on the local service (only the listed ones), or a feature's
 * ask of the holder (`answerAsk`, whether the bot is up or not: the ask is about the deployment).
 */
export function serveForwarded(
  local: MusicService,
  isReady: () => boolean,
  answerAsk: (name: string) => void,
) {
  return async (method: string, args: unknown[]): Promise<unknown> => {
    if (method === HOLDER_ASK_METHOD && typeof args[0] === 'string') {
      answerAsk(args[0]);
      return null;
    }
    if (!(FORWARDED as readonly string[]).includes(method))
      throw fail('BAD_REQUEST', 'Unknown music command');
    if (!isReady()) throw fail('BOT_RECONNECTING', MUSIC_HANDOVER_TEXT);
    return (local[method as ForwardedCommand] as (...a: unknown[]) => unknown)(...args);
  };
}
