import {
  type DiscordGatewayAdapterCreator,
  entersState,
  getVoiceConnection,
  joinVoiceChannel,
  type VoiceConnection,
  VoiceConnectionDisconnectReason,
  VoiceConnectionStatus,
} from '@discordjs/voice';
import type { Guild as GuildInfo, VoiceChannelInfo } from '@guildhall/common';
import { ChannelType, Client, Events, GatewayIntentBits, Partials, Status } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';

/** How long joining a voice channel may take before the request fails. */
const JOIN_TIMEOUT_MS = 10_000;
/** Rejoin attempts while a voice connection is down: the first after 1 s, doubling up to 15 s. */
const REJOIN_FIRST_MS = 1_000;
const REJOIN_MAX_MS = 15_000;
/** After close code 4014 (removed from the channel), how long a move may take before the bot gives up. */
const MOVE_GRACE_MS = 5_000;
/** A voice connection that stays down this long is given up (the player stops; a new play joins again). */
export const VOICE_GIVE_UP_MS = 5 * 60_000;

export type VoiceStateChange = { guildId: string; userId: string; channelId: string | null };

/** What the bot can honestly say about its link to Discord. */
export type LinkState = { up: true } | { up: false; since: number; reason: string };

/** The Discord side of the music feature: who is where, and a voice connection per guild. */
export type MusicBot = {
  /** The logged-in client: its interactions and REST client serve the slash commands (issue 44). */
  readonly client: Client;
  /** The gateway session is ready now (not merely logged in once). */
  isReady(): boolean;
  /** The gateway link, with since when it is down. */
  gateway(): LinkState;
  /** The voice link of a guild the bot is in (null when it is in no channel there). */
  voice(guildId: string): LinkState | null;
  guilds(): GuildInfo[];
  hasGuild(guildId: string): boolean;
  /** The voice channel a member is in on a guild, or null. */
  memberChannel(guildId: string, userId: string): VoiceChannelInfo | null;
  /** Humans (not bots) in a voice channel. */
  listeners(guildId: string, channelId: string): number;
  /** The ids of the humans in a voice channel. */
  listenerIds(guildId: string, channelId: string): string[];
  /** Joins (or moves to) a channel and waits until the voice connection is ready. */
  join(guildId: string, channelId: string): Promise<VoiceConnection>;
  leave(guildId: string): void;
  onVoiceStateChange(listener: (change: VoiceStateChange) => void): void;
  /** Called when the gateway or a voice link goes down or comes back (guildId null: the gateway). */
  onLinkChange(listener: (guildId: string | null) => void): void;
  destroy(): Promise<void>;
};

export type MusicBotOptions = {
  token: string;
  apiUrl: string;
  log: FastifyBaseLogger;
  /** Intents other features asked for (role sync's GuildMembers), on top of the player's two. */
  extraIntents?: number[];
};

/** The gateway refused a privileged intent the bot asked for (close 4014: not enabled in the developer portal). */
export class DisallowedIntentsError extends Error {
  constructor() {
    super('Discord refused a privileged intent (gateway close 4014): enable it in the developer portal');
    this.name = 'DisallowedIntentsError';
  }
}
const DISALLOWED_INTENTS = 4014;

/**
 * Logs a discord.js client in with the two intents the player needs: Guilds (the servers and their
 * voice channels) and GuildVoiceStates (who sits in which voice channel; it also carries the bot's
 * own voice session). No message or member-list intents: the bot reads no chat.
 *
 * Every emitter it creates has an 'error' listener: the client, each shard (through the client's
 * shardError), and each voice connection (whose networking re-emits ECONNREFUSED and the like while
 * the voice server is away; unheard, Node would end the process: discordjs/discord.js#5649).
 */
