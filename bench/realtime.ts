/**
 * Realtime latency of tic-tac-toe: with many games running at once on loopback, the time from sending a
 * move request to the opponent's socket receiving the new state. The baseline, in the same run, is a bare
 * Socket.IO server that relays a client's message to its opponent's socket (and echoes it back to the
 * sender), so the figure says what the portal adds on top of Socket.IO itself.
 *
 *   node bench/realtime.ts                       200 games, 20 s of play per side
 *   BENCH_GAMES=50 BENCH_SECONDS=5 node bench/realtime.ts
 *   BENCH_THINK_MS=250 node bench/realtime.ts    faster players (more load; see docs/benchmarks.md)
 *   BENCH_POLL_MS=0 node bench/realtime.ts       without the screens' 2 s polling
 *
 * The Guildhall server runs as `node server/src/main.ts` on a temporary data dir (SQLite), in its own
 * process; so does the bare server. Players are real accounts with sessions, written to the server's
 * database before play; each plays by HTTP and listens on its own socket. After a game ends both players
 * ask for a rematch and play on. Moves alternate with a pause of BENCH_THINK_MS ± 50 % (default 1 s, a
 * brisk human), and every player's screen polls GET /:id every 2 s as the real one does: 200 games make
 * about 200 moves and 200 polls a second.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { SERVER_NODE_FLAGS } from '../server/src/node-flags.ts';
import { giveUpAfter } from './lib/deadline.ts';
import { freePort } from './lib/free-port.ts';
import { waitForHttp } from './lib/wait-for-http.ts';

const GAMES = Number(process.env.BENCH_GAMES ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
/** Every player's screen also polls its game every 2 s (portal-tools §4); 0 turns that off. */
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 2000);
const WARMUP_MS = 2000;
const GOAL_P95_MS = 25;
const ROOT = path.resolve(import.meta.dirname, '..');
const ACCESS_CODE = 'bench-access-code-1234';
/** A full game that ends in a draw: every game lasts nine moves. */
const MOVES = [0, 1, 2, 4, 3, 5, 7, 6, 8];

const BARE_SERVER = `
const { Server } = require(${JSON.stringify(require_path('socket.io'))});
const io = new Server(Number(process.argv[1]), { serveClient: false });
io.on('connection', (socket) => {
  socket.join(String(socket.handshake.auth.room));
  socket.on('move', (payload) => socket.to(String(socket.handshake.auth.room)).emit('state', payload));
  socket.on('echo', (payload) => socket.emit('echo', payload));
});
process.send && process.send('ready');
`;

function require_path(name: string): string {
  return path.join(ROOT, 'node_modules', name);
}

type Samples = number[];

