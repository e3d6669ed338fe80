import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { TICTACTOE_STATE_EVENT, tictactoeRoom } from '@guildhall/common';
import type { Socket } from 'socket.io-client';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../db/index.ts';
import { connectClient, nextEvent, subscribe } from '../platform/realtime/testing.ts';
import { createPgSchema } from '../test/app.ts';
import { eventually } from '../test/eventually.ts';
import { buildSignedInUser } from '../test/factories.ts';
import { deadline } from '../test/time-scale.ts';

/**
 * The documented deployment (deploy/nginx/guildhall.conf, docs/operations.md), for real: two server
 * processes on one PostgreSQL and one Redis behind Debian's nginx. Runs once, in the PostgreSQL pass.
 */
const repo = path.resolve(import.meta.dirname, '../../..');
const hasNginx = fs.existsSync('/usr/sbin/nginx');
const enabled = process.env.TEST_DB === 'postgres' && !!process.env.TEST_REDIS_URL && hasNginx;
const METRICS_TOKEN = 'deployment-test-metrics-token';

type Instance = { url: string; proc: ChildProcess; exited: Promise<number | null> };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * An instance on a port the system picks (PORT=0), read back from its "Server listening at" line: a port
 * found free first and bound later was once taken meanwhile by another suite (EADDRINUSE).
 */
function startInstance(env: Record<string, string>): Promise<Instance> {
  const proc = spawn(process.execPath, [path.join(repo, 'server/src/main.ts')], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (listening) resolve({ url: listening[1] as string, proc, exited });
    });
    void exited.then((code) => reject(new Error(`instance exited (${code}):\n${out}`)));
  });
}

/** nginx with the shipped site config, its upstream ports and listen port replaced. */
function startNginx(dir: string, listen: number, upstreams: number[]): ChildProcess {
  const site = fs
    .readFileSync(path.join(repo, 'deploy/nginx/guildhall.conf'), 'utf8')
    .replace('listen 80;', `listen 127.0.0.1:${listen};`)
    .replace('127.0.0.1:3001', `127.0.0.1:${upstreams[0]}`)
    .replace('127.0.0.1:3002', `127.0.0.1:${upstreams[1]}`);
  fs.writeFileSync(path.join(dir, 'site.conf'), site);
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `user root; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  # As an operator might have it globally (Debian's nginx.conf turns gzip on): the site file must keep
  # the portal's own compression as it is.
  gzip on; gzip_types text/css application/javascript text/javascript application/json;
  client_body_temp_path ${dir}/tmp-body; proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-f; uwsgi_temp_path ${dir}/tmp-u; scgi_temp_path ${dir}/tmp-s;
  include ${dir}/site.conf;
}`,
  );
  execFileSync('/usr/sbin/nginx', ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'pipe' });
  return spawn('/usr/sbin/nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: 'inherit',
  });
}

async function waitForHttp(url: string): Promise<void> {
  await eventually(
    async () => {
      if ((await fetch(url)).status !== 200) throw new Error(`${url} not up yet`);
    },
    { interval: 100 },
  );
}