export async function startMusicBot(o: MusicBotOptions): Promise<MusicBot> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates, ...(o.extraIntents ?? [])],
    // Member events of members not cached yet still arrive (role sync reads their full role list).
    partials: (o.extraIntents ?? []).includes(GatewayIntentBits.GuildMembers) ? [Partials.GuildMember] : [],
    rest: { api: o.apiUrl },
  });
  const voiceListeners: ((c: VoiceStateChange) => void)[] = [];
  const linkListeners: ((guildId: string | null) => void)[] = [];
  const linkChanged = (guildId: string | null) => {
    for (const l of linkListeners) l(guildId);
  };
  let gatewayDown: { since: number; reason: string } | null = null;
  const gatewayLost = (reason: string) => {
    if (gatewayDown) return;
    gatewayDown = { since: Date.now(), reason };
    o.log.warn({ reason }, 'music bot: Discord gateway down, reconnecting');
    linkChanged(null);
  };
  const gatewayBack = () => {
    if (!gatewayDown) return;
    o.log.info({ downMs: Date.now() - gatewayDown.since }, 'music bot: Discord gateway back');
    gatewayDown = null;
    linkChanged(null);
  };
  client.on(Events.VoiceStateUpdate, (_old, now) => {
    for (const l of voiceListeners) l({ guildId: now.guild.id, userId: now.id, channelId: now.channelId });
  });
  client.on(Events.Error, (err) => o.log.error({ err }, 'music bot: Discord client error'));
  client.on(Events.ShardError, (err) => {
    o.log.warn({ err: err.message }, 'music bot: gateway connection error');
    gatewayLost(err.message);
  });
  client.on(Events.ShardReconnecting, () => gatewayLost('the gateway connection closed'));
  client.on(Events.ShardDisconnect, (e) => gatewayLost(`the gateway closed the session (code ${e.code})`));
  client.on(Events.ShardResume, () => gatewayBack());
  client.on(Events.ShardReady, () => gatewayBack());
  const ready = new Promise<void>((resolve, reject) => {
    client.once(Events.ClientReady, () => resolve());
    // A refused privileged intent ends the session for good (no READY follows): fail the login.
    client.on(Events.ShardDisconnect, (e) => {
      if (e.code === DISALLOWED_INTENTS) reject(new DisallowedIntentsError());
    });
  });
  ready.catch(() => {}); // awaited below; a 4014 may come while login() still waits
  try {
    await Promise.race([client.login(o.token).then(() => ready), ready]);
  } catch (err) {
    await client.destroy().catch(() => {});
    throw err;
  }
  o.log.info({ guilds: client.guilds.cache.size, user: client.user?.tag }, 'music bot: online');

  const shardsReady = () =>
    client.ws.shards.size > 0 && [...client.ws.shards.values()].every((s) => s.status === Status.Ready);

  const gates = new Map<string, RejoinGate>();
  /** Per guild: since when its voice connection is down, and the pending rejoin. */
  const voiceDown = new Map<string, { since: number; reason: string; timer: NodeJS.Timeout | null }>();
  const clearVoice = (guildId: string) => {
    const down = voiceDown.get(guildId);
    if (down?.timer) clearTimeout(down.timer);
    voiceDown.delete(guildId);
  };

  /**
   * Keeps a connection alive through outages: the library rejoins by itself after most close codes;
   * when it gives up (Disconnected) we ask again with a backoff, and give up after VOICE_GIVE_UP_MS.
   */
  const watch = (guildId: string, connection: VoiceConnection) => {
    connection.on('error', (err) => {
      o.log.warn({ err: err.message, guildId }, 'music bot: voice connection error');
    });
    connection.on('stateChange', (before, after) => {
      if (getVoiceConnection(guildId) !== connection) return;
      if (after.status === VoiceConnectionStatus.Ready) {
        gates.get(guildId)?.reset();
        if (voiceDown.has(guildId)) {
          o.log.info({ guildId }, 'music bot: voice connection back');
          clearVoice(guildId);
          linkChanged(guildId);
        }
        return;
      }
      if (after.status === VoiceConnectionStatus.Destroyed) {
        clearVoice(guildId);
        linkChanged(guildId);
        return;
      }
      if (before.status !== VoiceConnectionStatus.Ready && voiceDown.has(guildId)) {
        if (after.status === VoiceConnectionStatus.Disconnected) scheduleRejoin(guildId, connection);
        return;
      }
      if (
        before.status === VoiceConnectionStatus.Ready ||
        after.status === VoiceConnectionStatus.Disconnected
      ) {
        if (!voiceDown.has(guildId)) {
          const reason =
            after.status === VoiceConnectionStatus.Disconnected ? 'disconnected' : 'reconnecting';
          voiceDown.set(guildId, { since: Date.now(), reason, timer: null });
          o.log.warn({ guildId, status: after.status }, 'music bot: voice connection down, reconnecting');
          linkChanged(guildId);
        }
        if (after.status === VoiceConnectionStatus.Disconnected) scheduleRejoin(guildId, connection);
      }
    });
  };
  const scheduleRejoin = (guildId: string, connection: VoiceConnection) => {
    const down = voiceDown.get(guildId);
    if (!down || down.timer) return;
    const state = connection.state;
    if (
      state.status === VoiceConnectionStatus.Disconnected &&
      state.reason === VoiceConnectionDisconnectReason.WebSocketClose &&
      state.closeCode === 4014
    ) {
      // 4014: removed from the channel (a moderator, or the channel deleted), or moved, which Discord
      // follows with a new voice server at once. Not an outage: give the move a moment, never rejoin.
      down.timer = setTimeout(() => {
        down.timer = null;
        if (connection.state.status === VoiceConnectionStatus.Disconnected) connection.destroy();
      }, MOVE_GRACE_MS);
      down.timer.unref();
      return;
    }
    if (Date.now() - down.since > VOICE_GIVE_UP_MS) {
      o.log.warn({ guildId }, 'music bot: voice connection did not come back; leaving');
      connection.destroy();
      return;
    }
    const delay = Math.min(REJOIN_MAX_MS, REJOIN_FIRST_MS * 2 ** Math.min(4, connection.rejoinAttempts));
    down.timer = setTimeout(() => {
      down.timer = null;
      if (connection.state.status === VoiceConnectionStatus.Disconnected) {
        // Fails (stays Disconnected) while the gateway is down; the next stateChange schedules again.
        if (!connection.rejoin()) scheduleRejoin(guildId, connection);
      }
    }, delay);
    down.timer.unref();
  };

  const channelInfo = (guildId: string, channelId: string | null): VoiceChannelInfo | null => {
    if (!channelId) return null;
    const channel = client.guilds.cache.get(guildId)?.channels.cache.get(channelId);
    return channel ? { id: channel.id, name: channel.name } : { id: channelId, name: 'Voice channel' };
  };
  const humansIn = (guildId: string, channelId: string): string[] => {
    const guild = client.guilds.cache.get(guildId);
    if (!guild) return [];
    const ids: string[] = [];
    for (const vs of guild.voiceStates.cache.values()) {
      if (vs.channelId !== channelId || vs.id === client.user?.id) continue;
      // The member may be uncached without the members intent; count it unless it is known to be a bot.
      if (vs.member?.user.bot) continue;
      ids.push(vs.id);
    }
    return ids;
  };

  return {
    client,
    isReady: () => client.isReady() && shardsReady(),
    gateway: () => {
      if (gatewayDown) return { up: false, ...gatewayDown };
      return shardsReady() ? { up: true } : { up: false, since: Date.now(), reason: 'connecting' };
    },
    voice(guildId) {
      const connection = getVoiceConnection(guildId);
      if (!connection || connection.state.status === VoiceConnectionStatus.Destroyed) return null;
      const down = voiceDown.get(guildId);
      if (down) return { up: false, since: down.since, reason: down.reason };
      return connection.state.status === VoiceConnectionStatus.Ready
        ? { up: true }
        : { up: false, since: Date.now(), reason: 'connecting' };
    },
    guilds: () =>
      [...client.guilds.cache.values()]
        .map((g) => ({ id: g.id, name: g.name, memberCount: g.memberCount }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    hasGuild: (guildId) => client.guilds.cache.has(guildId),
    memberChannel: (guildId, userId) =>
      channelInfo(
        guildId,
        client.guilds.cache.get(guildId)?.voiceStates.cache.get(userId)?.channelId ?? null,
      ),
    listeners: (guildId, channelId) => humansIn(guildId, channelId).length,
    listenerIds: humansIn,
    async join(guildId, channelId) {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) throw new Error(`not on guild ${guildId}`);
      const channel = guild.channels.cache.get(channelId);
      if (
        channel &&
        channel.type !== ChannelType.GuildVoice &&
        channel.type !== ChannelType.GuildStageVoice
      ) {
        throw new Error('not a voice channel');
      }
      const existing = getVoiceConnection(guildId);
      if (
        existing?.joinConfig.channelId === channelId &&
        existing.state.status === VoiceConnectionStatus.Ready
      ) {
        return existing;
      }
      const fresh = !existing || existing.state.status === VoiceConnectionStatus.Destroyed;
      let gate = gates.get(guildId);
      if (!gate) {
        gate = new RejoinGate();
        gates.set(guildId, gate);
      }
      const connection = joinVoiceChannel({
        guildId,
        channelId,
        selfDeaf: true,
        adapterCreator: gatedAdapter(guild.voiceAdapterCreator as DiscordGatewayAdapterCreator, gate),
      });
      if (fresh) watch(guildId, connection);
      // Fail fast when the voice server refuses us, instead of waiting out the whole timeout.
      let onError: (err: Error) => void = () => {};
      const refused = new Promise<never>((_, reject) => {
        onError = (err) => reject(err);
        connection.once('error', onError);
      });
      try {
        await Promise.race([entersState(connection, VoiceConnectionStatus.Ready, JOIN_TIMEOUT_MS), refused]);
      } catch (e) {
        connection.destroy();
        throw e;
      } finally {
        connection.off('error', onError);
        refused.catch(() => {});
      }
      return connection;
    },
    leave(guildId) {
      clearVoice(guildId);
      getVoiceConnection(guildId)?.destroy();
    },
    onVoiceStateChange: (l) => voiceListeners.push(l),
    onLinkChange: (l) => linkListeners.push(l),
    async destroy() {
      for (const g of voiceDown.keys()) clearVoice(g);
      for (const g of client.guilds.cache.keys()) getVoiceConnection(g)?.destroy();
      await client.destroy();
    },
  };
}

