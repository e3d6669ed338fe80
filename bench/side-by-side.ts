/**
 * One bench of this tree and of an earlier checkout, side by side: the two run in turn (before, after,
 * after, before, …) so that a machine whose load drifts weighs on both alike, and each figure is the
 * median of its rounds. The figures compared are the benches' own ratios to their bare baseline, measured
 * in the same run, so they say what the portal adds, not how fast the machine was at that moment.
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
 *   node bench/side-by-side.ts /tmp/before realtime 4
 *   BENCH_GAMES=100 BENCH_SECONDS=10 node bench/side-by-side.ts /tmp/before pictionary 6
 *   BENCH_MUSIC_PARTS=cpu BENCH_MUSIC_WINDOW=30 node bench/side-by-side.ts /tmp/before music 4
 *
 * Benches it reads: realtime, pictionary (ratio to the bare relay at p50 / p95, p50 and p95 in ms), files
 * (upload and download medians as a share of the bare server, upload CPU per GiB) and music (the before
 * checkout's bench with each checkout's server: Node CPU per stream, ffmpeg against bare, request → changed audio,
 * packet gaps). Issue 46 asked for the figures to stay within 10 % of before.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/** A figure read from a bench's output; NaN when the output lacks it. */
type Metric = { name: string; read: (out: string) => number; better: 'lower' | 'higher' };

