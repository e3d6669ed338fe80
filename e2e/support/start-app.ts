import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags.ts';
import { startFakeOsint } from '../../server/src/test/fake-osint.ts';
import { ACCESS_CODE, APP_PORT, BASE_URL, BOOTSTRAP_ADMIN_ID, DATA_DIR, DISCORD_BASE, ROOT } from './env.ts';
import { musicAppEnv } from './music-env.ts';

// Started by Playwright's webServer list: the production server (built web app) on a fresh data dir.
fs.rmSync(DATA_DIR, { recursive: true, force: true });
fs.mkdirSync(DATA_DIR, { recursive: true });
// Loopback fakes of the OSINT sources; the app reaches them through configuration, including the
// test-harness allow-list OUTBOUND_TEST_ALLOW (never set in production). Site i answers after 100 + 50·i ms,
// so a username scan's progress is visible for about two seconds.
const osint = await startFakeOsint({ sites: 40, hostnames: true, latencyMs: (i) => 100 + 50 * i });
// The production bundle (npm run build), with the node flags `npm start` uses.
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'server/dist/main.mjs')], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(APP_PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: BASE_URL,
    DATA_DIR,
    ACCESS_CODE,
    ADMIN_DISCORD_IDS: BOOTSTRAP_ADMIN_ID,
    DISCORD_CLIENT_ID: '123456789012345678',
    DISCORD_CLIENT_SECRET: 'fake-client-secret',
    DISCORD_REDIRECT_URI: `${BASE_URL}/auth/discord/callback`,
    DISCORD_API_URL: `${DISCORD_BASE}/api`,
    DISCORD_AUTHORIZE_URL: `${DISCORD_BASE}/oauth2/authorize`,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // Every browser of every parallel test connects from loopback.
    REALTIME_HANDSHAKES_PER_ADDRESS: '10000',
    ...osint.env,
    ...musicAppEnv(),
  },
});
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => void osint.close().finally(() => process.exit(code ?? 0)));
