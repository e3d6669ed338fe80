import type { Client, GuildMember, PartialGuildMember } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { RolesConfig } from './config.ts';
import type { ServerProfile } from './discord.ts';
import type { Reconciler } from './reconcile.ts';
import { loadSettings } from './service.ts';

/** discord.js's GatewayIntentBits.GuildMembers (1 << 1), named here so role sync never loads discord.js itself. */
export const GUILD_MEMBERS_INTENT = 1 << 1;

/** Whether the bot's session asked for (and so, being READY, was granted) the Server Members intent. */
export const hasMembersIntent = (client: Client): boolean => client.options.intents.has(GUILD_MEMBERS_INTENT);

/** Clients already listened to: a resumed session fires READY again on the same client. */
const listening = new WeakSet<Client>();

/**
 * GUILD_MEMBER_ADD, GUILD_MEMBER_UPDATE and GUILD_MEMBER_REMOVE of the sync's server (the privileged Server Members intent,
 * ROLE_SYNC_MEMBER_EVENTS=on): an update carries the member's full role list, which is applied as a run
 * would (never a diff against discord.js's cache), as does an add (a join); a remove means they left. Only the bot holder has a
 * client, so each event is applied once per deployment.
 */
export function listenForMembers(
  client: Client,
  db: Db,
  config: RolesConfig,
  reconciler: Reconciler,
  log: FastifyBaseLogger,
): void {
  if (listening.has(client)) return;
  listening.add(client);
  const apply = async (guildId: string, userId: string, roles: string[] | null, profile?: ServerProfile) => {
    const { settings } = await loadSettings(db, config);
    if (!settings.guildId || guildId !== settings.guildId) return;
    await reconciler.memberEvent(userId, roles, profile);
  };
  const fail = (err: unknown) => log.error({ err }, 'role sync: a member event could not be applied');
  const present = (member: GuildMember) => {
    // The role list of the event itself (the full list, @everyone aside), not a diff against the cache.
    const roles = [...member.roles.cache.keys()].filter((id) => id !== member.guild.id);
    apply(member.guild.id, member.id, roles, { nick: member.nickname, avatar: member.avatar }).catch(fail);
  };
  client.on('guildMemberUpdate', (_old, member: GuildMember) => present(member));
  // Joining (or rejoining): their access comes back at once, not at the next run.
  client.on('guildMemberAdd', present);
  client.on('guildMemberRemove', (member: GuildMember | PartialGuildMember) => {
    apply(member.guild.id, member.id, null).catch(fail);
  });
}