/**
 * Paces a guild's voice-state updates (gateway op 4). While the voice server refuses connections,
 * @discordjs/voice asks to rejoin after every failed attempt, dozens of times a second; each ask is a
 * gateway message, and the gateway allows 120 a minute, after which discord.js queues them for up to a
 * minute (a run of this once left the bot unable to rejoin for 40 s after the outage ended). The gate
 * sends the first at once and then at most one per backoff (1 s doubling to 15 s), always the latest;
 * leaving (no channel) goes at once. A ready connection resets it.
 */
export class RejoinGate {
  private last = 0;
  private delayMs = 0;
  private pending: { payload: unknown; send: (p: unknown) => boolean } | null = null;
  private timer: NodeJS.Timeout | null = null;

  reset(): void {
    this.delayMs = 0;
  }

  send(payload: unknown, send: (p: unknown) => boolean): boolean {
    const leaving = (payload as { d?: { channel_id?: unknown } }).d?.channel_id === null;
    const now = Date.now();
    const wait = this.last + this.delayMs - now;
    if (leaving || wait <= 0) {
      this.cancel();
      this.last = now;
      this.delayMs = leaving ? 0 : Math.min(REJOIN_MAX_MS, Math.max(REJOIN_FIRST_MS, this.delayMs * 2));
      return send(payload);
    }
    this.pending = { payload, send };
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const p = this.pending;
      this.pending = null;
      if (p) this.send(p.payload, p.send);
    }, wait);
    this.timer.unref();
    return true;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }
}

/** The guild's adapter with its voice-state updates going through the gate. */
function gatedAdapter(create: DiscordGatewayAdapterCreator, gate: RejoinGate): DiscordGatewayAdapterCreator {
  return (methods) => {
    const adapter = create(methods);
    return {
      sendPayload: (payload) => gate.send(payload, (p) => adapter.sendPayload(p as typeof payload)),
      destroy: () => {
        gate.cancel();
        adapter.destroy();
      },
    };
  };
}
