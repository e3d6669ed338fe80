import http from 'node:http';
import { startFakeDiscordBot } from '../../server/src/test/fake-discord-bot/index.ts';
import { BOT_CONTROL_PORT, BOT_PORT, LOUNGE, MUSIC_GUILD, MUSIC_MEMBERS } from './music-env.ts';

// Started by Playwright's webServer list: the fake Discord (REST, gateway, voice) the portal's music bot
// logs in to, and a control endpoint the tests use to move members in and out of voice channels.
const fake = await startFakeDiscordBot(
  [
    {
      ...MUSIC_GUILD,
      voiceChannels: [LOUNGE],
      members: Object.values(MUSIC_MEMBERS).map((m) => ({ id: m.id, username: m.username })),
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
  if (req.method === 'POST' && req.url === '/voice') {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      try {
        const { guildId, userId, channelId } = JSON.parse(raw) as {
          guildId: string;
          userId: string;
          channelId: string | null;
        };
        fake.setVoiceState(guildId, userId, channelId);
        reply(200, { ok: true, botChannel: fake.botChannel(guildId) });
      } catch (e) {
        reply(400, { error: String(e) });
      }
    });
    return;
  }
  if (req.method === 'GET' && req.url?.startsWith('/bot-channel/')) {
    return reply(200, { channelId: fake.botChannel(req.url.slice('/bot-channel/'.length)) });
  }
  reply(404, { error: 'not found' });
});
control.listen(BOT_CONTROL_PORT, '127.0.0.1', () =>
  console.log(`fake discord bot gateway on ${fake.apiUrl}, control on ${BOT_CONTROL_PORT}`),
);
process.on('SIGTERM', () => {
  control.close();
  void fake.close().then(() => process.exit(0));
});
