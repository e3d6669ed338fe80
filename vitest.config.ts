import { defineConfig } from 'vitest/config';
import { testCaBundle } from './server/src/test/fake-discord-bot/ca-env.ts';

// The fake Discord's voice gateway serves TLS with a certificate from a committed test-only CA. Node reads
// NODE_EXTRA_CA_CERTS only at process start, so it is set here, before the worker processes (forks pool)
// that run the bot are spawned; they inherit it. Never NODE_TLS_REJECT_UNAUTHORIZED=0.
process.env.NODE_EXTRA_CA_CERTS = testCaBundle();

const sharedInclude = ['common/src/**/*.test.ts', 'server/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'];
/** The suites that touch stored bytes: they run again on S3 (s3rver) and on the fake Discord. */
const filesSuites = [
  'server/src/features/files/{upload,download,http-download,items,crash,bad-input,download-limits}.test.ts',
  'server/src/features/files/resumable/*.test.ts',
  'server/src/features/files/shares/**/*.test.ts',
  'server/src/features/files/manager.test.ts',
];

// One Vitest run covers every package (browser specs run under Playwright instead). When
// TEST_DATABASE_URL is set (CI), the server suite runs a second time on PostgreSQL.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 20000,
    hookTimeout: 20000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: sharedInclude } },
      { extends: true, test: { name: 'files-s3', include: filesSuites, env: { TEST_FILES_STORE: 's3' } } },
      {
        extends: true,
        test: { name: 'files-discord', include: filesSuites, env: { TEST_FILES_STORE: 'discord' } },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: ['server/src/**/*.test.ts'], env: { TEST_DB: 'postgres' } },
            },
          ]
        : []),
    ],
  },
});
