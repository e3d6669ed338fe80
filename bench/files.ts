/**
 * Upload and download throughput of the shared file system against a bare Node HTTP server, same run,
 * same machine, same bytes, sent the way a user's client sends them: curl with `-F file=@…` (multipart)
 * and `Expect: 100-continue`, downloads with curl into /dev/null.
 *
 *   node bench/files.ts                         1 GiB, 4 paired rounds, then uploads up to 10 for resting RSS
 *   BENCH_FILES_BYTES=268435456 node bench/files.ts
 *   BENCH_FILES_ROUNDS=2 BENCH_FILES_REST_UPLOADS=2 node bench/files.ts
 *   BENCH_SERVER_NODE_ARGS="--cpu-prof" node bench/files.ts   (extra node flags for the server)
 *   BENCH_FILES_STORES=s3,discord node bench/files.ts   (the other stores measured too; default none)
 *   BENCH_FILES_CONTROL=0 node bench/files.ts   (skip the control: the same rounds between two identical bare servers)
 *
 * Every round is a pair (the bare server and Guildhall, in alternating order) and is printed with both
 * ratios and both servers' CPU seconds per GiB received; the summary gives the median and the range of
 * the rounds. A warm-up upload to each server comes first and is not counted (see below). Resting RSS:
 * the server's RSS 2 s after its first upload (the warm-up), against 2 s after its tenth.
 * Idle RSS: the server's at start (signed in, no upload yet), against 33 s after its last transfer
 * (what an idle server holds between transfers: its kept buffers, see docs/files.md).
 *
 * After the local-disk rounds, the same file goes through a server on each other store: S3 (s3rver on
 * loopback, a process of its own) and Discord (the test fake's REST API and CDN, a process of its own),
 * each reported beside the bare baseline of the same run, with the server's RSS growth.
 *
 * The Guildhall server is what `npm start` runs: the server bundle (rebuilt first, so it is current),
 * started as `node <SERVER_NODE_FLAGS> server/dist/main.mjs` on a temporary data dir; the bare
 * server pipes a request body to a file and streams a file back, nothing else. Both see the identical
 * multipart body. Also reports the Guildhall server's peak RSS growth while receiving the upload.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHUNK_SIZE_BYTES, RESUMABLE_UPLOAD_PATH } from '@guildhall/common';
import * as tus from 'tus-js-client';
import { SERVER_NODE_FLAGS } from '../server/src/node-flags.ts';
import { freePort } from './lib/free-port.ts';
import { type StoreBackend, startDiscordBackend, startS3Backend } from './lib/store-backends.ts';
import { waitForHttp } from './lib/wait-for-http.ts';

const BYTES = Number(process.env.BENCH_FILES_BYTES ?? 1024 ** 3);
const ROUNDS = Number(process.env.BENCH_FILES_ROUNDS ?? 4);
/** Uploads in all before the resting RSS is compared with the rest after the first. */
const REST_UPLOADS = Number(process.env.BENCH_FILES_REST_UPLOADS ?? 10);
/** How long after the last transfer the idle RSS is taken. */
const IDLE_AFTER_MS = 33_000;
/** Also run the rounds between two identical bare servers (BENCH_FILES_CONTROL=0 to skip). */
const CONTROL = process.env.BENCH_FILES_CONTROL !== '0';
const ROOT = path.resolve(import.meta.dirname, '..');
const ACCESS_CODE = 'bench-access-code-1234';
const GOALS = { upload: 0.9, uploadFloor: 0.8, download: 1.0, rssMiB: 48, restMiB: 32, cpuPerGiB: 4 };

