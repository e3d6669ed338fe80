/**
 * bench/startup: time from process start to the first 200 on `/`, for the portal on a fresh data dir
 * (migrations, bootstrap, access-code generation included) and, as a same-run baseline, for a bare
 * Node HTTP server. Prints the medians and their ratio. Goal: portal under 1 s.
 *   node bench/startup.ts [runs=7]
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../server/src/node-flags.ts';
import { freePort } from './lib/free-port.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 7);

if (
  !fs.existsSync(path.join(root, 'web/dist/index.html')) ||
  !fs.existsSync(path.join(root, 'server/dist/main.mjs'))
) {
  console.log('building first (npm run build)…');
  spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

async function timeToFirst200(args: string[], env: Record<string, string>, port: number): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - start;
      } catch {
        // not listening yet
      }
      if (performance.now() - start > 20_000) throw new Error('no 200 within 20 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const bare = `require('node:http').createServer((q,s)=>s.end('ok')).listen(+process.env.PORT,'127.0.0.1')`;

const portal: number[] = [];
const fromSource: number[] = [];
const baseline: number[] = [];
const portalEnv = (port: number, dataDir: string) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
});
for (let i = 0; i < runs; i += 1) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-bench-'));
  let port = await freePort();
  portal.push(
    await timeToFirst200(
      [...SERVER_NODE_FLAGS, path.join(root, 'server/dist/main.mjs')],
      portalEnv(port, dataDir),
      port,
    ),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
  port = await freePort();
  fromSource.push(
    await timeToFirst200(
      [...SERVER_NODE_FLAGS, path.join(root, 'server/src/main.ts')],
      portalEnv(port, dataDir),
      port,
    ),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
  port = await freePort();
  baseline.push(await timeToFirst200(['-e', bare], { PORT: String(port) }, port));
}

const p = median(portal);
const b = median(baseline);
console.log(`startup to first 200 on / (median of ${runs}, fresh data dir each run)`);
console.log(`  portal (npm start): ${p.toFixed(0)} ms   (goal < 1000 ms)`);
console.log(`  portal from source: ${median(fromSource).toFixed(0)} ms   (npm run dev, tests)`);
console.log(`  bare node server:   ${b.toFixed(0)} ms`);
console.log(`  ratio portal/bare:  ${(p / b).toFixed(2)}x`);
