import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { type FakeInteraction, FakeInteractions, nextSnowflake } from './interactions.ts';
import { FakeVoiceServer } from './voice.ts';

export { decodeToMono, dominantFrequency, powerAt, rmsDb } from './audio.ts';
export type { FakeInteraction, PostedMessage, RecordedResponse } from './interactions.ts';
export { isSilenceFrame, type ReceivedPacket } from './rtp.ts';
export { FakeVoiceServer, TEST_CA_PATH } from './voice.ts';

export type FakeMember = {
  id: string;
  username: string;
  bot?: boolean;
  avatar?: string | null;
  /** Role ids (besides @everyone). */
  roles?: string[];
  /** The server nickname and the server avatar hash (set in this server only). */
  nick?: string | null;
  serverAvatar?: string | null;
};
/** `managed`: a role an integration owns (a bot's own role), which nobody can be given by hand. */
export type FakeRole = { id: string; name: string; color?: number; position?: number; managed?: boolean };
export type FakeGuild = {
  id: string;
  name: string;
  voiceChannels: { id: string; name: string }[];
  /** Text channels (channel notes pick one, issue 44); listed after the voice channels. */
  textChannels?: { id: string; name: string }[];
  members: FakeMember[];
  roles?: FakeRole[];
  /**
   * Every user the list does not name is a member with no roles (a member lookup never answers 10007).
   * The browser tests' server: each test makes members of its own, and all of them are in the community,
   * so switching the role sync on there leaves the other tests' members as they are.
   */
  openMembership?: boolean;
};

/**
 * Failures the guild routes (`/guilds/{id}`, its roles and members) answer on demand, as Discord does:
 * the bot removed (50001 Missing Access), an unknown server (10004), a rate limit (429 with
 * `retry_after`), a server error (500).
 */
export type FakeGuildFailure = 'missing-access' | 'unknown-guild' | 'rate-limited' | 'server-error';

export type FakeDiscordBot = {
  /** For DISCORD_BOT_API_URL (…/api). */
  apiUrl: string;
  token: string;
  botUser: FakeMember;
  voice: FakeVoiceServer;
  /** Every REST route and gateway opcode the bot used, in order (a new library call shows up here). */
  log: string[];
  /** Puts a member into a voice channel (or out, with null) and tells the connected bot. */
  setVoiceState: (guildId: string, userId: string, channelId: string | null) => void;
  /** The channel the bot itself is in, per guild (from its op 4), or null. */
  botChannel: (guildId: string) => string | null;
  /** Resolves once the bot's gateway session is READY and the guilds were sent. */
  ready: () => Promise<void>;
  /** Gateway sessions that identified (op 2) since the fake started: one per bot login. */
  identifyCount: () => number;
  /** Gateway connections open now with a session (identified or resumed). */
  liveSessions: () => number;
  /** Cuts every gateway connection (code 1006, as a network drop): the bot should resume. */
  dropGateway: () => void;
  /**
   * Replaces a member's roles (their full list), as a moderator does in Discord; sessions that identified
   * with the Server Members intent get GUILD_MEMBER_UPDATE (addMember sends GUILD_MEMBER_ADD for a join and
   * an update for a member already there; removeMember sends GUILD_MEMBER_REMOVE).
   */
  setMemberRoles: (guildId: string, userId: string, roles: string[]) => void;
  /** Adds a member to a server (or replaces them): joining (GUILD_MEMBER_ADD to sessions with the intent). */
  addMember: (guildId: string, member: FakeMember) => void;
  /** Removes a member from a server: leaving (lookups answer 10007 Unknown Member, openMembership or not). */
  removeMember: (guildId: string, userId: string) => void;
  /**
   * Whether the Server Members intent is enabled "in the developer portal" (default off): a bot that
   * identifies with it while off is closed with 4014 (disallowed intents), as Discord does.
   */
  allowMembersIntent: (allowed: boolean) => void;
  /** Gateway closes the fake sent with 4014. */
  disallowedCloses: () => number;
  /** Makes every guild route fail this way until called with null. */
  failGuildRoutes: (failure: FakeGuildFailure | null) => void;
  /**
   * Interactions (issue 44): registered commands, every interaction dispatched with the bot's answers,
   * channel messages with their edits, and the acknowledgement deadline (null: not enforced).
   */
  interactions: FakeInteractions;
  /** A member runs a slash command (`options`: name → value) in a text channel: INTERACTION_CREATE type 2. */
  slash: (
    at: { guildId: string; channelId: string; userId: string },
    name: string,
    options?: Record<string, string | number>,
  ) => FakeInteraction;
  /** A member types into an autocompleted option: INTERACTION_CREATE type 4. */
  autocomplete: (
    at: { guildId: string; channelId: string; userId: string },
    name: string,
    option: string,
    value: string,
  ) => FakeInteraction;
  /** A member presses a button of a message (its custom id): INTERACTION_CREATE type 3. */
  press: (
    at: { guildId: string; channelId: string; userId: string },
    customId: string,
    messageId?: string,
  ) => FakeInteraction;
  close: () => Promise<void>;
};