const NUM = String.raw`([\d.]+)`;
/** p50 and p95 of a latency line of realtime.ts / pictionary.ts (`<label> n=… p50 x ms p95 y ms …`). */
function percentiles(out: string, label: string): { p50: number; p95: number } {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}\\s+n=\\s*\\d+\\s+p50\\s+${NUM} ms\\s+p95\\s+${NUM} ms`).exec(out);
  return { p50: Number(m?.[1] ?? Number.NaN), p95: Number(m?.[2] ?? Number.NaN) };
}
/** The first number `pattern` captures in the output. */
const first = (pattern: RegExp) => (out: string) => Number(pattern.exec(out)?.[1] ?? Number.NaN);

/**
 * The latency figures of a bench that prints its own line and the bare relay's: the ratios are computed
 * here from the printed milliseconds (the bench rounds its own ratio to one decimal, too coarse for 10 %).
 */
function latencyMetrics(label: string): Metric[] {
  const relay = 'bare Socket.IO relay (baseline)';
  return [
    {
      name: 'p50 × bare relay',
      read: (out) => percentiles(out, label).p50 / percentiles(out, relay).p50,
      better: 'lower',
    },
    {
      name: 'p95 × bare relay',
      read: (out) => percentiles(out, label).p95 / percentiles(out, relay).p95,
      better: 'lower',
    },
    { name: 'p50 ms', read: (out) => percentiles(out, label).p50, better: 'lower' },
    { name: 'p95 ms', read: (out) => percentiles(out, label).p95, better: 'lower' },
  ];
}

const METRICS: Record<string, Metric[]> = {
  realtime: latencyMetrics('move request → opponent socket'),
  pictionary: latencyMetrics('batch sent (socket) → each other player'),
  files: [
    { name: 'upload × bare', read: first(/^upload\s+median ([\d.]+)×/m), better: 'higher' },
    { name: 'download × bare', read: first(/^download\s+median ([\d.]+)×/m), better: 'higher' },
    { name: 'upload CPU s/GiB', read: first(/upload CPU: Guildhall ([\d.]+) s\/GiB/), better: 'lower' },
  ],
  // The before checkout's bench/music.ts both times, with the server of each checkout (BENCH_MUSIC_SERVER_ROOT).
  music: [
    {
      name: 'Node % per stream',
      read: first(/^ {2}plain: +Node [\d.]+ % \(([\d.-]+) % above idle/m),
      better: 'lower',
    },
    {
      name: 'ffmpeg × bare',
      read: first(/ratio bot ffmpeg \/ bare ffmpeg: ([\d.]+)× plain/),
      better: 'lower',
    },
    { name: 'change p50 ms', read: first(/^all → first packet .*: p50 ([\d.]+) ms/m), better: 'lower' },
    { name: 'change p95 ms', read: first(/^all → first packet .*, p95 ([\d.]+) ms/m), better: 'lower' },
    {
      name: 'change p95 × bare',
      read: first(/over the bare start, p50: [\d.]+×, p95: ([\d.]+)×/),
      better: 'lower',
    },
    {
      name: 'gap p95 ms',
      read: first(/^all → [^\n]*\n {2}longest packet gap .*p95 ([\d.]+) ms/m),
      better: 'lower',
    },
  ],
};
/** Benches that run from this tree and take the other checkout's server by a variable. */
const SERVER_ROOT_VARIABLE: Record<string, string> = { music: 'BENCH_MUSIC_SERVER_ROOT' };

const [beforeDir, bench, roundsArg] = process.argv.slice(2);
// BENCH_MUSIC_PARTS=cpu runs only the music bench's CPU part: its first two figures.
const onlyCpu = bench === 'music' && process.env.BENCH_MUSIC_PARTS === 'cpu';
const metrics = bench ? METRICS[bench]?.slice(0, onlyCpu ? 2 : undefined) : undefined;
if (!beforeDir || !metrics) {
  console.error(
    `usage: node bench/side-by-side.ts <before-checkout> <${Object.keys(METRICS).join('|')}> [rounds]`,
  );
  process.exit(2);
}
const rounds = Number(roundsArg ?? 4);
const serverRoot = SERVER_ROOT_VARIABLE[bench as string];
const afterDir = path.resolve(import.meta.dirname, '..');
const trees = { before: path.resolve(beforeDir), after: afterDir };
const seen: Record<'before' | 'after', number[][]> = { before: [], after: [] };

for (let round = 0; round < rounds; round++) {
  // ABBA: the side that runs first changes every round.
  const order: ('before' | 'after')[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const side of order) {
    // A bench that takes the server by a variable runs from the before checkout both times: its harness
    // writes only what both schemas have (this tree's factories fill columns an older database lacks).
    const benchTree = serverRoot ? trees.before : trees[side];
    const run = spawnSync(process.execPath, [path.join(benchTree, 'bench', `${bench}.ts`)], {
      cwd: benchTree,
      encoding: 'utf8',
      env: serverRoot ? { ...process.env, [serverRoot]: trees[side] } : process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    const values = metrics.map((m) => m.read(out));
    // Exit code 1 with every figure printed is a bench whose own goal was not met (a loaded machine):
    // its figures still count here, the comparison is the point.
    if ((run.status !== 0 && run.status !== 1) || values.some(Number.isNaN)) {
      console.error(
        `${side}, round ${round + 1}: the bench failed or printed no figure\n${out.slice(-2000)}`,
      );
      process.exit(1);
    }
    seen[side].push(values);
    console.log(
      `round ${round + 1} ${side.padEnd(6)} ${values.map((v, i) => `${metrics[i]?.name} ${v.toFixed(2)}`).join(', ')}` +
        `${run.status === 1 ? ' (its goal not met)' : ''}; load ${os.loadavg()[0]?.toFixed(1)}`,
    );
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const [load1] = os.loadavg();
console.log(
  `\n${bench}: ${rounds} rounds each, before = ${trees.before}, after = this tree; load ${load1?.toFixed(1)} at the end`,
);
console.log('figure                 before (median)   after (median)   after / before   within 10 %');
metrics.forEach((m, i) => {
  const b = median(seen.before.map((v) => v[i] as number));
  const a = median(seen.after.map((v) => v[i] as number));
  const ratio = a / b;
  // Worse by more than 10 % in the figure's bad direction fails; better is fine.
  const within = m.better === 'lower' ? ratio <= 1.1 : ratio >= 1 / 1.1;
  console.log(
    `${m.name.padEnd(22)} ${b.toFixed(2).padStart(15)} ${a.toFixed(2).padStart(16)} ${ratio.toFixed(2).padStart(16)}   ${within ? 'yes' : 'NO'}`,
  );
});
