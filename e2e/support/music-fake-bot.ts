import http from 'node:http';
import { type FakeGuildFailure, startFakeDiscordBot } from '../../server/src/test/fake-discord-bot/index.ts';
import { BOT_CONTROL_PORT, BOT_PORT, GUILD_ROLES, LOUNGE, MUSIC_GUILD, MUSIC_MEMBERS } from './music-env.ts';

// Started by Playwright's webServer list: the fake Discord (REST, gateway, voice) the portal's music bot
// logs in to, and a control endpoint the tests use to move members in and out of voice channels, give
// members roles and make the server's routes fail (role sync). Every user is a member of its server
// (openMembership), so a test that switches the role sync on changes no other test's members.
const fake = await startFakeDiscordBot(
  [
    {
      ...MUSIC_GUILD,
      voiceChannels: [LOUNGE],
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
  // Every guild route fails this way (the bot removed, Discord down…) until `failure` is null.
  if (req.method === 'POST' && req.url === '/guild-failure') {
    return withBody(({ failure }: { failure: FakeGuildFailure | null }) => {
      fake.failGuildRoutes(failure);
    });
  }
  if (req.method === 'GET' && req.url?.startsWith('/bot-channel/')) {
    return reply(200, { channelId: fake.botChannel(req.url.slice('/bot-channel/'.length)) });
  }
  reply(404, { error: 'not found' });
});
type VoiceBody = { guildId: string; userId: string; channelId: string | null };
type MemberBody = { guildId: string; userId: string; username: string; roles: string[]; nick?: string };

control.listen(BOT_CONTROL_PORT, '127.0.0.1', () =>
  console.log(`fake discord bot gateway on ${fake.apiUrl}, control on ${BOT_CONTROL_PORT}`),
);
process.on('SIGTERM', () => {
  control.close();
  void fake.close().then(() => process.exit(0));
});
