import { defineConfig } from 'vitest/config';

const sharedInclude = ['common/src/**/*.test.ts', 'server/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'];

// One Vitest run covers every package (browser specs run under Playwright instead). When
// TEST_DATABASE_URL is set (CI), the server suite runs a second time on PostgreSQL.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 20000,
    hookTimeout: 20000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: sharedInclude } },
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
