import { startFakeDiscord } from '../../server/src/test/fake-discord.ts';
import { DISCORD_PORT } from './env.ts';

// Started by Playwright's webServer list: the fake Discord the portal under test talks to.
const fake = await startFakeDiscord(DISCORD_PORT);
console.log(`fake discord listening on ${fake.apiUrl}`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
