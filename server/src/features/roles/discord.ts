import type { RoleSyncProblemCode } from '@guildhall/common';
import {
  type APIApplication,
  type APIGuild,
  type APIGuildMember,
  type APIRole,
  ApplicationFlags,
  Routes,
} from 'discord-api-types/v10';

type RestModule = typeof import('@discordjs/rest');
let restModule: Promise<RestModule> | undefined;
/** discord.js's REST client loads with the first look at Discord, not at start-up (issue 47). */
const loadRest = (): Promise<RestModule> => {
  restModule ??= import('@discordjs/rest');
  return restModule;
};

/** How long one look at Discord may take: a sign-in waits for it. */
const TIMEOUT_MS = 5_000;

/** Discord's JSON error codes the sync tells apart (discord-api-docs, "JSON Error Codes"). */
const UNKNOWN_MEMBER = 10007;
const UNKNOWN_GUILD = 10004;
const MISSING_ACCESS = 50001;

/** A member's server nickname and server avatar hash (null where they have none). */
export type ServerProfile = { nick: string | null; avatar: string | null };

/** Could not check: what went wrong, for the admins' banner. Never a reason to change a level. */
export type LookupProblem = { code: RoleSyncProblemCode; message: string };

/**
 * The three honest answers about a member: in the server (with their full role list), not in it
 * (Discord said 10007 Unknown Member), or "could not check".
 */
export type MemberVerdict =
  | { kind: 'member'; roles: string[]; profile: ServerProfile }
  | { kind: 'absent' }
  | { kind: 'unknown'; problem: LookupProblem };

export type GuildInfo = {
  name: string;
  roles: { id: string; name: string; color: number; position: number; managed: boolean }[];
};

export type GuildReader = {
  member(guildId: string, userId: string): Promise<MemberVerdict>;
  /** The server's name and roles, or the problem that kept the bot from reading them. */
  guild(guildId: string): Promise<GuildInfo | LookupProblem>;
  /**
   * Whether the Server Members intent is enabled in the developer portal now (the application's flags;
   * null: could not check). Read after a gateway refused it (4014), to see the admin has fixed it.
   */
  isMembersIntentEnabled(): Promise<boolean | null>;
};

/** The application flags that say the Server Members intent is enabled (verified bots, or under 100 servers). */
const MEMBERS_INTENT_FLAGS =
  ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited;

/**
 * Reads the community's server through the bot token with discord.js's REST client, as the music bot
 * and the Discord file store do. Nothing waits on Discord's rate limits or retries a 5xx: a sign-in
 * must not hang for a minute, and a reconcile run that cannot look simply changes nothing and tries
 * again at its next run.
 */
export function createGuildReader(o: { token: string; apiUrl: string }): GuildReader {
  let client: Promise<{ rest: InstanceType<RestModule['REST']>; mod: RestModule }> | undefined;
  const connect = () => {
    client ??= loadRest().then((mod) => ({
      mod,
      rest: new mod.REST({
        api: o.apiUrl,
        version: '10',
        timeout: TIMEOUT_MS,
        retries: 0,
        rejectOnRateLimit: () => true,
        // No background sweep timers: a reader lives for one sign-in or one run.
        hashSweepInterval: 0,
        handlerSweepInterval: 0,
      }).setToken(o.token),
    }));
    return client;
  };

  return {
    async member(guildId, userId) {
      const { rest, mod } = await connect();
      try {
        const m = (await rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember;
        return {
          kind: 'member',
          roles: [...m.roles],
          profile: { nick: m.nick ?? null, avatar: m.avatar ?? null },
        };
      } catch (err) {
        if (err instanceof mod.DiscordAPIError && err.code === UNKNOWN_MEMBER) return { kind: 'absent' };
        return { kind: 'unknown', problem: problemOf(mod, err) };
      }
    },
    async guild(guildId) {
      const { rest, mod } = await connect();
      try {
        const g = (await rest.get(Routes.guild(guildId))) as APIGuild;
        const roles = (await rest.get(Routes.guildRoles(guildId))) as APIRole[];
        return {
          name: g.name,
          roles: roles
            .filter((r) => r.id !== guildId) // @everyone: every member has it, it maps nothing
            .map((r) => ({
              id: r.id,
              name: r.name,
              color: r.color,
              position: r.position,
              managed: r.managed,
            }))
            .sort((a, b) => b.position - a.position),
        };
      } catch (err) {
        return problemOf(mod, err);
      }
    },
    async isMembersIntentEnabled() {
      const { rest } = await connect();
      try {
        const app = (await rest.get(Routes.currentApplication())) as APIApplication;
        return ((app.flags ?? 0) & MEMBERS_INTENT_FLAGS) !== 0;
      } catch {
        return null;
      }
    },
  };
}

/** Names what kept the bot from looking, in words an admin can act on. */
function problemOf(mod: RestModule, err: unknown): LookupProblem {
  const { DiscordAPIError, HTTPError, RateLimitError } = mod;
  if (err instanceof DiscordAPIError) {
    if (err.code === MISSING_ACCESS) {
      return {
        code: 'MISSING_ACCESS',
        message:
          'The bot has no access to the server (50001 Missing Access): was it removed or its role changed?',
      };
    }
    if (err.code === UNKNOWN_GUILD) {
      return {
        code: 'UNKNOWN_GUILD',
        message:
          'Discord does not know the server (10004 Unknown Guild): is the bot in it, and is the id right?',
      };
    }
    return {
      code: 'DISCORD_ERROR',
      message: `Discord refused the lookup (HTTP ${err.status}, code ${err.code}).`,
    };
  }
  if (err instanceof RateLimitError) {
    return {
      code: 'RATE_LIMITED',
      message: `Discord is rate-limiting the bot (retry after ${Math.ceil(err.retryAfter / 1000)} s).`,
    };
  }
  if (err instanceof HTTPError) {
    return { code: 'DISCORD_ERROR', message: `Discord answered HTTP ${err.status}.` };
  }
  const why = err instanceof Error ? err.message : String(err);
  return { code: 'UNREACHABLE', message: `Discord could not be reached (${why.slice(0, 200)}).` };
}

export function isProblem(v: GuildInfo | LookupProblem): v is LookupProblem {
  return 'code' in v;
}
