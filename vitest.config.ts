import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { testCaBundle } from './server/src/test/fake-discord-bot/ca-env.ts';
import { SQL_SUITES } from './server/src/test/sql-suites.ts';
import { EVENT_DEADLINE_MS, TEST_TIMEOUT_MS } from './server/src/test/time-scale.ts';

// The fake Discord's voice gateway serves TLS with a certificate from a committed test-only CA. Node reads
// NODE_EXTRA_CA_CERTS only at process start, so it is set here, before the worker processes (forks pool)
// that run the bot are spawned; they inherit it. Never NODE_TLS_REJECT_UNAUTHORIZED=0.
process.env.NODE_EXTRA_CA_CERTS = testCaBundle();

// In CI every opt-in suite runs: a missing PostgreSQL or Redis fails the run instead of skipping suites.
if (process.env.CI === 'true') {
  const missing = ['TEST_DATABASE_URL', 'TEST_REDIS_URL'].filter((v) => !process.env[v]);
  if (missing.length > 0) {
    throw new Error(
      `CI=true but ${missing.join(' and ')} not set: the PostgreSQL / Redis suites would be skipped`,
    );
  }
}

const serverInclude = ['common/src/**/*.test.ts', 'server/src/**/*.test.ts'];
const webInclude = ['web/src/**/*.test.{ts,tsx}'];
const TIMED = ['server/src/features/music/audio.test.ts'];

// One Vitest run covers every package (browser specs run under Playwright instead). When
// TEST_DATABASE_URL is set (CI), the suites whose behaviour depends on SQL (server/src/test/sql-suites.ts)
// run a second time on PostgreSQL. Every blob store is proven by platform/blob-store/contract.test.ts and
// features/files/stores-smoke.test.ts; the other files suites run on local disk.
export default defineConfig({
  test: {
    pool: 'forks',
    // As many test files at a time as the machine has cores (Vitest's default is one fewer): most of a
    // server suite's time is spent waiting on sockets, child processes and timers, not on a core.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // Databases migrated once per run and copied per test (server/src/test/template-db.ts).
    globalSetup: ['server/src/test/global-setup.ts'],
    // One generous limit, scaled by TEST_TIME_SCALE (server/src/test/time-scale.ts): a test waits for the
    // event that proves its point; it never fails because the machine is slow.
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    expect: { poll: { timeout: EVENT_DEADLINE_MS } },
    projects: [
      // Server suites share their worker's modules (isolate: false): importing the app took ~1 s per file,
      // 40 % of the run. Every suite builds its own app, databases and servers from these modules, and
      // shared test servers are forgotten when closed (test/files-store.ts). The web suites stay isolated
      // (they mock modules and render into a fresh DOM).
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: serverInclude,
          exclude: TIMED,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      // Suites that measure real-time behaviour (voice packets every 20 ms, no inserted silence) run after
      // all the others, alone: another suite on the second core made the transcoder miss its beat.
      {
        extends: true,
        test: { name: 'timed', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 2 } },
      },
      { extends: true, test: { name: 'web', include: webInclude, sequence: { groupOrder: 0 } } },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: SQL_SUITES,
                env: { TEST_DB: 'postgres' },
                isolate: false,
                // After the SQLite and web suites, and one worker more than the machine has cores. A
                // PostgreSQL suite mostly waits for round trips to the server's processes, and on a
                // loaded machine each waits to be scheduled: files/bad-input took 22.8 s alone and 132 s
                // beside the browser tests and the SQLite suites (its SQLite run 9.2 s and 26.5 s).
                // Run after them, the round trips meet a quieter machine, and a third worker fills the
                // cores the waits leave idle (issue 47).
                maxWorkers: Math.max(2, os.availableParallelism()) + 1,
                sequence: { groupOrder: 1 },
              },
            },
          ]
        : []),
    ],
  },
});
