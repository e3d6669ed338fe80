import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OsintHistoryResponse, OsintSearchResponse, type PlatformData } from '@guildhall/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE, type FakeOsint, startFakeOsint } from '../../test/fake-osint.ts';
import { deadline } from '../../test/time-scale.ts';

/**
 * Issue 28, "a past search reopened after a restart": the real server process (`node server/src/main.ts`,
 * as production runs it) on a SQLite data dir runs a username search against the loopback fakes, is
 * stopped — with SIGTERM (a deploy), then with SIGKILL (a crash) — and started again on the same data
 * dir, and the member reopens each past search with the very results they were shown.
 */

const MAIN = path.resolve(import.meta.dirname, '../../main.ts');
const ACCESS_CODE = 'osint-restart-code';
let dataDir: string;
let fake: FakeOsint;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-osint-restart-'));
  fake = await startFakeOsint({ sites: 12 });
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Server = { base: string; child: ChildProcess; exited: Promise<number | null> };

/** Starts the server process and resolves once it listens (its log line names the address). */
function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      ...fake.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ACCESS_CODE,
      LOG_LEVEL: 'info',
      OSINT_SITE_TIMEOUT_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) resolve({ base: m[1], child, exited });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/access-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: ACCESS_CODE }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function api(base: string, token: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, url).toBe(200);
  return res.json() as Promise<unknown>;
}

/** GET /api/osint/searches/:id answers the search's envelope, as the search itself did. */
async function reopen(base: string, token: string, id: string | undefined) {
  return OsintSearchResponse.parse(await api(base, token, `/api/osint/searches/${id}`)).results;
}

async function searchUsername(base: string, token: string, query: string) {
  const res = OsintSearchResponse.parse(
    await api(base, token, '/api/osint/search', { type: 'username', query }),
  );
  return res.results;
}

describe('a past search after a restart of the server process', () => {
  // Three process starts: ≈ 30 s on an idle machine, 80 s seen with a load average of 22.
  it('reopens with the same results after SIGTERM and after SIGKILL', {
    timeout: deadline(240_000),
  }, async () => {
    const first = await startServer();
    let token = await signIn(first.base);
    const before = await searchUsername(first.base, token, FAKE.knownUser);
    expect(before.id).toEqual(expect.any(String));
    const found = (before.sources[0]!.data as PlatformData).summary.foundOn;
    expect(found).toBeGreaterThan(0);

    // A deploy: SIGTERM, a clean exit.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startServer();
    token = await signIn(second.base);
    const history = OsintHistoryResponse.parse(await api(second.base, token, '/api/osint/searches'));
    expect(history.searches.map((s) => s.id)).toContain(before.id);
    expect(await reopen(second.base, token, before.id)).toEqual(before);

    // A crash right after a search answered: SIGKILL, no shutdown at all.
    const other = await searchUsername(second.base, token, 'bob');
    second.child.kill('SIGKILL');
    expect(await second.exited).toBe(null);

    const third = await startServer();
    token = await signIn(third.base);
    const after = OsintHistoryResponse.parse(await api(third.base, token, '/api/osint/searches'));
    expect(after.searches.map((s) => s.id)).toEqual([other.id, before.id]);
    expect(await reopen(third.base, token, before.id)).toEqual(before);
    expect(await reopen(third.base, token, other.id)).toEqual(other);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });
});
