/**
 * The fake Discord file API as a process of its own (benches, manual runs): prints one JSON line
 * `{"apiUrl", "botToken", "channelId"}` and serves until its stdin closes.
 *   node server/src/test/fake-discord-files/main.ts [--rate-limit-every N] [--url-ttl-ms MS]
 */
import { parseArgs } from 'node:util';
import { startFakeDiscordFiles } from './server.ts';

const { values } = parseArgs({
  options: { 'rate-limit-every': { type: 'string' }, 'url-ttl-ms': { type: 'string' } },
});
const fake = await startFakeDiscordFiles({
  rateLimitEvery: Number(values['rate-limit-every'] ?? 0),
  urlTtlMs: values['url-ttl-ms'] ? Number(values['url-ttl-ms']) : undefined,
});
const channelId = fake.createChannel();
process.stdout.write(`${JSON.stringify({ apiUrl: fake.apiUrl, botToken: fake.botToken, channelId })}\n`);
process.stdin.resume();
const stop = () => fake.close().then(() => process.exit(0));
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.on('SIGTERM', stop);
