/**
 * OSINT username scan: one search (POST /api/osint/search, type username) over 500 profile sites served by
 * loopback fakes (each on its own host name, as real sites are), each answering after a latency drawn
 * from 50–800 ms, and 5 % never answering (so they end at the per-site time limit, twice: a timeout is
 * retried once). Prints the wall time, the recall (sites found / sites that have the account), the peak
 * memory, and — as the baseline of the same run — the lower bound any scan with the same concurrency cap
 * could reach (goal: wall ≤ 1.3 × bound):
 *
 *   lower bound = max( longest single site, Σ per-site times / concurrency )
 *
 * where a site's time is its latency, or twice the time limit for one that never answers.
 *
 *   node bench/osint.ts
 *   BENCH_SITES=500 BENCH_CONCURRENCY=96 BENCH_SITE_TIMEOUT_MS=10000 BENCH_SEED=1 node bench/osint.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bearer, createTestApp } from '../server/src/test/app.ts';
import { startFakeOsint } from '../server/src/test/fake-osint.ts';

const SITES = Number(process.env.BENCH_SITES ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 96);
const SITE_TIMEOUT_MS = Number(process.env.BENCH_SITE_TIMEOUT_MS ?? 10_000);
const TIMEOUT_SHARE = 0.05;
const GOAL_RATIO = 1.3;

// A seeded generator, so runs draw the same latencies.
let seed = Number(process.env.BENCH_SEED ?? 1);
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const latencies = Array.from({ length: SITES }, () => 50 + Math.round(random() * 750));
const hangs = new Set<number>();
while (hangs.size < Math.round(SITES * TIMEOUT_SHARE)) hangs.add(Math.floor(random() * SITES));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-osint-'));
const fake = await startFakeOsint({
  sites: SITES,
  dir,
  hostnames: true,
  latencyMs: (i) => latencies[i]!,
  behaviour: (i, account) =>
    hangs.has(i) ? 'hang' : account === 'alice' && i % 7 === 0 ? 'found' : 'missing',
});
const ctx = await createTestApp({
  ...fake.env,
  OUTBOUND_CONCURRENCY: String(CONCURRENCY),
  // One member's scan may use every slot here (the default share is 64 of 96, leaving room for others).
  OUTBOUND_PER_MEMBER: String(CONCURRENCY),
  OSINT_SITE_TIMEOUT_MS: String(SITE_TIMEOUT_MS),
});
const { token } = await ctx.signIn({ access_level: 'viewer' });

const memoryBefore = process.memoryUsage();
let peakRss = memoryBefore.rss;
let peakHeap = memoryBefore.heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 20);

const started = performance.now();
const res = await ctx.app.inject({
  method: 'POST',
  url: '/api/osint/search',
  headers: bearer(token),
  payload: { type: 'username', query: 'alice' },
});
const wallMs = performance.now() - started;
clearInterval(sampler);

const body = res.json() as {
  results: { sources: { data: { summary: { foundOn: number; totalPlatforms: number; unknown: number } } }[] };
};
const summary = body.results.sources[0]!.data.summary;
const siteTimes = latencies.map((l, i) => (hangs.has(i) ? 2 * SITE_TIMEOUT_MS : l));
const shouldFind = latencies.filter((_, i) => !hangs.has(i) && i % 7 === 0).length;
const lowerBoundMs = Math.max(Math.max(...siteTimes), siteTimes.reduce((a, b) => a + b, 0) / CONCURRENCY);
const mib = (n: number) => (n / 1024 / 1024).toFixed(1);

console.log(`OSINT username scan: ${SITES} loopback sites, latency 50–800 ms, ${hangs.size} never answer`);
console.log(`  concurrency ${CONCURRENCY}, per-site time limit ${SITE_TIMEOUT_MS} ms`);
console.log(
  `  result: found on ${summary.foundOn}, unknown ${summary.unknown}, of ${summary.totalPlatforms}`,
);
console.log(`  wall time            ${(wallMs / 1000).toFixed(2)} s`);
console.log(
  `  lower bound (same run) ${(lowerBoundMs / 1000).toFixed(2)} s   → wall / bound = ${(wallMs / lowerBoundMs).toFixed(2)}× (goal ≤ ${GOAL_RATIO}×: ${wallMs / lowerBoundMs <= GOAL_RATIO ? 'met' : 'MISSED'})`,
);
console.log(
  `  recall ${summary.foundOn} / ${shouldFind} (${((summary.foundOn / shouldFind) * 100).toFixed(1)} %), unknown ${summary.unknown} (expected ${hangs.size}: the sites that never answer)`,
);
console.log(
  `  peak RSS ${mib(peakRss)} MiB (before ${mib(memoryBefore.rss)}), peak heap ${mib(peakHeap)} MiB (before ${mib(memoryBefore.heapUsed)})`,
);
console.log(`  requests the fake sites saw: ${fake.siteHits.reduce((a, b) => a + b, 0)}`);

await ctx.close();
await fake.close();
fs.rmSync(dir, { recursive: true, force: true });
// Everything this script opened is closed: the process ends by itself. Name whatever would keep it alive.
await new Promise((resolve) => setTimeout(resolve, 100)); // let closing handles finish closing
const leftover = process.getActiveResourcesInfo().filter((r) => r !== 'PipeWrap' && r !== 'TTYWrap');
if (leftover.length > 0) console.log(`  (still referenced: ${leftover.join(', ')})`);
