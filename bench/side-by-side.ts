/**
 * One bench of this tree and of an earlier checkout, side by side: the two run in turn (before, after,
 * after, before, …) so that a machine whose load drifts weighs on both alike, and each figure is the
 * median of its rounds. The figures compared are the benches' own ratios to their bare baseline, measured
 * in the same run, so they say what the portal adds, not how fast the machine was at that moment.
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)
 *   node bench/side-by-side.ts /tmp/before realtime 4
 *   BENCH_GAMES=100 BENCH_SECONDS=10 node bench/side-by-side.ts /tmp/before pictionary 6
 *
 * Benches it reads: realtime, pictionary (ratio to the bare relay at p50 / p95, and p95 in ms) and files
 * (upload and download medians as a share of the bare server, upload CPU per GiB). Issue 46 asked for the
 * figures to stay within 10 % of before.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

type Metric = { name: string; pattern: RegExp; better: 'lower' | 'higher' };

const METRICS: Record<string, Metric[]> = {
  realtime: [
    { name: 'p50 × bare relay', pattern: /ratio to the bare relay: p50 ×([\d.]+)/, better: 'lower' },
    {
      name: 'p95 × bare relay',
      pattern: /ratio to the bare relay: p50 ×[\d.]+, p95 ×([\d.]+)/,
      better: 'lower',
    },
    { name: 'p95 ms', pattern: /move request → opponent socket .*p95\s+([\d.]+) ms/, better: 'lower' },
  ],
  pictionary: [
    { name: 'p50 × bare relay', pattern: /ratio to the bare relay: p50 ×([\d.]+)/, better: 'lower' },
    {
      name: 'p95 × bare relay',
      pattern: /ratio to the bare relay: p50 ×[\d.]+, p95 ×([\d.]+)/,
      better: 'lower',
    },
    {
      name: 'p95 ms',
      pattern: /batch sent \(socket\) → each other player .*p95\s+([\d.]+) ms/,
      better: 'lower',
    },
  ],
  files: [
    { name: 'upload × bare', pattern: /^upload\s+median ([\d.]+)×/m, better: 'higher' },
    { name: 'download × bare', pattern: /^download\s+median ([\d.]+)×/m, better: 'higher' },
    { name: 'upload CPU s/GiB', pattern: /upload CPU: Guildhall ([\d.]+) s\/GiB/, better: 'lower' },
  ],
};

const [beforeDir, bench, roundsArg] = process.argv.slice(2);
const metrics = bench ? METRICS[bench] : undefined;
if (!beforeDir || !metrics) {
  console.error(
    `usage: node bench/side-by-side.ts <before-checkout> <${Object.keys(METRICS).join('|')}> [rounds]`,
  );
  process.exit(2);
}
const rounds = Number(roundsArg ?? 4);
const afterDir = path.resolve(import.meta.dirname, '..');
const trees = { before: path.resolve(beforeDir), after: afterDir };
const seen: Record<'before' | 'after', number[][]> = { before: [], after: [] };

for (let round = 0; round < rounds; round++) {
  // ABBA: the side that runs first changes every round.
  const order: ('before' | 'after')[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const side of order) {
    const run = spawnSync(process.execPath, [path.join(trees[side], 'bench', `${bench}.ts`)], {
      cwd: trees[side],
      encoding: 'utf8',
      env: process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    const values = metrics.map((m) => Number(m.pattern.exec(out)?.[1] ?? Number.NaN));
    if (run.status !== 0 || values.some(Number.isNaN)) {
      console.error(
        `${side}, round ${round + 1}: the bench failed or printed no figure\n${out.slice(-2000)}`,
      );
      process.exit(1);
    }
    seen[side].push(values);
    console.log(
      `round ${round + 1} ${side.padEnd(6)} ${values.map((v, i) => `${metrics[i]?.name} ${v}`).join(', ')}`,
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