const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const file = process.argv[1];
const server = http.createServer((req, res) => {
  if (req.method === 'DELETE') {
    fs.rmSync(file, { force: true });
    res.end();
  } else if (req.method === 'POST') {
    const out = fs.createWriteStream(file);
    req.pipe(out);
    out.on('finish', () => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}'); });
  } else {
    const size = fs.statSync(file).size;
    res.writeHead(200, { 'content-length': size, 'content-type': 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  }
});
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.send && process.send('ready'));
`;

type Timing = { seconds: number; mbps: number };

async function makeSource(file: string): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  const block = 8 * 1024 * 1024;
  for (let written = 0; written < BYTES; written += block) {
    const buf = randomBytes(Math.min(block, BYTES - written));
    hash.update(buf);
    if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return hash.digest('hex');
}

/** What curl reports about one transfer. */
type CurlResult = { status: number; seconds: number; uploaded: number; downloaded: number; body: string };

/**
 * One transfer with curl, the way a user's client sends: `-F file=@…` builds the multipart body and
 * `Expect: 100-continue` makes curl wait for the server's go-ahead before sending it (curl adds it on
 * its own for bodies over 1 MiB; it is set explicitly so both servers see the same exchange).
 */
async function curl(args: string[]): Promise<CurlResult> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      'curl',
      [
        '-sS',
        '--fail-with-body',
        '-w',
        '\\n%{http_code} %{time_total} %{size_upload} %{size_download}',
        ...args,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => {
      text += c;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`curl ${args.join(' ')}: exit ${code}: ${text}`)),
    );
  });
  const at = out.lastIndexOf('\n');
  const [status, seconds, uploaded, downloaded] = out
    .slice(at + 1)
    .split(' ')
    .map(Number) as [number, number, number, number];
  return { status, seconds, uploaded, downloaded, body: out.slice(0, at) };
}

/** Sends the source file as one multipart body with curl; resolves with the timing and the JSON answer. */
async function upload(port: number, urlPath: string, source: string, token?: string) {
  const r = await curl([
    '-H',
    'Expect: 100-continue',
    ...(token ? ['-H', `Authorization: Bearer ${token}`] : []),
    '-F',
    `file=@${source};filename=bench.bin;type=application/octet-stream`,
    `http://127.0.0.1:${port}${urlPath}`,
  ]);
  if (r.status !== 200) throw new Error(`upload to ${urlPath} failed: ${r.status} ${r.body}`);
  return {
    timing: { seconds: r.seconds, mbps: BYTES / 1024 ** 2 / r.seconds },
    body: JSON.parse(r.body) as Record<string, unknown>,
    bodyBytes: r.uploaded,
  };
}

/** Downloads with curl into /dev/null; checks the byte count. */
async function download(port: number, urlPath: string, expected: number, token?: string): Promise<Timing> {
  const r = await curl([
    '-o',
    '/dev/null',
    ...(token ? ['-H', `Authorization: Bearer ${token}`] : []),
    `http://127.0.0.1:${port}${urlPath}`,
  ]);
  if (r.status !== 200 || r.downloaded !== expected)
    throw new Error(`download of ${urlPath}: ${r.status}, ${r.downloaded} bytes, expected ${expected}`);
  return { seconds: r.seconds, mbps: BYTES / 1024 ** 2 / r.seconds };
}

/** Uploads the source with tus-js-client as the web page does (8 MiB per PATCH); resolves with the upload id. */
function tusUpload(port: number, token: string, source: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(fs.createReadStream(source, { highWaterMark: 1024 * 1024 }), {
      endpoint: `http://127.0.0.1:${port}${RESUMABLE_UPLOAD_PATH}`,
      chunkSize: CHUNK_SIZE_BYTES,
      uploadSize: BYTES,
      metadata: { filename: 'bench-tus.bin' },
      headers: { authorization: `Bearer ${token}` },
      onError: reject,
      onSuccess: () => resolve(upload.url!.split('/').at(-1)!),
    });
    upload.start();
  });
}

/** User + system CPU seconds a process has used so far (Linux /proc). */
function cpuSeconds(pid: number, tid?: string): number {
  const fields = fs
    .readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]!
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** CPU seconds per thread name (main thread, libuv pool, V8 GC helpers, workers) from /proc. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs
        .readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8')
        .trim()
        .replace(/[0-9]+$/, '');
      out.set(name, (out.get(name) ?? 0) + cpuSeconds(pid, tid));
    } catch {
      // thread ended
    }
  }
  return out;
}

function threadDelta(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([name, s]) => [name, s - (before.get(name) ?? 0)] as const)
    .filter(([, s]) => s >= 0.02)
    .sort((a, b) => b[1] - a[1])
    .map(([name, s]) => `${name} ${s.toFixed(2)}`)
    .join(', ');
}

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** Samples a process's RSS every 20 ms until stopped; returns the peak. */
function watchRss(pid: number) {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // process gone
    }
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