const children: ChildProcess[] = [];
giveUpAfter('bench/realtime', (SECONDS * 2 + 120) * 1000, children);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const think = () => sleep(THINK_MS * (0.5 + Math.random()));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(samples: Samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

function line(label: string, s: ReturnType<typeof summary>): string {
  const f = (v: number) => `${v.toFixed(2).padStart(7)} ms`;
  return `  ${label.padEnd(34)} n=${String(s.n).padStart(6)}  p50 ${f(s.p50)}  p95 ${f(s.p95)}  p99 ${f(s.p99)}`;
}

// ---------------------------------------------------------------------------------------------------------
// Guildhall

type Player = { id: string; token: string; socket: Socket; gameId: string; waiters: Map<number, () => void> };

async function createPlayers(dataDir: string, count: number): Promise<{ id: string; token: string }[]> {
  // The server has migrated the database by now; accounts and sessions are written beside it.
  const { openDb } = await import('../server/src/db/index.ts');
  const { buildSignedInUser } = await import('../server/src/test/factories.ts');
  const db = openDb(`sqlite:${path.join(dataDir, 'guildhall.db')}`);
  const players: { id: string; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const id = String(200000000000000000n + BigInt(i));
    const { token } = await buildSignedInUser(db, { discord_id: id, username: `bench${i}` });
    players.push({ id, token });
  }
  await db.destroy();
  return players;
}

async function api(base: string, token: string, p: string, body?: unknown) {
  const res = await fetch(`${base}/api/games/tic-tac-toe${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { game?: { id: string; version: number }; error?: string };
  if (!res.ok) throw new Error(`${p}: ${res.status} ${json.error}`);
  return json.game!;
}

function connect(base: string, auth: Record<string, string>): Promise<Socket> {
  const socket = io(base, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function subscribe(player: Player, gameId: string): Promise<void> {
  player.gameId = gameId;
  const ack = (await player.socket
    .timeout(5000)
    .emitWithAck('subscribe', { room: `tictactoe:${gameId}` })) as {
    ok: boolean;
    error?: string;
  };
  if (!ack.ok) throw new Error(`subscribe: ${ack.error}`);
}

async function benchGuildhall(): Promise<{
  samples: Samples;
  moves: number;
  polls: number;
  seconds: number;
  clientLoop: { p99: number; max: number };
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-bench-rt-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...nodeArgs, path.join(ROOT, 'server/src/main.ts')],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ACCESS_CODE,
        // Every simulated player connects from loopback.
        REALTIME_HANDSHAKES_PER_ADDRESS: '100000',
      },
      // With diagnostic node flags (e.g. --trace-gc) the server's output is shown too.
      stdio: ['ignore', nodeArgs.length > 0 ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  children.push(child);
  try {
    await waitForHttp(`${base}/api/config`, child);
    const accounts = await createPlayers(dataDir, GAMES * 2);
    const players: Player[] = [];
    for (const a of accounts) {
      const socket = await connect(base, { token: a.token });
      const player: Player = { ...a, socket, gameId: '', waiters: new Map() };
      socket.on('tictactoe:state', ({ game }: { game: { id: string; version: number } }) => {
        if (game.id !== player.gameId) return;
        for (const [version, resolve] of player.waiters) {
          if (game.version >= version) {
            player.waiters.delete(version);
            resolve();
          }
        }
      });
      players.push(player);
    }
    // Pair up: each pair's first player waits, the second joins that game.
    for (let g = 0; g < GAMES; g++) {
      const [x, o] = [players[2 * g]!, players[2 * g + 1]!];
      const created = await api(base, x.token, '/join');
      const joined = await api(base, o.token, '/join');
      if (joined.id !== created.id) throw new Error('pairing went wrong');
      await Promise.all([subscribe(x, created.id), subscribe(o, created.id)]);
    }

    const samples: Samples = [];
    let moves = 0;
    let polls = 0;
    // The clients' own event-loop delay is part of every sample; it is reported so it can be told apart.
    const clientDelay = monitorEventLoopDelay({ resolution: 1 });
    clientDelay.enable();
    const start = performance.now();
    const end = start + WARMUP_MS + SECONDS * 1000;
    const polling =
      POLL_MS > 0
        ? players.map(async (p) => {
            await sleep(Math.random() * POLL_MS);
            while (performance.now() < end) {
              const res = await fetch(`${base}/api/games/tic-tac-toe/${p.gameId}`, {
                headers: { authorization: `Bearer ${p.token}` },
              });
              await res.arrayBuffer();
              polls += 1;
              await sleep(POLL_MS);
            }
          })
        : [];
    await Promise.all(
      Array.from({ length: GAMES }, async (_, g) => {
        let [x, o] = [players[2 * g]!, players[2 * g + 1]!];
        let version = 1;
        await sleep(Math.random() * THINK_MS); // spread the games' first moves
        while (performance.now() < end) {
          for (const [i, position] of MOVES.entries()) {
            const [mover, opponent] = i % 2 === 0 ? [x, o] : [o, x];
            const arrived = new Promise<number>((resolve) =>
              opponent.waiters.set(version + 1, () => resolve(performance.now())),
            );
            const sent = performance.now();
            const game = await api(base, mover.token, `/${mover.gameId}/move`, { position });
            version = game.version;
            const received = await Promise.race([arrived, sleep(5000).then(() => Number.NaN)]);
            if (Number.isNaN(received)) throw new Error(`game ${mover.gameId}: the push never arrived`);
            moves += 1;
            if (sent > start + WARMUP_MS) samples.push(received - sent);
            if (THINK_MS > 0) await think();
          }
          // Rematch: the second asker joins the first one's new game, which swaps X and O.
          const offered = await api(base, o.token, `/${o.gameId}/rematch`);
          await api(base, x.token, `/${x.gameId}/rematch`);
          await Promise.all([subscribe(x, offered.id), subscribe(o, offered.id)]);
          [x, o] = [o, x];
          version = 1;
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    clientDelay.disable();
    await Promise.all(polling);
    for (const p of players) p.socket.close();
    const clientLoop = { p99: clientDelay.percentile(99) / 1e6, max: clientDelay.max / 1e6 };
    return { samples, moves, polls, seconds, clientLoop };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Bare Socket.IO baseline

async function benchBare(): Promise<{ relay: Samples; echo: Samples }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER, String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const pairs: [Socket, Socket][] = [];
    for (let g = 0; g < GAMES; g++) {
      pairs.push([await connect(base, { room: `g${g}` }), await connect(base, { room: `g${g}` })]);
    }
    const relay: Samples = [];
    const echo: Samples = [];
    const start = performance.now();
    const end = start + WARMUP_MS + SECONDS * 1000;
    const once = (socket: Socket, event: string, seq: number) =>
      new Promise<number>((resolve) => {
        const on = (p: { seq: number }) => {
          if (p.seq !== seq) return;
          socket.off(event, on);
          resolve(performance.now());
        };
        socket.on(event, on);
      });
    await Promise.all(
      pairs.map(async ([a, b]) => {
        let seq = 0;
        await sleep(Math.random() * THINK_MS);
        while (performance.now() < end) {
          const [mover, opponent] = seq % 2 === 0 ? [a, b] : [b, a];
          seq += 1;
          // Same payload size as a game state push.
          const payload = {
            seq,
            game: { board: ['X', '', 'O', '', '', '', '', '', ''], pad: 'x'.repeat(400) },
          };
          const arrived = once(opponent, 'state', seq);
          const sent = performance.now();
          mover.emit('move', payload);
          const received = await arrived;
          if (sent > start + WARMUP_MS) relay.push(received - sent);
          const back = once(mover, 'echo', seq);
          const sentEcho = performance.now();
          mover.emit('echo', payload);
          const echoed = await back;
          if (sentEcho > start + WARMUP_MS) echo.push(echoed - sentEcho);
          if (THINK_MS > 0) await think();
        }
      }),
    );
    for (const [a, b] of pairs) {
      a.close();
      b.close();
    }
    return { relay, echo };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `bench/realtime: ${GAMES} concurrent games, ${SECONDS} s measured after ${WARMUP_MS / 1000} s warm-up, ` +
    `pause between moves ${THINK_MS} ms ± 50 %, polling ${POLL_MS ? `every ${POLL_MS} ms` : 'off'}, ` +
    `Node ${process.version}, ${os.cpus().length} × ${cpu}`,
);
const guildhall = await benchGuildhall();
const bare = await benchBare();
const g = summary(guildhall.samples);
const relay = summary(bare.relay);
const echo = summary(bare.echo);
console.log(
  `  ${(guildhall.moves / guildhall.seconds).toFixed(0)} moves/s and ${(guildhall.polls / guildhall.seconds).toFixed(0)} polls/s across all games`,
);
console.log(line('move request → opponent socket', g));
console.log(
  `  (the benchmark's own client event loop: p99 delay ${guildhall.clientLoop.p99.toFixed(1)} ms, ` +
    `max ${guildhall.clientLoop.max.toFixed(1)} ms)`,
);
console.log(line('bare Socket.IO relay (baseline)', relay));
console.log(line('bare Socket.IO echo, round trip', echo));
console.log(
  `  ratio to the bare relay: p50 ×${(g.p50 / relay.p50).toFixed(1)}, p95 ×${(g.p95 / relay.p95).toFixed(1)}, ` +
    `p99 ×${(g.p99 / relay.p99).toFixed(1)}`,
);
const pass = g.p95 < GOAL_P95_MS;
console.log(`  goal p95 < ${GOAL_P95_MS} ms: ${pass ? 'met' : 'NOT met'} (${g.p95.toFixed(2)} ms)`);
process.exit(pass ? 0 : 1);
