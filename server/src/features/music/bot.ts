import {
  type DiscordGatewayAdapterCreator,
  entersState,
  getVoiceConnection,
  joinVoiceChannel,
  type VoiceConnection,
  VoiceConnectionStatus,
} from '@discordjs/voice';
import type { Guild as GuildInfo, VoiceChannelInfo } from '@guildhall/common';
import { ChannelType, Client, Events, GatewayIntentBits } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';

/** How long joining a voice channel may take before the request fails. */
const JOIN_TIMEOUT_MS = 15_000;
/** How long a dropped voice connection may take to come back by itself. */
const RECONNECT_GRACE_MS = 5_000;

export type VoiceStateChange = { guildId: string; userId: string; channelId: string | null };

/** The Discord side of the music feature: who is where, and a voice connection per guild. */
export type MusicBot = {
  isReady(): boolean;
  guilds(): GuildInfo[];
  hasGuild(guildId: string): boolean;
  /** The voice channel a member is in on a guild, or null. */
  memberChannel(guildId: string, userId: string): VoiceChannelInfo | null;
  /** Humans (not bots) in a voice channel. */
  listeners(guildId: string, channelId: string): number;
  /** Joins (or moves to) a channel and waits until the voice connection is ready. */
  join(guildId: string, channelId: string): Promise<VoiceConnection>;
  leave(guildId: string): void;
  onVoiceStateChange(listener: (change: VoiceStateChange) => void): void;
  destroy(): Promise<void>;
};

export type MusicBotOptions = { token: string; apiUrl: string; log: FastifyBaseLogger };

/**
 * Logs a discord.js client in with the two intents the player needs: Guilds (the servers and their
 * voice channels) and GuildVoiceStates (who sits in which voice channel; it also carries the bot's
 * own voice session). No message or member-list intents: the bot reads no chat.
 */
export async function startMusicBot(o: MusicBotOptions): Promise<MusicBot> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates],
    rest: { api: o.apiUrl },
  });
  const listeners: ((c: VoiceStateChange) => void)[] = [];
  client.on(Events.VoiceStateUpdate, (_old, now) => {
    for (const l of listeners) l({ guildId: now.guild.id, userId: now.id, channelId: now.channelId });
  });
  client.on(Events.Error, (err) => o.log.error({ err }, 'music bot: Discord client error'));
  client.on(Events.ShardDisconnect, () => o.log.warn('music bot: gateway disconnected'));
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(o.token);
  await ready;
  o.log.info({ guilds: client.guilds.cache.size, user: client.user?.tag }, 'music bot: online');

  const channelInfo = (guildId: string, channelId: string | null): VoiceChannelInfo | null => {
    if (!channelId) return null;
    const channel = client.guilds.cache.get(guildId)?.channels.cache.get(channelId);
    return channel ? { id: channel.id, name: channel.name } : { id: channelId, name: 'Voice channel' };
  };

  return {
    isReady: () => client.isReady(),
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
    listeners(guildId, channelId) {
      const guild = client.guilds.cache.get(guildId);
      if (!guild) return 0;
      let n = 0;
      for (const vs of guild.voiceStates.cache.values()) {
        if (vs.channelId !== channelId || vs.id === client.user?.id) continue;
        // The member may be uncached without the members intent; count it unless it is known to be a bot.
        if (vs.member?.user.bot) continue;
        n++;
      }
      return n;
    },
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
      const connection = joinVoiceChannel({
        guildId,
        channelId,
        selfDeaf: true,
        adapterCreator: guild.voiceAdapterCreator as DiscordGatewayAdapterCreator,
      });
      try {
        await entersState(connection, VoiceConnectionStatus.Ready, JOIN_TIMEOUT_MS);
      } catch (e) {
        connection.destroy();
        throw e;
      }
      // Dropped by Discord (a region move, a moderator's disconnect): wait briefly for the library to
      // reconnect by itself; give up otherwise, which the player sees as the connection being destroyed.
      connection.on('stateChange', (_before, after) => {
        if (after.status !== VoiceConnectionStatus.Disconnected) return;
        Promise.race([
          entersState(connection, VoiceConnectionStatus.Signalling, RECONNECT_GRACE_MS),
          entersState(connection, VoiceConnectionStatus.Connecting, RECONNECT_GRACE_MS),
        ]).catch(() => {
          if (connection.state.status !== VoiceConnectionStatus.Destroyed) connection.destroy();
        });
      });
      return connection;
    },
    leave(guildId) {
      getVoiceConnection(guildId)?.destroy();
    },
    onVoiceStateChange: (l) => listeners.push(l),
    async destroy() {
      for (const g of client.guilds.cache.keys()) getVoiceConnection(g)?.destroy();
      await client.destroy();
    },
  };
}
