import http from 'node:http';
import {
  type FakeGuildFailure,
  type FakeInteraction,
  startFakeDiscordBot,
} from '../../server/src/test/fake-discord-bot/index.ts';
import {
  BOT_CONTROL_PORT,
  BOT_PORT,
  GUILD_ROLES,
  LOUNGE,
  MUSIC_GUILD,
  MUSIC_MEMBERS,
  TEXT_CHANNELS,
} from './music-env.ts';

// Started by Playwright's webServer list: the fake Discord (REST, gateway, voice) the portal's music bot
// logs in to, and a control endpoint the tests use to move members in and out of voice channels, give
// members roles and make the server's routes fail (role sync). Every user is a member of its server
// (openMembership), so a test that switches the role sync on changes no other test's members.
const fake = await startFakeDiscordBot(
  [
    {
      ...MUSIC_GUILD,
      voiceChannels: [LOUNGE],
      textChannels: Object.values(TEXT_CHANNELS),
      members: Object.values(MUSIC_MEMBERS).map((m) => ({ id: m.id, username: m.username })),
      roles: Object.values(GUILD_ROLES),
      openMembership: true,
    },
  ],
  BOT_PORT,
);

const control = http.createServer((req, res) => {
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method === 'GET' && req.url === '/_health') return reply(200, { ok: true });
  /** Reads the JSON body, runs `handle` on it and answers its result (400 with the error if it throws). */
  const withBody = (handle: (body: never) => unknown) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      try {
        reply(200, { ok: true, ...(handle(JSON.parse(raw) as never) as object) });
      } catch (e) {
        reply(400, { error: String(e) });
      }
    });
  };
  if (req.method === 'POST' && req.url === '/voice') {
    return withBody(({ guildId, userId, channelId }: VoiceBody) => {
      fake.setVoiceState(guildId, userId, channelId);
      return { botChannel: fake.botChannel(guildId) };
    });
  }
  // A member of the server with these roles (their full list), as a moderator sets them in Discord.
  if (req.method === 'POST' && req.url === '/members') {
    return withBody(({ guildId, userId, username, roles, nick }: MemberBody) => {
      fake.addMember(guildId, { id: userId, username, roles, nick: nick ?? null });
    });
  }
  // The user is not (or no longer) a member of the server: lookups answer 10007 Unknown Member.
  if (req.method === 'POST' && req.url === '/members/leave') {
    return withBody(({ guildId, userId }: { guildId: string; userId: string }) => {
      fake.removeMember(guildId, userId);
    });
  }
  // Every guild route fails this way (the bot removed, Discord down…) until `failure` is null.
  if (req.method === 'POST' && req.url === '/guild-failure') {
    return withBody(({ failure }: { failure: FakeGuildFailure | null }) => {
      fake.failGuildRoutes(failure);
    });
  }
  // A member runs a slash command in a text channel (issue 44); the answer is read with GET /interactions/<id>.
  if (req.method === 'POST' && req.url === '/slash') {
    return withBody(({ guildId, channelId, userId, username, name, options }: SlashBody) => {
      fake.addMember(guildId, { id: userId, username });
      const i = fake.slash({ guildId, channelId, userId }, name, options ?? {});
      dispatched.set(i.id, i);
      return { id: i.id };
    });
  }
  if (req.method === 'GET' && req.url?.startsWith('/interactions/')) {
    const i = dispatched.get(req.url.slice('/interactions/'.length));
    if (!i) return reply(404, { error: 'unknown interaction' });
    return reply(200, { ack: i.ack()?.type ?? null, original: i.original(), followups: i.followups() });
  }
  // The messages the bot posted in a channel (channel notes, now-playing), oldest first.
  if (req.method === 'GET' && req.url?.startsWith('/messages/')) {
    const channelId = req.url.slice('/messages/'.length);
    return reply(200, {
      messages: fake.interactions.messages
        .filter((m) => m.channelId === channelId && !m.deleted)
        .map((m) => m.body),
    });
  }
  if (req.method === 'GET' && req.url?.startsWith('/bot-channel/')) {
    return reply(200, { channelId: fake.botChannel(req.url.slice('/bot-channel/'.length)) });
  }
  reply(404, { error: 'not found' });
});
type VoiceBody = { guildId: string; userId: string; channelId: string | null };
type SlashBody = {
  guildId: string;
  channelId: string;
  userId: string;
  username: string;
  name: string;
  options?: Record<string, string | number>;
};
/** The interactions dispatched through /slash, by id. */
const dispatched = new Map<string, FakeInteraction>();
type MemberBody = { guildId: string; userId: string; username: string; roles: string[]; nick?: string };

control.listen(BOT_CONTROL_PORT, '127.0.0.1', () =>
  console.log(`fake discord bot gateway on ${fake.apiUrl}, control on ${BOT_CONTROL_PORT}`),
);
process.on('SIGTERM', () => {
  control.close();
  void fake.close().then(() => process.exit(0));
});
