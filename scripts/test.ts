/**
 * `npm test`: the whole suite, with its independent steps side by side. Each step alone leaves a core idle
 * much of its time (Vitest's server suites and the browser tests both wait on sockets, timers and child
 * processes), so on the 2-core machine they run together:
 *
 *   typecheck ─┐
 *   lint ──────┤
 *   build ─────┴─ browser tests (Playwright, on the build) ─ container ─┐
 *   Vitest (every project but `timed`) ─────────────────────────────────┴─ Vitest `timed`, alone
 *
 * The `timed` project measures real-time audio (a voice packet every 20 ms), so it runs with nothing
 * beside it: with another suite beside it, even at nice 10, its own event loop stalled 40–120 ms and the
 * audio holes could no longer be judged. The container step (.ci/container-test: the image built and run
 * with Podman) runs only with TEST_CONTAINER=1, which .ci/run sets, once the browser tests have ended,
 * beside the rest of Vitest (its `postgres` project, which waits on round trips far more than it computes:
 * alone, Vitest kept two cores half busy). On a new machine its build compiles ffmpeg for minutes: .ci/run
 * starts that in the background at idle priority, and the container step raises it to normal priority
 * once the browser tests are over. Before issue 47 the compile ran at normal priority from the start,
 * beside every test (a load of 12–17), and the tests that then depended on the machine's speed timed out;
 * none does now. What that costs: the Vitest suites that run beside the compile take longer; the run is
 * shorter than with the container step alone at its end (docs/testing.md has the figures). Every step runs
 * to its end even when another fails (one run reports every failure); the exit status is non-zero when any
 * step failed. Each line of output carries
 * its step's name.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

type Step = { name: string; command: string[]; cwd?: string };
type Outcome = { name: string; ok: boolean; seconds: number; skipped?: boolean };

const running = new Set<ChildProcess>();
const outcomes: Outcome[] = [];

function prefixLines(name: string, into: NodeJS.WriteStream): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) into.write(`[${name}] ${line}\n`);
  };
}

/** Runs one step in its own process group (so an interrupt stops all of it), its output prefixed. */
function run(step: Step): Promise<boolean> {
  const started = performance.now();
  console.log(`[${step.name}] $ ${step.command.join(' ')}`);
  return new Promise((resolve) => {
    const [file, ...args] = step.command as [string, ...string[]];
    const child = spawn(file, args, {
      cwd: step.cwd ?? ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    child.stdout.on('data', prefixLines(step.name, process.stdout));
    child.stderr.on('data', prefixLines(step.name, process.stderr));
    let finished = false;
    // A child that cannot start may report 'error' and then 'close': the step ends once.
    const finish = (ok: boolean) => {
      if (finished) return;
      finished = true;
      running.delete(child);
      const seconds = (performance.now() - started) / 1000;
      outcomes.push({ name: step.name, ok, seconds });
      console.log(`[${step.name}] ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s`);
      resolve(ok);
    };
    // A command that cannot start (missing binary) is a failed step, not a crash of the runner.
    child.on('error', (err) => {
      console.error(`[${step.name}] could not start: ${err.message}`);
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
  });
}

/** A step that does not run: a failure (false) unless `harmless` (a step this machine is not asked to run). */
function skip(name: string, because: string, harmless = false): boolean {
  console.log(`[${name}] not run: ${because}`);
  outcomes.push({ name, ok: harmless, seconds: 0, skipped: true });
  return harmless;
}

// Asked for here, and run by .ci/container-test alone: the other steps' Vitest must not run the suite too.
const containerWanted = process.env.TEST_CONTAINER === '1';
delete process.env.TEST_CONTAINER;

/** The container step, when asked for; in CI it must run (a skipped suite fails the run). */
function container(): Promise<boolean> | boolean {
  if (containerWanted) return run({ name: 'container', command: [path.join(ROOT, '.ci', 'container-test')] });
  return skip(
    'container',
    'TEST_CONTAINER=1 is not set (it needs Podman; .ci/run sets it)',
    process.env.CI !== 'true',
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
      } catch {}
    }
    process.exit(130);
  });
}

const vitest = path.join(BIN, 'vitest');
// The projects vitest.config.ts defines, but `timed`; `postgres` exists only with TEST_DATABASE_URL.
const unitProjects = ['sqlite', 'web', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
const started = performance.now();

const [typecheck, lint, browser, unit] = await Promise.all([
  run({ name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] }),
  run({ name: 'lint', command: ['npm', 'run', '--silent', 'lint'] }),
  run({ name: 'build', command: ['npm', 'run', '--silent', 'build'] })
    .then((built) =>
      built
        ? run({
            name: 'e2e',
            command: [path.join(BIN, 'playwright'), 'test', '-c', 'playwright.config.ts'],
            cwd: path.join(ROOT, 'e2e'),
          })
        : skip('e2e', 'the build failed'),
    )
    // The image builds from the sources, not from the build above: it runs whether or not that passed.
    .then(async (browserOk) => (await container()) && browserOk),
  run({
    name: 'vitest',
    command: [vitest, 'run', ...unitProjects.flatMap((p) => ['--project', p])],
  }),
]);
// `timed` runs after the container step, which waits for .ci/run's background preparation (the image's
// ffmpeg compile) to end: nothing of it runs beside the real-time audio suite.
const timed = await run({ name: 'vitest-timed', command: [vitest, 'run', '--project', 'timed'] });
const total = (performance.now() - started) / 1000;
console.log('\nstep           result    seconds');
for (const o of outcomes) {
  const result = o.skipped ? 'not run' : o.ok ? 'passed' : 'FAILED';
  console.log(`${o.name.padEnd(14)} ${result.padEnd(9)} ${o.seconds.toFixed(1).padStart(7)}`);
}
console.log(`${'whole suite'.padEnd(14)} ${''.padEnd(9)} ${total.toFixed(1).padStart(7)}`);
process.exit(typecheck && lint && browser && unit && timed ? 0 : 1);