const WEB_JS = 'export const answer = 42;\n'.repeat(200);

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.runIf(enabled)('two instances behind nginx (issue 16)', () => {
  let dir: string;
  let dropSchema: () => Promise<void>;
  let dbUrl: string;
  let a: Instance;
  let b: Instance;
  let nginx: ChildProcess;
  let proxy: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-deploy-'));
    // A built web app with the brotli and gzip copies web/scripts/precompress.ts writes.
    fs.mkdirSync(path.join(dir, 'web/assets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'web/index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dir, 'web/assets/app-abc123.js'), WEB_JS);
    fs.writeFileSync(path.join(dir, 'web/assets/app-abc123.js.br'), brotliCompressSync(WEB_JS));
    fs.writeFileSync(path.join(dir, 'web/assets/app-abc123.js.gz'), gzipSync(WEB_JS));
    const schema = await createPgSchema();
    dropSchema = schema.drop;
    dbUrl = schema.url;
    const env = {
      DATABASE_URL: dbUrl,
      REDIS_URL: process.env.TEST_REDIS_URL as string,
      REDIS_PREFIX: `gh-deploy-${process.pid}`,
      // One file store for both (the local store on a shared directory); no ACCESS_CODE: generated once.
      DATA_DIR: path.join(dir, 'data'),
      TRUST_PROXY: '1',
      METRICS_TOKEN,
      SHUTDOWN_GRACE_SECONDS: '5',
      WEB_DIST_DIR: path.join(dir, 'web'),
    };
    a = await startInstance(env);
    b = await startInstance(env);
    const portProxy = await freePort();
    nginx = startNginx(dir, portProxy, [Number(new URL(a.url).port), Number(new URL(b.url).port)]);
    proxy = `http://127.0.0.1:${portProxy}`;
    await waitForHttp(`${proxy}/healthz`);
  });

  afterAll(async () => {
    for (const s of sockets) s.close();
    nginx?.kill('SIGQUIT');
    a?.proc.kill('SIGKILL');
    b?.proc.kill('SIGKILL');
    await dropSchema?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the web app's precompressed copies pass through nginx as they are, varying on Accept-Encoding (issue 31)", async () => {
    for (const [accept, encoding, copy] of [
      ['br, gzip', 'br', '.br'],
      ['gzip', 'gzip', '.gz'],
    ] as const) {
      // node's fetch would decode the body: undici's raw request keeps the bytes as sent.
      const res = await undiciRequest(`${proxy}/assets/app-abc123.js`, {
        headers: { 'accept-encoding': accept },
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(body.equals(fs.readFileSync(path.join(dir, `web/assets/app-abc123.js${copy}`)))).toBe(true);
    }
    const plain = await undiciRequest(`${proxy}/assets/app-abc123.js`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(await plain.body.text()).toBe(WEB_JS);
  });

  it('one generated access code signs in through the proxy, and the session works on both instances', async () => {
    const code = fs.readFileSync(path.join(dir, 'data/access-code.txt'), 'utf8').trim();
    const res = await fetch(`${proxy}/api/auth/access-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    for (const instance of [a, b]) {
      const check = await fetch(`${instance.url}/api/auth/validate`, { headers: bearer(token) });
      expect(check.status).toBe(200);
    }
  });

  it('a file uploaded through one instance downloads through the other', async () => {
    const db = openDb(dbUrl);
    const { token } = await buildSignedInUser(db, { username: 'uploader', access_level: 'user' });
    await db.destroy();
    const content = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const form = new FormData();
    form.append('file', new Blob([content]), 'shared.bin');
    const started = await fetch(`${a.url}/upload`, { method: 'POST', headers: bearer(token), body: form });
    expect(started.status).toBe(200);
    const { fileId, totalChunks } = (await started.json()) as { fileId: string; totalChunks: number };
    const done = await fetch(`${a.url}/upload/complete`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ fileId, fileName: 'shared.bin', fileSize: content.length, totalChunks }),
    });
    expect(done.status).toBe(200);
    const id = ((await done.json()) as { data: { id: string } }).data.id;
    const download = await fetch(`${b.url}/download/${id}`, { headers: bearer(token) });
    expect(download.status).toBe(200);
    const got = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(got).digest('hex')).toBe(
      createHash('sha256').update(content).digest('hex'),
    );
  });

  it('a forged X-Forwarded-For through nginx is limited after 10 wrong access codes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${proxy}/api/auth/access-code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        body: JSON.stringify({ code: `wrong-code-${i}` }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('players on different instances play; SIGTERM on one keeps both receiving pushes within 3 s', async () => {
    const db = openDb(dbUrl);
    const p1 = await buildSignedInUser(db, { username: 'player-one' });
    const p2 = await buildSignedInUser(db, { username: 'player-two' });
    await db.destroy();
    const call = async (base: string, token: string, route: string) => {
      const res = await fetch(`${base}/api/games/tic-tac-toe${route}`, {
        method: 'POST',
        headers: bearer(token),
      });
      return (await res.json()) as { game: { id: string } };
    };
    const { game } = await call(a.url, p1.token, '/join');
    await call(b.url, p2.token, '/join');
    const room = tictactoeRoom(game.id);

    // Each player on their own instance: a move made on A reaches the player on B.
    const onA = await connectClient(a.url, p1.token);
    const onB = await connectClient(b.url, p2.token);
    sockets.push(onA, onB);
    await Promise.all([subscribe(onA, room), subscribe(onB, room)]);
    const seenOnB = nextEvent<{ game: { board: unknown[] } }>(onB, TICTACTOE_STATE_EVENT, (p) =>
      p.game.board.some((c) => c !== ''),
    );
    const current = (await fetch(`${a.url}/api/games/tic-tac-toe/${game.id}`, {
      headers: bearer(p1.token),
    }).then((r) => r.json())) as { game: { currentPlayer: 'X' | 'O'; player1: { id: string } } };
    const xPlayer = current.game.player1.id === p1.userId ? p1 : p2;
    const first = current.game.currentPlayer === 'X' ? xPlayer : xPlayer === p1 ? p2 : p1;
    const second = first === p1 ? p2 : p1;
    const firstMove = await fetch(`${a.url}/api/games/tic-tac-toe/${game.id}/move`, {
      method: 'POST',
      headers: { ...bearer(first.token), 'content-type': 'application/json' },
      body: JSON.stringify({ position: 0 }),
    });
    expect(firstMove.status).toBe(200);
    await seenOnB;

    // Both players' screens through the proxy, then a rolling restart of the instance serving them.
    const s1 = await connectClient(proxy, p1.token, { reconnection: true });
    const s2 = await connectClient(proxy, p2.token, { reconnection: true });
    sockets.push(s1, s2);
    await Promise.all([subscribe(s1, room), subscribe(s2, room)]);
    const socketsOn = async (instance: Instance) => {
      const text = await fetch(`${instance.url}/metrics`, { headers: bearer(METRICS_TOKEN) }).then((r) =>
        r.text(),
      );
      return Number(/^realtime_sockets (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const serving = (await socketsOn(a)) >= 3 ? a : b; // onA (or onB) plus s1 and s2
    const reconnected = Promise.all(
      [s1, s2].map((s) => new Promise<void>((r) => s.io.once('reconnect', () => r()))),
    );
    const resubscribed = Promise.all(
      [s1, s2].map(
        (s) => new Promise<void>((r) => s.once('connect', () => void subscribe(s, room).then(() => r()))),
      ),
    );
    const terminatedAt = Date.now();
    serving.proc.kill('SIGTERM');
    await reconnected;
    await resubscribed;
    expect(Date.now() - terminatedAt).toBeLessThan(deadline(3000));

    // A move made through the proxy right after the restart reaches both screens.
    const pushes = [s1, s2].map((s) =>
      nextEvent<{ game: { board: unknown[] } }>(
        s,
        TICTACTOE_STATE_EVENT,
        (p) => p.game.board.filter((c) => c !== '').length === 2,
      ),
    );
    const secondMove = await fetch(`${proxy}/api/games/tic-tac-toe/${game.id}/move`, {
      method: 'POST',
      headers: { ...bearer(second.token), 'content-type': 'application/json' },
      body: JSON.stringify({ position: 4 }),
    });
    expect(secondMove.status).toBe(200);
    await Promise.all(pushes);
    expect(await serving.exited).toBe(0);
  });
});
