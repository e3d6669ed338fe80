/**
 * Issue 30's figures, measured on the server `npm start` runs (the bundle, on a temporary data dir):
 *
 * 1. ZIP of a 1 GiB folder (8 files of 128 MiB) streamed to disk: time, and the server's peak RSS growth
 *    (goal < 64 MiB), against downloading the same 8 files one by one in the same run (the baseline);
 *    the archive is then checked with `unzip -t`.
 * 2. Thumbnail cost: a 20-megapixel JPEG and a 1 GiB H.264 video (its `moov` at the end, as phones
 *    write it): time to the first thumbnail and the peak RSS growth of the server and its ffmpeg child.
 * 3. That making thumbnails never blocks other requests: GET /healthz latency every 25 ms while each
 *    thumbnail is made, against the same probe on the idle server (p50, p99, max).
 *
 *   node bench/file-manager.ts                      (builds the bundle first unless BENCH_NO_BUILD=1)
 *   BENCH_ZIP_FILE_MIB=16 BENCH_VIDEO_MIB=64 node bench/file-manager.ts   (a quick run)
 *   BENCH_SKIP_ZIP=1 node bench/file-manager.ts   (thumbnails only)
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SERVER_NODE_FLAGS } from '../server/src/node-flags.ts';
import { freePort } from './lib/free-port.ts';
import { waitForHttp } from './lib/wait-for-http.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ACCESS_CODE = 'bench-access-code-1234';
const ZIP_FILES = 8;
const ZIP_FILE_BYTES = Number(process.env.BENCH_ZIP_FILE_MIB ?? 128) * 1024 * 1024;
const VIDEO_BYTES = Number(process.env.BENCH_VIDEO_MIB ?? 1024) * 1024 * 1024;
const MiB = 1024 * 1024;

function rssOf(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb * 1024;
  } catch {
    return 0;
  }
}

/** The process's children (ffmpeg), from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (list) out.push(...list.split(/\s+/).map(Number));
  }
  return out;
}

/** Peak RSS of the server, and of the server plus its children, sampled every 20 ms. */
function watchRss(pid: number) {
  const start = rssOf(pid);
  let peak = start;
  let peakWithChildren = start;
  const timer = setInterval(() => {
    const own = rssOf(pid);
    peak = Math.max(peak, own);
    peakWithChildren = Math.max(peakWithChildren, own + childrenOf(pid).reduce((s, c) => s + rssOf(c), 0));
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return { start, growth: peak - start, growthWithChildren: peakWithChildren - start };
    },
  };
}

/** /healthz latency every 25 ms until stopped: what another member's request waits meanwhile. */
function probeLatency(port: number) {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.arrayBuffer());
      times.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...times].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
    },
  };
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const mib = (x: number) => `${(x / MiB).toFixed(1)} MiB`;

async function api<T>(port: number, method: string, url: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Uploads a file from disk with curl (`-F file=@…`, as members' clients send it; fetch gives EPIPE
 * instead of the answer when a server refuses early), then POST /upload/complete; returns its id.
 */
async function upload(port: number, token: string, file: string, name: string, folderId?: string) {
  const args = ['-s', '-H', `authorization: Bearer ${token}`];
  if (folderId) args.push('-F', `folderId=${folderId}`);
  args.push('-F', `file=@${file};filename=${name}`, `http://127.0.0.1:${port}/upload`);
  const out = spawnSync('curl', args, { encoding: 'utf8', maxBuffer: 1024 * 1024 });
  const start = JSON.parse(out.stdout || '{}') as { fileId?: string; totalChunks?: number; error?: string };
  if (!start.fileId) throw new Error(`upload ${name}: ${out.stdout} ${out.stderr}`);
  await api(port, 'POST', '/upload/complete', token, {
    fileId: start.fileId,
    fileName: name,
    fileSize: fs.statSync(file).size,
    totalChunks: start.totalChunks,
  });
  return start.fileId;
}

async function fetchToFile(port: number, url: string, file: string, token?: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok || !res.body) throw new Error(`GET ${url}: ${res.status}`);
  await pipeline(res.body, fs.createWriteStream(file));
  return (performance.now() - t) / 1000;
}

function writeRandom(file: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  const block = randomBytes(8 * MiB);
  for (let w = 0; w < bytes; w += block.length) fs.writeSync(fd, block, 0, Math.min(block.length, bytes - w));
  fs.closeSync(fd);
}

