/**
 * What the PostgreSQL project costs over SQLite, file by file and test by test (issue 47): the same suites
 * run in both projects in one Vitest run, each file in one project right after the other
 * (bench/lib/vitest-interleaved.config.ts), and the durations Vitest reports for each test are set side by
 * side. Tests that run on one database only (a two-instance test on
 * PostgreSQL, a test skipped there) are counted apart, so a file's ratio compares the same tests.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TEST_REDIS_URL=redis://127.0.0.1:6379 \
 *     node bench/pg-vs-sqlite.ts server/src/features/roles/events.test.ts …
 *   (no files: every suite of the postgres project, test/sql-suites.ts: many minutes)
 *   BENCH_WORKERS=2 runs two files at a time as CI does (default 1: a file's pair runs back to back)
 *
 * The machine's load average is printed before and after: on a shared machine compare only figures of one
 * run, and repeat.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SQL_SUITES } from '../server/src/test/sql-suites.ts';
import type { ModuleDurations } from './lib/durations-reporter.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

if (!process.env.TEST_DATABASE_URL) {
  console.error('TEST_DATABASE_URL is not set: there is no postgres project to compare.');
  process.exit(2);
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : SQL_SUITES;
const out = path.join(os.tmpdir(), `pg-vs-sqlite-${process.pid}.jsonl`);
const workers = process.env.BENCH_WORKERS ?? '1';
const loadBefore = os.loadavg();
const started = Date.now();
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--config',
    'bench/lib/vitest-interleaved.config.ts',
    '--project',
    'sqlite',
    '--project',
    'postgres',
    `--maxWorkers=${workers}`,
    '--reporter=dot',
    '--reporter=./bench/lib/durations-reporter.ts',
    ...files,
  ],
  { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, BENCH_DURATIONS_FILE: out } },
);
const wall = (Date.now() - started) / 1000;
const lines = fs.existsSync(out) ? fs.readFileSync(out, 'utf8').trim().split('\n') : [];
fs.rmSync(out, { force: true });
const results = lines.filter(Boolean).map((l) => JSON.parse(l) as ModuleDurations);

type Test = ModuleDurations['tests'][number];
const ran = (m: ModuleDurations | undefined) =>
  (m?.tests ?? []).filter((t) => t.state === 'passed' || t.state === 'failed');
const sum = (ts: Test[]) => ts.reduce((s, t) => s + t.duration, 0);
const secs = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
const ratio = (a: number, b: number) => `${(a / Math.max(b, 1)).toFixed(1).padStart(5)}x`;

const total = { sqlite: 0, postgres: 0, sameSqlite: 0, samePg: 0, pgOnly: 0, failed: 0 };
const rows: { line: string; pg: number }[] = [];
const perTest: { file: string; test: string; sqlite: number; postgres: number }[] = [];
for (const file of new Set(results.map((r) => r.file))) {
  const lite = results.find((r) => r.file === file && r.project === 'sqlite');
  const pgm = results.find((r) => r.file === file && r.project === 'postgres');
  if (!lite || !pgm) continue; // not a SQL suite
  const liteTests = new Map(ran(lite).map((t) => [t.name, t]));
  const pgTests = ran(pgm);
  const same = pgTests.filter((t) => liteTests.has(t.name));
  const pgOnly = pgTests.filter((t) => !liteTests.has(t.name));
  const sameLite = sum(same.map((t) => liteTests.get(t.name) as Test));
  const samePg = sum(same);
  total.sqlite += lite.duration;
  total.postgres += pgm.duration;
  total.sameSqlite += sameLite;
  total.samePg += samePg;
  total.pgOnly += sum(pgOnly);
  total.failed += [...ran(lite), ...pgTests].filter((t) => t.state === 'failed').length;
  for (const t of same)
    perTest.push({
      file,
      test: t.name,
      sqlite: (liteTests.get(t.name) as Test).duration,
      postgres: t.duration,
    });
  rows.push({
    pg: pgm.duration,
    line: `${secs(lite.duration)} ${secs(pgm.duration)} | ${secs(sameLite)} ${secs(samePg)} ${ratio(samePg, sameLite)} | ${String(pgOnly.length).padStart(3)} ${secs(sum(pgOnly))}  ${file}`,
  });
}

const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
console.log(
  `\nload average before: ${load(loadBefore)}, after: ${load(os.loadavg())}; wall ${wall.toFixed(0)} s; ${workers} worker(s); ${total.failed} failed`,
);
console.log('file (s):  sqlite   pg | same tests: sqlite   pg  ratio | pg only: n    s');
for (const r of rows.sort((a, b) => b.pg - a.pg)) console.log(r.line);
console.log(
  `total      ${secs(total.sqlite)} ${secs(total.postgres)} | ${secs(total.sameSqlite)} ${secs(total.samePg)} ${ratio(total.samePg, total.sameSqlite)} |     ${secs(total.pgOnly)}`,
);
console.log('\nthe tests PostgreSQL adds most to (s: sqlite, pg):');
for (const t of perTest.sort((a, b) => b.postgres - b.sqlite - (a.postgres - a.sqlite)).slice(0, 15))
  console.log(`${secs(t.sqlite)} ${secs(t.postgres)}  ${t.file}: ${t.test}`);
process.exit(run.status === 0 ? 0 : 1);
