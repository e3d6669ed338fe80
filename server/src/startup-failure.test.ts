import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { describeStartupFailure } from './startup-failure.ts';
import { deadline } from './test/time-scale.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-startfail-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Starts the server with `env` and returns what it printed on stderr (it must exit by itself). */
function start(env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['server/src/main.ts'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: deadline(30_000),
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...env },
  });
  return { status: r.status, stderr: r.stderr };
}

describe('start-up failures a host can fix print one line, without a stack trace (issue 32)', () => {
  it('classifies configuration and unreachable dependencies as the host’s, other errors as bugs', () => {
    expect(describeStartupFailure(new ConfigError('Invalid configuration:\n  PORT: …'))).toContain('PORT');
    expect(describeStartupFailure(new Error('REDIS_URL: could not connect to Redis (refused)'))).toBe(
      'REDIS_URL: could not connect to Redis (refused)',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeStartupFailure(new Error('wrapped', { cause: refused }))).toBe('wrapped');
    expect(describeStartupFailure(new TypeError('x is not a function'))).toBeNull();
  });

  it.each([
    ['a malformed REDIS_URL', { REDIS_URL: 'redis://x:y:z@@/' }, /REDIS_URL must be a URL/],
    [
      'a Redis that is not there',
      { REDIS_URL: 'redis://127.0.0.1:1' },
      /REDIS_URL: could not connect to Redis/,
    ],
    [
      'a PostgreSQL that is not there',
      { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      /DATABASE_URL: could not open the database/,
    ],
  ])('%s', (_name, env, message) => {
    const r = start(env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