async function postJson(
  port: number,
  urlPath: string,
  body: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${urlPath}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (t: number) => `${t.toFixed(0)} MiB/s`;

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-bench-files-'));
  const children: ChildProcess[] = [];
  try {
    console.log(
      `bench/files: ${(BYTES / 1024 ** 2).toFixed(0)} MiB, ${ROUNDS} round(s), ${os.cpus().length} CPUs`,
    );
    const built = spawnSync('npm', ['run', 'build', '--workspace', 'server'], { cwd: ROOT, stdio: 'ignore' });
    if (built.status !== 0) throw new Error('npm run build --workspace server failed');
    const source = path.join(tmp, 'source.bin');
    const sourceSha = await makeSource(source);

    const barePort = await freePort();
    const bare = spawn(
      process.execPath,
      ['-e', BARE_SERVER, path.join(tmp, 'bare-stored.bin'), String(barePort)],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    children.push(bare);
    await new Promise((resolve) => bare.once('message', resolve));

    const port = await freePort();
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const server = spawn(
      process.execPath,
      [...SERVER_NODE_FLAGS, ...nodeArgs, path.join(ROOT, 'server/dist/main.mjs')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: path.join(tmp, 'data'),
          ACCESS_CODE,
          LOG_LEVEL: 'warn',
          MAX_UPLOAD_BYTES: String(Math.max(BYTES * 2, 4 * 1024 ** 3)),
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    children.push(server);
    await waitForHttp(`http://127.0.0.1:${port}/api/config`, server);
    const token = (await postJson(port, '/api/auth/access-code', { code: ACCESS_CODE })).token as string;
    /** RSS once the server has been idle for a moment (after start, or after a transfer). */
    const restingRss = async () => {
      await new Promise((r) => setTimeout(r, 2000));
      return rssBytes(server.pid!);
    };
    const rssAtStart = await restingRss();

    type Measured = Awaited<ReturnType<typeof upload>> & { cpu: number; threads: string; rssGrowth: number };
    /** Uploads the source to one server, sampling its CPU (per thread) and RSS while it receives. */
    const measureUpload = async (pid: number, target: number, token?: string): Promise<Measured> => {
      const cpu0 = cpuSeconds(pid);
      const threads0 = threadCpu(pid);
      const before = rssBytes(pid);
      const rss = watchRss(pid);
      const result = await upload(target, '/upload', source, token);
      return {
        ...result,
        rssGrowth: rss.stop() - before,
        cpu: cpuSeconds(pid) - cpu0,
        threads: threadDelta(threads0, threadCpu(pid)),
      };
    };
    const blobsDir = path.join(tmp, 'data', 'blobs');
    const storedBlobs = () =>
      fs.existsSync(blobsDir)
        ? fs.readdirSync(blobsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
        : 0;
    let fileId: string | null = null;
    /** Deletes Guildhall's last upload and waits until its blobs are gone (their deletion is asynchronous). */
    const deleteGuildhallFile = async () => {
      if (!fileId) return;
      await fetch(`http://127.0.0.1:${port}/api/files/${fileId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      fileId = null;
      for (let i = 0; i < 100 && storedBlobs() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    };
    /** Completes an upload and checks the SHA-256 the server computed against the source's. */
    const complete = async (up: Measured, name: string) => {
      fileId = up.body.fileId as string;
      const done = await postJson(
        port,
        '/upload/complete',
        { fileId, fileName: name, fileSize: BYTES, totalChunks: up.body.totalChunks },
        token,
      );
      const stored = (done.data as { sha256: string }).sha256;
      if (stored !== sourceSha)
        throw new Error(`stored SHA-256 ${stored} differs from the source's ${sourceSha}`);
    };
    /**
     * Each server's previous file is deleted just before its next upload, and the upload starts 200 ms
     * later for both: the bare server's file is unlinked, Guildhall's through the API. Both thus write
     * into freshly freed page cache. On a VM whose balloon reports free pages to the host, memory left
     * free for seconds costs a fault per page when touched again, so a server whose old file was freed
     * earlier would pay for it.
     */
    const bareTurn = async () => {
      await fetch(`http://127.0.0.1:${barePort}/upload`, { method: 'DELETE' });
      await new Promise((r) => setTimeout(r, 200));
      return measureUpload(bare.pid!, barePort);
    };
    const guildhallTurn = async () => {
      await deleteGuildhallFile();
      await new Promise((r) => setTimeout(r, 200));
      return measureUpload(server.pid!, port, token);
    };

    type Round = { up: number; bareUp: number; down: number; bareDown: number; cpu: number; bareCpu: number };
    const rounds: Round[] = [];
    let rssGrowth = 0;
    let bareRssGrowth = 0;
    let restAfterFirst = 0;
    const gib = BYTES / 1024 ** 3;
    // Warm-up, not counted: the first gigabyte a VM writes touches guest memory the host has not backed
    // yet, and whichever server writes it second pays a fault per page (two identical bare servers
    // measured this way gave 0.38× in their first round and 0.81–1.17× after). One upload each first.
    const warm = [await bareTurn(), await guildhallTurn()];
    await complete(warm[1]!, 'bench-warm-up.bin');
    restAfterFirst = await restingRss();
    console.log(
      `warm-up (not counted): bare ${fmt(warm[0]!.timing.mbps)}, Guildhall ${fmt(warm[1]!.timing.mbps)}`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      // Paired rounds in alternating order, so neither server always runs while the other's writes flush.
      let bareUp: Measured;
      let up: Measured;
      if (round % 2 === 1) {
        bareUp = await bareTurn();
        up = await guildhallTurn();
      } else {
        up = await guildhallTurn();
        bareUp = await bareTurn();
      }
      bareRssGrowth = Math.max(bareRssGrowth, bareUp.rssGrowth);
      rssGrowth = Math.max(rssGrowth, up.rssGrowth);
      await complete(up, `bench-${round}.bin`);
      // The bare server stored the whole multipart body, framing included.
      const bareDown = await download(barePort, '/download', bareUp.bodyBytes);
      const down = await download(port, `/download/${fileId}`, BYTES, token);
      const r: Round = {
        up: up.timing.mbps,
        bareUp: bareUp.timing.mbps,
        down: down.mbps,
        bareDown: bareDown.mbps,
        cpu: up.cpu / gib,
        bareCpu: bareUp.cpu / gib,
      };
      rounds.push(r);
      console.log(
        `round ${round} (${round % 2 === 1 ? 'bare' : 'Guildhall'} first): upload ${fmt(r.up)} / bare ${fmt(r.bareUp)} = ${(r.up / r.bareUp).toFixed(2)}×, ` +
          `download ${fmt(r.down)} / bare ${fmt(r.bareDown)} = ${(r.down / r.bareDown).toFixed(2)}×; ` +
          `upload CPU ${r.cpu.toFixed(2)} s/GiB (bare ${r.bareCpu.toFixed(2)}), RSS growth ${(up.rssGrowth / 1024 ** 2).toFixed(1)} MiB` +
          `\n  upload CPU by thread: ${up.threads} (bare: ${bareUp.threads})`,
      );
    }
    // Resting memory: after 10 uploads in all (the rounds' and more), against the rest after the first.
    for (let n = ROUNDS + 1; n < REST_UPLOADS; n++) {
      const up = await guildhallTurn();
      await complete(up, `bench-rest-${n}.bin`);
    }
    await deleteGuildhallFile();
    const restAfterAll = await restingRss();

    // The web page's way: tus, one 8 MiB chunk per PATCH (after the resting-RSS uploads, not counted there).
    const tusCpu0 = cpuSeconds(server.pid!);
    const tusStarted = process.hrtime.bigint();
    const tusId = await tusUpload(port, token, source);
    const tusSeconds = Number(process.hrtime.bigint() - tusStarted) / 1e9;
    const tusCpu = (cpuSeconds(server.pid!) - tusCpu0) / gib;
    fileId = tusId;
    const tusDone = await postJson(
      port,
      '/upload/complete',
      {
        fileId: tusId,
        fileName: 'bench-tus.bin',
        fileSize: BYTES,
        totalChunks: Math.ceil(BYTES / (8 * 1024 ** 2)),
      },
      token,
    );
    if ((tusDone.data as { sha256: string }).sha256 !== sourceSha)
      throw new Error('tus upload: SHA-256 differs');
    await deleteGuildhallFile();
    const lastTransferAt = Date.now();

    // Control: the same paired, alternating rounds between two identical bare servers. Their per-round
    // ratios show how far this machine alone moves a round (page-cache faults land on whoever writes
    // second), which bounds what any one round of the comparison above can mean.
    const controlRatios: number[] = [];
    if (CONTROL) {
      const twinPort = await freePort();
      const twin = spawn(
        process.execPath,
        ['-e', BARE_SERVER, path.join(tmp, 'twin-stored.bin'), String(twinPort)],
        { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      );
      children.push(twin);
      await new Promise((resolve) => twin.once('message', resolve));
      const twinTurn = async () => {
        await fetch(`http://127.0.0.1:${twinPort}/upload`, { method: 'DELETE' });
        await new Promise((r) => setTimeout(r, 200));
        return measureUpload(twin.pid!, twinPort);
      };
      await twinTurn(); // its warm-up
      for (let round = 1; round <= ROUNDS; round++) {
        const [a, b] =
          round % 2 === 1 ? [await bareTurn(), await twinTurn()] : [await twinTurn(), await bareTurn()];
        const ratio = round % 2 === 1 ? b.timing.mbps / a.timing.mbps : a.timing.mbps / b.timing.mbps;
        controlRatios.push(ratio);
      }
      twin.kill('SIGTERM');
    }
    // Idle memory, long after the last transfer: what stays is what the server keeps between transfers.
    await new Promise((r) => setTimeout(r, Math.max(0, lastTransferAt + IDLE_AFTER_MS - Date.now())));
    const rssIdle = rssBytes(server.pid!);

    const upRatios = rounds.map((r) => r.up / r.bareUp);
    const downRatios = rounds.map((r) => r.down / r.bareDown);
    const upRatio = median(upRatios);
    const downRatio = median(downRatios);
    const lowest = Math.min(...upRatios);
    const rssMiB = rssGrowth / 1024 ** 2;
    const restMiB = (restAfterAll - restAfterFirst) / 1024 ** 2;
    const cpu = median(rounds.map((r) => r.cpu));
    const bareCpu = median(rounds.map((r) => r.bareCpu));
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
    const verdict = (ok: boolean) => (ok ? 'meets goal' : 'BELOW GOAL');
    console.log('');
    console.log(
      `upload    median ${upRatio.toFixed(2)}× the bare server (rounds ${range(upRatios)}; goal median ≥ ${GOALS.upload}, no round < ${GOALS.uploadFloor}: ${verdict(upRatio >= GOALS.upload && lowest >= GOALS.uploadFloor)}); ` +
        `${fmt(median(rounds.map((r) => r.up)))} against ${fmt(median(rounds.map((r) => r.bareUp)))}`,
    );
    if (controlRatios.length > 0) {
      console.log(
        `control   two identical bare servers, same rounds: median ${median(controlRatios).toFixed(2)}×, rounds ${range(controlRatios)} (${controlRatios.map((r) => r.toFixed(2)).join(', ')})`,
      );
    }
    console.log(
      `download  median ${downRatio.toFixed(2)}× the bare server (rounds ${range(downRatios)}; goal ≥ ${GOALS.download}: ${verdict(downRatio >= GOALS.download)}); ` +
        `${fmt(median(rounds.map((r) => r.down)))} against ${fmt(median(rounds.map((r) => r.bareDown)))}`,
    );
    console.log(
      `upload CPU: Guildhall ${cpu.toFixed(2)} s/GiB (goal ≤ ${GOALS.cpuPerGiB}: ${verdict(cpu <= GOALS.cpuPerGiB)}), bare server ${bareCpu.toFixed(2)} s/GiB`,
    );
    console.log(
      `server peak RSS growth during upload: ${rssMiB.toFixed(1)} MiB (goal < ${GOALS.rssMiB}: ${verdict(rssMiB < GOALS.rssMiB)}); bare server: ${(bareRssGrowth / 1024 ** 2).toFixed(1)} MiB`,
    );
    console.log(
      `resting RSS: ${(restAfterFirst / 1024 ** 2).toFixed(1)} MiB after the first upload, ${(restAfterAll / 1024 ** 2).toFixed(1)} MiB after ${Math.max(REST_UPLOADS, ROUNDS + 1)} (` +
        `${restMiB >= 0 ? '+' : ''}${restMiB.toFixed(1)} MiB; goal within ${GOALS.restMiB}: ${verdict(restMiB < GOALS.restMiB)})`,
    );

    console.log(
      `idle RSS: ${(rssAtStart / 1024 ** 2).toFixed(1)} MiB at start, before any upload; ` +
        `${(rssIdle / 1024 ** 2).toFixed(1)} MiB ${IDLE_AFTER_MS / 1000} s after the last transfer`,
    );
    console.log(
      `resumable (tus, 8 MiB per PATCH, as the web page sends): ${fmt(BYTES / 1024 ** 2 / tusSeconds)} ` +
        `(${(BYTES / 1024 ** 2 / tusSeconds / median(rounds.map((r) => r.bareUp))).toFixed(2)}× the bare server's multipart median), ${tusCpu.toFixed(2)} CPU s/GiB`,
    );

    const stores = (process.env.BENCH_FILES_STORES ?? '')
      .split(',')
      .filter((k): k is 's3' | 'discord' => k === 's3' || k === 'discord');
    for (const kind of stores) {
      const backend = kind === 's3' ? await startS3Backend() : await startDiscordBackend();
      try {
        const r = await benchStore(backend, source, sourceSha, tmp, children);
        const up = median(r.up);
        const down = median(r.down);
        console.log(
          `${kind.padEnd(9)} upload ${fmt(up)} (${(up / median(rounds.map((r) => r.bareUp))).toFixed(2)} of bare), ` +
            `download ${fmt(down)} (${(down / median(rounds.map((r) => r.bareDown))).toFixed(2)} of bare), ` +
            `server peak RSS growth ${(r.rssGrowth / 1024 ** 2).toFixed(1)} MiB (goal < ${GOALS.rssMiB}: ${verdict(r.rssGrowth / 1024 ** 2 < GOALS.rssMiB)})`,
        );
      } finally {
        await backend.close();
      }
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** ROUNDS uploads and downloads of the source through a Guildhall server on another store. */
async function benchStore(
  backend: StoreBackend,
  source: string,
  sourceSha: string,
  tmp: string,
  children: ChildProcess[],
): Promise<{ up: number[]; down: number[]; rssGrowth: number }> {
  const port = await freePort();
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'server/dist/main.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...backend.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(tmp, `data-${backend.kind}`),
      ACCESS_CODE,
      LOG_LEVEL: 'warn',
      MAX_UPLOAD_BYTES: String(Math.max(BYTES * 2, 4 * 1024 ** 3)),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(server);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/config`, server);
    const token = (await postJson(port, '/api/auth/access-code', { code: ACCESS_CODE })).token as string;
    const out = { up: [] as number[], down: [] as number[], rssGrowth: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      const before = rssBytes(server.pid!);
      const rss = watchRss(server.pid!);
      const up = await upload(port, '/upload', source, token);
      out.rssGrowth = Math.max(out.rssGrowth, rss.stop() - before);
      const fileId = up.body.fileId as string;
      const done = await postJson(
        port,
        '/upload/complete',
        {
          fileId,
          fileName: `bench-${backend.kind}-${round}.bin`,
          fileSize: BYTES,
          totalChunks: up.body.totalChunks,
        },
        token,
      );
      if ((done.data as { sha256: string }).sha256 !== sourceSha)
        throw new Error(`${backend.kind}: SHA-256 differs`);
      const down = await download(port, `/download/${fileId}`, BYTES, token);
      out.up.push(up.timing.mbps);
      out.down.push(down.mbps);
      console.log(
        `${backend.kind} round ${round}: upload ${fmt(up.timing.mbps)}, download ${fmt(down.mbps)}`,
      );
      await fetch(`http://127.0.0.1:${port}/api/files/${fileId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    }
    return out;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
