import { defineConfig } from 'vitest/config';

// One Vitest run covers every package; browser (e2e) specs run under Playwright instead.
export default defineConfig({
  test: {
    include: ['common/src/**/*.test.ts', 'server/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    pool: 'forks',
    testTimeout: 20000,
    hookTimeout: 20000,
  },
});