export const FAKE_BOT_TOKEN = 'fake-bot-token.guildhall.tests';

/**
 * A fake Discord for a real discord.js bot, written from Discord's developer docs: REST
 * (`/gateway/bot`, `/users/@me`), Gateway v10 (hello, identify → READY + GUILD_CREATE with voice
 * channels, members and their voice states, heartbeats, voice state updates answered with
 * VOICE_STATE_UPDATE + VOICE_SERVER_UPDATE) and the voice side in `FakeVoiceServer`.
 * Reached by the bot only through DISCORD_BOT_API_URL; the voice endpoint is handed out by the gateway.
 */
export async function startFakeDiscordBot(guilds: FakeGuild[], port = 0): Promise<FakeDiscordBot> {
  const botUser: FakeMember = { id: '390000000000000001', username: 'Guildhall Music', bot: true };
  const voice = new FakeVoiceServer();
  await voice.start();
  const log: string[] = [];
  /** guild → user → channel */
  const voiceStates = new Map<string, Map<string, string>>(guilds.map((g) => [g.id, new Map()]));
  const sessions = new Set<{ ws: WebSocket; dispatch: (t: string, d: unknown) => void; members: boolean }>();
  /** GatewayIntentBits.GuildMembers: privileged, refused unless allowed. */
  const MEMBERS_INTENT = 1 << 1;
  let membersAllowed = false;
  /** `guild/user` that left: not a member even of a server with openMembership. */
  const departed = new Set<string>();
  let disallowed = 0;
  const memberEvent = (t: 'GUILD_MEMBER_ADD' | 'GUILD_MEMBER_UPDATE' | 'GUILD_MEMBER_REMOVE', d: unknown) => {
    for (const s of sessions) if (s.members) s.dispatch(t, d);
  };
  /** Gateway sessions this instance issued (a restarted fake knows none: RESUME gets INVALID_SESSION). */
  const issued = new Set<string>();
  let resolveReady: () => void = () => {};
  let readyPromise = new Promise<void>((r) => {
    resolveReady = r;
  });

  let guildFailure: FakeGuildFailure | null = null;
  const interactions = new FakeInteractions(botUser.id, userObject(botUser));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => route(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const route = (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    log.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return send(400, { message: 'Cannot parse the body as JSON', code: 50109 });
    }
    const method = req.method ?? 'GET';
    // discord.js encodes the @ of `@original`.
    const open = interactions.handleUnauthenticated(
      method,
      decodeURIComponent(url.pathname),
      (body ?? {}) as Record<string, unknown>,
    );
    if (open) return send(open.status, open.body);
    if (req.headers.authorization !== `Bot ${FAKE_BOT_TOKEN}`) {
      return send(401, { message: '401: Unauthorized', code: 0 });
    }
    const answered = interactions.handle(method, url.pathname, body);
    if (answered) return send(answered.status, answered.body);
    const guildRoute = /^\/api\/v10\/guilds\/(\d+)(\/roles|\/channels|\/members\/(\d+))?$/.exec(url.pathname);
    if (guildRoute && guildFailure) {
      if (guildFailure === 'missing-access') return send(403, { message: 'Missing Access', code: 50001 });
      if (guildFailure === 'unknown-guild') return send(404, { message: 'Unknown Guild', code: 10004 });
      if (guildFailure === 'server-error') return send(500, { message: 'Internal Server Error', code: 0 });
      return send(
        429,
        { message: 'You are being rate limited.', retry_after: 60, global: false },
        { 'retry-after': '60', 'x-ratelimit-scope': 'user' },
      );
    }
    const known = guildRoute && guilds.find((g) => g.id === guildRoute[1]);
    if (guildRoute && !known) return send(404, { message: 'Unknown Guild', code: 10004 });
    if (known && guildRoute?.[2] === '/channels') return send(200, guildCreate(known).channels);
    if (known && guildRoute?.[2] === '/roles') {
      return send(200, [everyoneRole(known.id), ...(known.roles ?? []).map(roleObject)]);
    }
    if (known && guildRoute?.[3]) {
      const m =
        known.members.find((x) => x.id === guildRoute[3]) ??
        (known.openMembership && !departed.has(`${known.id}/${guildRoute[3]}`)
          ? { id: guildRoute[3], username: `member_${guildRoute[3].slice(-6)}` }
          : null);
      if (!m) return send(404, { message: 'Unknown Member', code: 10007 });
      return send(200, { ...memberObject(m), pending: false });
    }
    if (url.pathname === '/api/v10/gateway/bot') {
      return send(200, {
        url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    }
    if (url.pathname === '/api/v10/users/@me') return send(200, userObject(botUser));
    if (decodeURIComponent(url.pathname) === '/api/v10/applications/@me') {
      // GATEWAY_GUILD_MEMBERS_LIMITED (1 << 15): the Server Members intent switched on, under 100 servers.
      return send(200, { id: botUser.id, name: botUser.username, flags: membersAllowed ? 1 << 15 : 0 });
    }
    const guildPath = /^\/api\/v10\/guilds\/(\d+)$/.exec(url.pathname);
    const guild = guildPath && guilds.find((g) => g.id === guildPath[1]);
    if (guild) {
      const { channels: _c, members: _m, voice_states: _v, ...rest } = guildCreate(guild);
      return send(200, rest);
    }
    const channelPath = /^\/api\/v10\/channels\/(\d+)$/.exec(url.pathname);
    for (const g of channelPath ? guilds : []) {
      const c = guildCreate(g).channels.find((x) => x.id === channelPath?.[1]);
      if (c) return send(200, c);
    }
    const userPath = /^\/api\/v10\/users\/(\d+)$/.exec(url.pathname);
    const member = userPath && guilds.flatMap((g) => g.members).find((m) => m.id === userPath[1]);
    if (member) return send(200, userObject(member));
    return send(404, { message: '404: Not Found', code: 0 });
  };

  const memberObject = (m: FakeMember) => ({
    user: userObject(m),
    nick: m.nick ?? null,
    avatar: m.serverAvatar ?? null,
    roles: m.roles ?? [],
    joined_at: '2025-01-01T00:00:00.000Z',
    deaf: false,
    mute: false,
  });
  const voiceStateObject = (guildId: string, userId: string, channelId: string | null, sessionId: string) => {
    const member =
      userId === botUser.id
        ? botUser
        : (guilds.find((g) => g.id === guildId)?.members.find((m) => m.id === userId) ?? {
            id: userId,
            username: `user${userId.slice(-4)}`,
          });
    return {
      guild_id: guildId,
      channel_id: channelId,
      user_id: userId,
      member: memberObject(member),
      session_id: sessionId,
      deaf: false,
      mute: false,
      self_deaf: false,
      self_mute: false,
      self_video: false,
      suppress: false,
      request_to_speak_timestamp: null,
    };
  };
  const guildCreate = (g: FakeGuild) => ({
    id: g.id,
    name: g.name,
    icon: null,
    owner_id: g.members[0]?.id ?? botUser.id,
    member_count: g.members.length + 1,
    large: false,
    unavailable: false,
    joined_at: '2025-01-01T00:00:00.000Z',
    features: [],
    emojis: [],
    stickers: [],
    presences: [],
    threads: [],
    stage_instances: [],
    guild_scheduled_events: [],
    roles: [everyoneRole(g.id), ...(g.roles ?? []).map(roleObject)],
    channels: [
      ...g.voiceChannels.map((c, i) => ({
        id: c.id,
        type: 2,
        name: c.name,
        guild_id: g.id,
        position: i,
        permission_overwrites: [],
        bitrate: 64000,
        user_limit: 0,
        rtc_region: null,
      })),
      ...(g.textChannels ?? []).map((c, i) => ({
        id: c.id,
        type: 0,
        name: c.name,
        guild_id: g.id,
        position: i,
        permission_overwrites: [],
        topic: null,
        nsfw: false,
        last_message_id: null,
        rate_limit_per_user: 0,
        parent_id: null,
      })),
    ] as Record<string, unknown>[],
    members: [...g.members, botUser].map(memberObject),
    voice_states: [...(voiceStates.get(g.id) ?? new Map()).entries()].map(([userId, channelId]) => ({
      ...voiceStateObject(g.id, userId, channelId, `session-${userId}`),
      guild_id: undefined,
    })),
  });

  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    let seq = 0;
    const send = (payload: { op: number; d: unknown; t?: string | null; s?: number | null }) =>
      ws.send(JSON.stringify({ t: null, s: null, ...payload }));
    const dispatch = (t: string, d: unknown) => send({ op: 0, t, s: ++seq, d });
    const session = { ws, dispatch, members: false };
    send({ op: 10, d: { heartbeat_interval: 41_250 } });
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> | number | null };
      log.push(`gateway op ${msg.op}`);
      if (msg.op === 1) return send({ op: 11, d: null });
      if (msg.op === 6 && msg.d && typeof msg.d === 'object') {
        // RESUME: a session this instance issued carries on; an unknown one must identify again.
        if (issued.has(String(msg.d.session_id))) {
          sessions.add(session);
          seq = Number(msg.d.seq ?? 0);
          dispatch('RESUMED', {});
        } else {
          send({ op: 9, d: false });
        }
        return;
      }
      if (msg.op === 2) {
        const intents = msg.d && typeof msg.d === 'object' ? Number(msg.d.intents ?? 0) : 0;
        if (intents & MEMBERS_INTENT && !membersAllowed) {
          disallowed += 1;
          ws.close(4014, 'Disallowed intent(s).');
          return;
        }
        session.members = (intents & MEMBERS_INTENT) !== 0;
        sessions.add(session);
        const sessionId = randomBytes(16).toString('hex');
        issued.add(sessionId);
        dispatch('READY', {
          v: 10,
          user: userObject(botUser),
          guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
          session_id: sessionId,
          resume_gateway_url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
          shard: [0, 1],
          application: { id: botUser.id, flags: 0 },
        });
        for (const g of guilds) dispatch('GUILD_CREATE', guildCreate(g));
        resolveReady();
        return;
      }
      if (msg.op === 4 && msg.d && typeof msg.d === 'object') {
        const guildId = String(msg.d.guild_id);
        const channelId = msg.d.channel_id ? String(msg.d.channel_id) : null;
        const states = voiceStates.get(guildId);
        if (!states) return;
        if (channelId) states.set(botUser.id, channelId);
        else states.delete(botUser.id);
        const sessionId = randomBytes(16).toString('hex');
        for (const s of sessions)
          s.dispatch('VOICE_STATE_UPDATE', voiceStateObject(guildId, botUser.id, channelId, sessionId));
        if (channelId) {
          dispatch('VOICE_SERVER_UPDATE', {
            token: randomBytes(8).toString('hex'),
            guild_id: guildId,
            endpoint: voice.endpoint,
          });
        }
      }
    });
    ws.on('close', () => sessions.delete(session));
  });

  const guildOf = (guildId: string) => {
    const g = guilds.find((x) => x.id === guildId);
    if (!g) throw new Error(`fake Discord: unknown guild ${guildId}`);
    return g;
  };

  const memberOf = (guildId: string, userId: string) => {
    const m = guildOf(guildId).members.find((x) => x.id === userId);
    if (!m) throw new Error(`fake Discord: ${userId} is not in ${guildId}`);
    return memberObject(m);
  };
  const dispatchInteraction = (p: Parameters<FakeInteractions['create']>[0]) => {
    const { payload, interaction } = interactions.create(p);
    for (const s of sessions) s.dispatch('INTERACTION_CREATE', payload);
    return interaction;
  };
  const commandData = (guildId: string, name: string, options: Record<string, unknown>[]) => {
    const registered = interactions.commands(guildId).find((c) => c.name === name);
    return { id: String(registered?.id ?? '0'), name, type: 1, guild_id: guildId, options };
  };
  const optionType = (v: unknown) => (typeof v === 'number' ? 4 : 3);

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${base}/api`,
    token: FAKE_BOT_TOKEN,
    botUser,
    voice,
    log,
    setVoiceState(guildId, userId, channelId) {
      const states = voiceStates.get(guildId);
      if (!states) throw new Error(`fake Discord: unknown guild ${guildId}`);
      if (channelId) states.set(userId, channelId);
      else states.delete(userId);
      for (const s of sessions)
        s.dispatch('VOICE_STATE_UPDATE', voiceStateObject(guildId, userId, channelId, `session-${userId}`));
      if (userId === botUser.id && channelId === null) voice.disconnectGuild(guildId);
    },
    botChannel: (guildId) => voiceStates.get(guildId)?.get(botUser.id) ?? null,
    ready: () => readyPromise,
    identifyCount: () => log.filter((l) => l === 'gateway op 2').length,
    liveSessions: () => sessions.size,
    dropGateway() {
      for (const ws of wss.clients) ws.terminate();
    },
    setMemberRoles(guildId, userId, roles) {
      const m = guildOf(guildId).members.find((x) => x.id === userId);
      if (!m) throw new Error(`fake Discord: ${userId} is not in ${guildId}`);
      m.roles = [...roles];
      memberEvent('GUILD_MEMBER_UPDATE', { ...memberObject(m), guild_id: guildId });
    },
    addMember(guildId, member) {
      const g = guildOf(guildId);
      departed.delete(`${guildId}/${member.id}`);
      const isNew = !g.members.some((m) => m.id === member.id);
      g.members = [...g.members.filter((m) => m.id !== member.id), member];
      // Joining is GUILD_MEMBER_ADD; a member already there changed (nickname, avatar, roles): an update.
      memberEvent(isNew ? 'GUILD_MEMBER_ADD' : 'GUILD_MEMBER_UPDATE', {
        ...memberObject(member),
        guild_id: guildId,
      });
    },
    removeMember(guildId, userId) {
      const g = guildOf(guildId);
      const gone = g.members.find((m) => m.id === userId);
      g.members = g.members.filter((m) => m.id !== userId);
      departed.add(`${guildId}/${userId}`);
      if (gone) memberEvent('GUILD_MEMBER_REMOVE', { guild_id: guildId, user: userObject(gone) });
    },
    allowMembersIntent(allowed) {
      membersAllowed = allowed;
    },
    disallowedCloses: () => disallowed,
    failGuildRoutes(failure) {
      guildFailure = failure;
    },
    interactions,
    slash: (at, name, options = {}) =>
      dispatchInteraction({
        type: 2,
        guildId: at.guildId,
        channelId: at.channelId,
        member: memberOf(at.guildId, at.userId),
        data: commandData(
          at.guildId,
          name,
          Object.entries(options).map(([n, value]) => ({ name: n, type: optionType(value), value })),
        ),
      }),
    autocomplete: (at, name, option, value) =>
      dispatchInteraction({
        type: 4,
        guildId: at.guildId,
        channelId: at.channelId,
        member: memberOf(at.guildId, at.userId),
        data: commandData(at.guildId, name, [{ name: option, type: 3, value, focused: true }]),
      }),
    press(at, customId, messageId) {
      const posted = interactions.messages.find((m) => m.id === messageId);
      const message = interactions.messageObject(
        messageId ?? nextSnowflake(),
        at.channelId,
        posted?.body ?? { content: '', components: [] },
      );
      return dispatchInteraction({
        type: 3,
        guildId: at.guildId,
        channelId: at.channelId,
        member: memberOf(at.guildId, at.userId),
        data: { custom_id: customId, component_type: 2 },
        message,
      });
    },
    async close() {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await voice.close();
      readyPromise = new Promise<void>((r) => {
        resolveReady = r;
      });
    },
  };
}

function everyoneRole(guildId: string) {
  return {
    id: guildId,
    name: '@everyone',
    permissions: '3148800', // View Channel, Connect, Speak
    position: 0,
    color: 0,
    hoist: false,
    managed: false,
    mentionable: false,
    flags: 0,
  };
}

function roleObject(r: FakeRole, i: number) {
  return {
    id: r.id,
    name: r.name,
    permissions: '0',
    position: r.position ?? i + 1,
    color: r.color ?? 0,
    hoist: false,
    managed: r.managed ?? false,
    mentionable: false,
    flags: 0,
  };
}

function userObject(m: FakeMember) {
  return {
    id: m.id,
    username: m.username,
    discriminator: '0',
    global_name: m.username,
    avatar: m.avatar ?? null,
    bot: m.bot ?? false,
  };
}
