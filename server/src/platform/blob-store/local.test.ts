import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { LocalBlobStore } from './local.ts';

let root: string;
let store: LocalBlobStore;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-blobs-'));
  store = new LocalBlobStore(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

describe('LocalBlobStore', () => {
  test('stores bytes under an id it picks and reads them back whole or by range', async () => {
    const id = await store.put([Buffer.from('hello '), Buffer.from('world')]);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await text(await store.get(id))).toBe('hello world');
    expect(await text(await store.get(id, { start: 6, end: 10 }))).toBe('world');
    expect(filesUnder(root)).toEqual([id]);
  });

  test('accepts an async body and leaves nothing behind when the body fails', async () => {
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('client went away');
    }
    await expect(store.put(failing())).rejects.toThrow('client went away');
    expect(filesUnder(root)).toEqual([]);
  });

  test('writes one blob at a time, even when puts come at once, and a failed put does not stop the next', async () => {
    let active = 0;
    let most = 0;
    async function* body(name: string, fail = false) {
      active += 1;
      most = Math.max(most, active);
      try {
        for (let i = 0; i < 3; i++) {
          await new Promise((r) => setImmediate(r)); // give any other put the chance to run meanwhile
          yield Buffer.from(`${name}${i}`);
        }
        if (fail) throw new Error('client went away');
      } finally {
        active -= 1;
      }
    }
    const puts = ['a', 'b', 'c', 'd'].map((n) => store.put(body(n, n === 'b')));
    const outcomes = await Promise.allSettled(puts);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(most).toBe(1);
    const ids = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(await Promise.all(ids.map(async (id) => text(await store.get(id))))).toEqual([
      'a0a1a2',
      'c0c1c2',
      'd0d1d2',
    ]);
  });

  test('delete is idempotent and a deleted blob cannot be read', async () => {
    const id = await store.put([Buffer.from('x')]);
    await store.delete(id);
    await store.delete(id);
    await expect(store.get(id)).rejects.toThrow();
  });

  test('ids are never paths: anything not shaped like its own ids is refused', async () => {
    for (const bad of ['../../etc/passwd', '/etc/passwd', 'ab/../../x', '', 'A'.repeat(32)]) {
      await expect(store.get(bad)).rejects.toThrow(/Not a local blob id/);
      await expect(store.delete(bad)).rejects.toThrow(/Not a local blob id/);
    }
  });

  test('lists its blobs and clears half-written temporary files left by a crash', async () => {
    const a = await store.put([Buffer.from('a')]);
    const b = await store.put([Buffer.from('b')]);
    const listed: string[] = [];
    for await (const blob of store.list()) listed.push(blob.id);
    expect(listed.sort()).toEqual([a, b].sort());

    fs.writeFileSync(path.join(store.tmpDir, 'deadbeef'), 'half');
    expect(await store.removeIncomplete(new Date(Date.now() - 60_000))).toBe(0);
    expect(await store.removeIncomplete(new Date(Date.now() + 1000))).toBe(1);
    expect(fs.readdirSync(store.tmpDir)).toEqual([]);
  });
});