/** A 1 GiB folder as ZIP against the same bytes as plain downloads; the server's RSS growth; unzip -t. */
async function benchZip(port: number, token: string, tmp: string, pid: number): Promise<void> {
  const folder = (
    await api<{ data: { id: string } }>(port, 'POST', '/api/folders', token, { name: 'bench-zip' })
  ).data;
  const part = path.join(tmp, 'part.bin');
  const ids: string[] = [];
  for (let i = 0; i < ZIP_FILES; i++) {
    writeRandom(part, ZIP_FILE_BYTES);
    ids.push(await upload(port, token, part, `part-${i}.bin`, folder.id));
  }
  fs.rmSync(part);
  const total = ZIP_FILES * ZIP_FILE_BYTES;
  console.log(`ZIP: folder of ${ZIP_FILES} × ${mib(ZIP_FILE_BYTES)} = ${mib(total)}`);
  // Baseline: the same bytes as eight plain downloads, one after another.
  let plainSeconds = 0;
  const plainRss = watchRss(pid);
  for (const id of ids) plainSeconds += await fetchToFile(port, `/download/${id}`, '/dev/null', token);
  const plain = plainRss.stop();
  const ticket = (
    await api<{ data: { url: string } }>(port, 'POST', '/api/files/archive-ticket', token, {
      ids: [folder.id],
    })
  ).data;
  const zipFile = path.join(tmp, 'bench.zip');
  const zipRss = watchRss(pid);
  const zipSeconds = await fetchToFile(port, ticket.url, zipFile);
  const zip = zipRss.stop();
  const zipBytes = fs.statSync(zipFile).size;
  console.log(
    `  plain downloads: ${(total / MiB / plainSeconds).toFixed(0)} MiB/s, RSS growth ${mib(plain.growth)}`,
  );
  console.log(
    `  ZIP download:    ${(zipBytes / MiB / zipSeconds).toFixed(0)} MiB/s (${mib(zipBytes)}), RSS growth ${mib(zip.growth)}` +
      ` (goal < 64 MiB: ${zip.growth < 64 * MiB ? 'met' : 'NOT met'}); speed ratio ZIP/plain ${(plainSeconds / zipSeconds).toFixed(2)}`,
  );
  const check = execFileSync('unzip', ['-t', zipFile], { encoding: 'utf8' });
  console.log(`  unzip -t: ${check.trim().split('\n').at(-1)}`);
  fs.rmSync(zipFile);
}

async function main(): Promise<void> {
  if (process.env.BENCH_NO_BUILD !== '1') {
    const build = spawnSync('npm', ['run', 'build', '-w', 'server'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('server build failed');
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-bench-fm-'));
  const port = await freePort();
  const children: ChildProcess[] = [];
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'server/dist/main.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(tmp, 'data'),
      ACCESS_CODE,
      LOG_LEVEL: 'warn',
      MAX_UPLOAD_BYTES: String(4 * 1024 ** 3),
      // The bench's own uploads are setup, not what is measured: a loaded machine must not trip the
      // slow-upload guard (docs/security.md).
      UPLOAD_MIN_BYTES_PER_SECOND: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(server);
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/config`, server);
    const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/access-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: ACCESS_CODE }),
    });
    const token = ((await signIn.json()) as { token: string }).token;

    // --- 1. ZIP of a folder -------------------------------------------------------------------------
    if (process.env.BENCH_SKIP_ZIP !== '1') await benchZip(port, token, tmp, server.pid!);

    // --- 2. and 3. Thumbnails -----------------------------------------------------------------------
    const idle = probeLatency(port);
    await new Promise((r) => setTimeout(r, 3000));
    const idleLatency = await idle.stop();
    console.log(
      `healthz idle: p50 ${ms(idleLatency.p50)}, p99 ${ms(idleLatency.p99)}, max ${ms(idleLatency.max)} (${idleLatency.n} probes)`,
    );

    const photo = path.join(tmp, 'photo.jpg');
    const sharp = (await import('sharp')).default;
    await sharp({
      create: {
        width: 5472,
        height: 3648,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 90 })
      .toFile(photo);
    const video = path.join(tmp, 'video.mp4');
    // A 10-second 1080p H.264 clip, then the same stream repeated (stream copy, no re-encoding) until
    // the file reaches the size; no faststart, so the moov atom is at the end, as phones write it.
    const clip = path.join(tmp, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1920x1080:rate=30:duration=10',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-qp',
      '4',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    const loops = Math.max(0, Math.ceil(VIDEO_BYTES / fs.statSync(clip).size) - 1);
    execFileSync('ffmpeg', ['-v', 'error', '-stream_loop', String(loops), '-i', clip, '-c', 'copy', video]);
    fs.rmSync(clip);
    for (const [label, file, name] of [
      ['20-megapixel JPEG', photo, 'photo.jpg'],
      ['video', video, 'video.mp4'],
    ] as const) {
      const id = await upload(port, token, file, name);
      const latency = probeLatency(port);
      const rss = watchRss(server.pid!);
      const t = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/files/${id}/thumbnail`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = Buffer.from(await res.arrayBuffer());
      const took = performance.now() - t;
      const mem = rss.stop();
      const during = await latency.stop();
      if (!res.ok) throw new Error(`thumbnail ${name}: ${res.status} ${body.toString()}`);
      const meta = await sharp(body).metadata();
      console.log(
        `thumbnail of the ${label} (${mib(fs.statSync(file).size)}): ${ms(took)}, ${meta.width}×${meta.height} WebP ${(body.length / 1024).toFixed(1)} KB;` +
          ` RSS growth server ${mib(mem.growth)}, with ffmpeg ${mib(mem.growthWithChildren)}`,
      );
      console.log(
        `  healthz meanwhile: p50 ${ms(during.p50)}, p99 ${ms(during.p99)}, max ${ms(during.max)} (${during.n} probes);` +
          ` p99 ratio to idle ${(during.p99 / Math.max(0.1, idleLatency.p99)).toFixed(2)}`,
      );
      const again = performance.now();
      await fetch(`http://127.0.0.1:${port}/api/files/${id}/thumbnail`, {
        headers: { authorization: `Bearer ${token}` },
      });
      console.log(`  cached: ${ms(performance.now() - again)}`);
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
