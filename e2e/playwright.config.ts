import { defineConfig } from '@playwright/test';
import { APP_PORT, BASE_URL, DISCORD_PORT } from './support/env.ts';
import { BOT_CONTROL_PORT } from './support/music-env.ts';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../.tmp/test-results',
  fullyParallel: false,
  // One worker: the machine (and CI's) has 2 cores, and every test drives Chromium, the portal and the fakes,
  // so two workers only made each step twice as slow (tests ran out of time at 2 workers, not at 1).
  workers: 1,
  // A flaky test is fixed, never retried into passing.
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    // As a member who asked their system for less motion (index.css honours it): no pulsing placeholder or
    // spinner repaints the page while a test waits, and nothing is clicked mid-slide.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // The fake Discord the music bot logs in to (must be up before the app starts its bot).
      command: 'node e2e/support/music-fake-bot.ts',
      cwd: '..',
      url: `http://127.0.0.1:${BOT_CONTROL_PORT}/_health`,
      reuseExistingServer: false,
      timeout: 20_000,
      stdout: 'pipe',
    },
    {
      command: 'node e2e/support/fake-discord-server.ts',
      cwd: '..',
      url: `http://127.0.0.1:${DISCORD_PORT}/_health`,
      ignoreHTTPSErrors: true,
      reuseExistingServer: false,
      timeout: 20_000,
      stdout: 'pipe',
    },
    {
      command: 'node e2e/support/start-app.ts',
      cwd: '..',
      url: `http://127.0.0.1:${APP_PORT}/api/config`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
    },
  ],
});
