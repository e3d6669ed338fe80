import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../bundle.ts';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

/**
 * Production mode runs the rolldown bundle. A thrown error must still be readable: with the flags
 * `npm start` uses, the stack it logs points into server/src, not into the bundle. The bundle goes
 * beside the real one (server/.tmp/…) so the source maps' relative paths lead to server/src.
 */
const serverDir = path.resolve(import.meta.dirname, '..');
const dist = path.join(serverDir, '.tmp', `bundle-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-sourcemaps-'));

beforeAll(async () => {
  await bundleServer(dist);
}, 60_000);
afterAll(() => {
  fs.rmSync(dist, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the bundled server so that start-up throws (Redis refused on a closed port) and returns its stderr. */
function failingStart(flags: readonly string[]): string {
  const run = spawnSync(process.execPath, [...flags, path.join(dist, 'main.mjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PORT: '0',
      REDIS_URL: 'redis://127.0.0.1:1',
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status).toBe(1);
  return run.stderr;
}

describe('production stack traces', () => {
  it('with the start flags, a thrown error logs a stack pointing into server/src', () => {
    const stderr = failingStart(SERVER_NODE_FLAGS);
    expect(stderr).toContain('REDIS_URL: could not connect to Redis');
    const frames = stderr.split('\n').filter((l) => l.trim().startsWith('at '));
    expect(frames[0]).toMatch(/server\/src\/platform\/rate-limit\/redis-client\.ts:\d+:\d+/);
  });

  it('(the flag is what does it: without it the same stack points into the bundle)', () => {
    const stderr = failingStart(SERVER_NODE_FLAGS.filter((f) => f !== '--enable-source-maps'));
    const frames = stderr.split('\n').filter((l) => l.trim().startsWith('at '));
    expect(frames[0]).toMatch(/\.mjs:\d+:\d+\)?$/);
    expect(frames[0]).not.toContain('server/src');
  });
});
