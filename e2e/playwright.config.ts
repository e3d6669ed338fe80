import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from '@playwright/test';
import { BROWSER_EXPECT_MS, BROWSER_TEST_TIMEOUT_MS, deadline } from '../server/src/test/time-scale.ts';
import { APP_PORT, BASE_URL, DISCORD_PORT } from './support/env.ts';
import { BOT_CONTROL_PORT } from './support/music-env.ts';

// Debian's Chromium in its headless-shell build (package chromium-headless-shell: the same release and the
// same Blink, without the desktop browser's window and compositor layers; Playwright's own default for
// headless runs). The whole suite took 824 s at one worker with the full browser and 366 s at two workers
// with this one on the 2-core machine; the full browser at two workers saturated both cores. A machine
// without it, or CHROMIUM_PATH=/usr/bin/chromium, runs the full browser.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: '.',
  // The Pictionary file first: its tests run one after another (a Find Game of one would join another's
  // lobby) and take about 160 s of the suite's 550, so started last it kept one worker busy for a minute
  // and a half after the other had finished everything else. Started first, the rest fills the other
  // worker, then both.
  projects: [
    { name: 'pictionary', testMatch: 'pictionary.spec.ts' },
    { name: 'portal', testMatch: '*.spec.ts', testIgnore: 'pictionary.spec.ts' },
  ],
  outputDir: '../.tmp/test-results',
  fullyParallel: false,
  // One worker per core, two at least: with the headless shell a test leaves a core idle more than half of its time (it waits on
  // the portal's timers, sockets and the fakes). Every test makes its own members and rooms on the shared
  // server, so two at once is also how members use it.
  workers: Math.max(2, os.availableParallelism()),
  // A flaky test is fixed, never retried into passing.
  retries: 0,
  // One generous limit per test and per expectation, scaled by TEST_TIME_SCALE (server/src/test/time-scale.ts):
  // a test waits for what the screen shows, it never fails because the machine is slow.
  timeout: BROWSER_TEST_TIMEOUT_MS,
  expect: { timeout: BROWSER_EXPECT_MS },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: BASE_URL,
    // Locally a failed test keeps its trace. CI keeps none (a run leaves no artifacts to open, and
    // recording every test's trace cost 15 % of the run): it prints the error, and the page's aria
    // snapshot is written beside it (error-context.md under .tmp/test-results).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // As a member who asked their system for less motion (index.css honours it): no pulsing placeholder or
    // spinner repaints the page while a test waits, and nothing is clicked mid-slide.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: chromium,
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
      timeout: deadline(60_000),
      stdout: 'pipe',
    },
    {
      command: 'node e2e/support/fake-discord-server.ts',
      cwd: '..',
      url: `http://127.0.0.1:${DISCORD_PORT}/_health`,
      ignoreHTTPSErrors: true,
      reuseExistingServer: false,
      timeout: deadline(60_000),
      stdout: 'pipe',
    },
    {
      command: 'node e2e/support/start-app.ts',
      cwd: '..',
      url: `http://127.0.0.1:${APP_PORT}/api/config`,
      reuseExistingServer: false,
      timeout: deadline(120_000),
      stdout: 'pipe',
    },
  ],
});
