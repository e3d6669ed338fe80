/**
 * bench/web-weight: what a cold load of /login and /filesystem costs a member, measured in Chromium.
 *   node bench/web-weight.ts [runs=3]
 *
 * For each page, `runs` cold loads (a fresh browser context each: empty cache, no service worker) under
 * Chromium's own network throttling (CDP Network.emulateNetworkConditions: 150 ms latency, 1.6 Mbps down,
 * 750 kbps up, the "slow 4G" profile of issue 31). Per load:
 *   - bytes on the wire: the sum of CDP `encodedDataLength` (headers + body as received) of every response;
 *   - first contentful paint (the paint timing entry);
 *   - content visible: when the page's own content (the sign-in form, the file count) is on screen.
 * The same loads are repeated with `Accept-Encoding: identity` (what the browser would move if the
 * server did not compress), and a bare HTML page from a bare Node server gives the throttled FCP floor
 * (one round trip and a tiny body). Goals: /login ≤ 110 KB, /filesystem ≤ 250 KB, FCP of /filesystem
 * < 2.5 s. Exit code 1 when a goal is missed.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import { openDb } from '../server/src/db/index.ts';
import { SERVER_NODE_FLAGS } from '../server/src/node-flags.ts';
import { createSession } from '../server/src/platform/sessions.ts';
import { buildUser } from '../server/src/test/factories.ts';
import { freePort } from './lib/free-port.ts';
import { waitForHttp } from './lib/wait-for-http.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 3);
const THROTTLE = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const GOALS = { '/login': 110 * 1024, '/filesystem': 250 * 1024 } as const;
const FCP_GOAL_MS = 2500;

if (
  !fs.existsSync(path.join(root, 'web/dist/index.html')) ||
  !fs.existsSync(path.join(root, 'server/dist/main.mjs'))
) {
  console.log('building first (npm run build)…');
  spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

// The portal: the production bundle on a fresh data dir.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-weight-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'server/dist/main.mjs')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_DISCORD_IDS: '300000000000000001',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
server.on('error', (e) => console.error('server:', e));

// The floor: a bare page from a bare server, under the same throttling.
const bare = http.createServer((_req, res) => {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end('<!doctype html><title>bare</title><p>hello</p>');
});
bare.on('error', (e) => console.error('bare server:', e));
const barePort = await freePort();
await new Promise<void>((r) => bare.listen(barePort, '127.0.0.1', r));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'],
});

type Load = { bytes: number; requests: number; fcp: number; visible: number; encodings: Set<string> };

/** One cold load of `url` in a fresh context; `ready` is the selector that shows the page's content. */
async function coldLoad(
  url: string,
  ready: string,
  opts: { identity: boolean; token?: { token: string; userId: string } },
): Promise<Load> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (opts.token) {
      await context.addInitScript((m) => {
        localStorage.setItem('authToken', m.token);
        localStorage.setItem(
          'authUser',
          JSON.stringify({
            discord_id: m.userId,
            username: 'bench',
            access_level: 'user',
            is_approved: true,
          }),
        );
      }, opts.token);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', THROTTLE);
    if (opts.identity)
      await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    let bytes = 0;
    let requests = 0;
    const encodings = new Set<string>();
    const urls = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
    cdp.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
      requests += 1;
      if (process.env.BENCH_VERBOSE)
        console.log(`    ${String(e.encodedDataLength).padStart(7)} ${urls.get(e.requestId)}`);
    });
    cdp.on('Network.responseReceived', (e) => {
      const enc = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding');
      if (e.type === 'Script' || e.type === 'Stylesheet' || e.type === 'Document') {
        encodings.add(enc ? String(enc[1]) : 'none');
      }
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator(ready).first().waitFor({ state: 'visible', timeout: 60_000 });
    const visible = await page.evaluate(() => performance.now());
    await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => undefined);
    const fcp = await page.evaluate(async () => {
      const entry = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
      for (let i = 0; i < 100 && entry() === undefined; i++) await new Promise((r) => setTimeout(r, 50));
      return entry() ?? Number.NaN;
    });
    return { bytes, requests, fcp, visible, encodings };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;
let failed = false;

try {
  await waitForHttp(`${base}/api/config`, server);
  const db = openDb(`sqlite:${path.join(dataDir, 'guildhall.db')}`);
  const user = await buildUser(db, { username: 'bench_member', access_level: 'user' });
  const token = { token: await createSession(db, user.discord_id), userId: user.discord_id };
  await db.destroy();

  const floor: number[] = [];
  for (let i = 0; i < runs; i++) {
    floor.push((await coldLoad(`http://127.0.0.1:${barePort}/`, 'p', { identity: true })).fcp);
  }
  console.log(`web weight and throttled paint (${runs} cold loads each; 150 ms RTT, 1.6 Mbps down)`);
  console.log(`  floor: bare page from a bare server, FCP ${ms(median(floor))}`);

  const pages = [
    { url: '/login', ready: '#access-code', token: undefined },
    { url: '/filesystem', ready: '[data-testid="files-count"]', token },
  ] as const;
  for (const p of pages) {
    const result: Record<'wire' | 'identity', Load[]> = { wire: [], identity: [] };
    for (let i = 0; i < runs; i++) {
      result.wire.push(await coldLoad(`${base}${p.url}`, p.ready, { identity: false, token: p.token }));
      result.identity.push(await coldLoad(`${base}${p.url}`, p.ready, { identity: true, token: p.token }));
    }
    for (const mode of ['wire', 'identity'] as const) {
      const loads = result[mode];
      const bytes = median(loads.map((l) => l.bytes));
      const fcp = median(loads.map((l) => l.fcp));
      const label = mode === 'wire' ? 'as sent' : 'identity';
      const encodings = [...new Set(loads.flatMap((l) => [...l.encodings]))].join(',');
      console.log(
        `  ${p.url.padEnd(12)} ${label.padEnd(9)} ${kb(bytes).padStart(9)} in ${median(loads.map((l) => l.requests))} responses ` +
          `(${encodings})  FCP ${ms(fcp)} (${(fcp / median(floor)).toFixed(1)}x floor)  content ${ms(median(loads.map((l) => l.visible)))}`,
      );
      if (mode === 'wire') {
        const goal = GOALS[p.url];
        if (bytes > goal) {
          failed = true;
          console.log(`    over the goal of ${kb(goal)}`);
        }
        if (p.url === '/filesystem' && !(fcp < FCP_GOAL_MS)) {
          failed = true;
          console.log(`    FCP over the goal of ${ms(FCP_GOAL_MS)}`);
        }
      }
    }
  }
} finally {
  await browser.close();
  bare.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
