import fs from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** One test file's result in one project, as bench/pg-vs-sqlite.ts reads it. */
export type ModuleDurations = {
  project: string;
  file: string;
  /** Tests and hooks, ms (Vitest's own sum; without the import). */
  duration: number;
  collect: number;
  tests: { name: string; state: string; duration: number }[];
};

/**
 * A Vitest reporter that appends one JSON line per test file to $BENCH_DURATIONS_FILE, naming the
 * project it ran in (Vitest's JSON reporter lists a file once per project without saying which).
 */
export default class DurationsReporter implements Reporter {
  onTestModuleEnd(m: TestModule): void {
    const file = process.env.BENCH_DURATIONS_FILE;
    if (!file) return;
    const d = m.diagnostic();
    const line: ModuleDurations = {
      project: m.project.name,
      file: m.relativeModuleId,
      duration: d.duration,
      collect: d.collectDuration,
      tests: [...m.children.allTests()].map((t) => ({
        name: t.fullName,
        state: t.result().state,
        duration: t.diagnostic()?.duration ?? 0,
      })),
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}
