import type { DiscordTextChannel } from '@guildhall/common';
import {
  type APIChannel,
  type APIGuild,
  type APINewsChannel,
  type APITextChannel,
  ChannelType,
  Routes,
} from 'discord-api-types/v10';

/** How long listing the channels may take: the admin card waits for it. */
const TIMEOUT_MS = 5_000;

export type ChannelList = {
  guildName: string | null;
  channels: DiscordTextChannel[];
  problem: string | null;
};

/**
 * The server's text channels as the bot sees them (`GET /guilds/{id}/channels` with the bot token), for the
 * admin's pick, the way the role-sync card lists roles. Any instance may read: only posting is the holder's.
 */
export async function listTextChannels(o: {
  token: string;
  apiUrl: string;
  guildId: string;
}): Promise<ChannelList> {
  const { REST } = await import('@discordjs/rest');
  const rest = new REST({
    api: o.apiUrl,
    version: '10',
    timeout: TIMEOUT_MS,
    retries: 0,
    rejectOnRateLimit: () => true,
    hashSweepInterval: 0,
    handlerSweepInterval: 0,
  }).setToken(o.token);
  try {
    const guild = (await rest.get(Routes.guild(o.guildId))) as APIGuild;
    const all = (await rest.get(Routes.guildChannels(o.guildId))) as APIChannel[];
    const channels = all
      .filter(
        (c): c is APITextChannel | APINewsChannel =>
          c.type === ChannelType.GuildText || c.type === ChannelType.GuildAnnouncement,
      )
      .map((c) => ({ id: c.id, name: c.name, position: c.position }))
      .sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
    return { guildName: guild.name, channels, problem: null };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { guildName: null, channels: [], problem: `The bot could not list the server's channels: ${why}` };
  }
}
