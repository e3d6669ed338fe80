import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { allocateDirectBuffer, directWritable } from './direct-io.ts';
import { BlobMissingError } from './integrity.ts';
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

  describe('direct writes (FILES_DIRECT_IO, issue 18)', () => {
    /** A direct buffer holding `bytes` of a pattern, with other bytes after them (the padding's source). */
    const chunkOf = (bytes: number) => {
      const buffer = allocateDirectBuffer(256 * 1024);
      const view = new Uint8Array(buffer);
      for (let i = 0; i < view.length; i++) view[i] = i < bytes ? (i * 7 + 3) & 0xff : 0xee;
      return new Uint8Array(buffer, 0, bytes);
    };
    const expected = (bytes: number) =>
      Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 7 + 3) & 0xff));

    test.runIf(process.platform === 'linux')(
      'a whole chunk in a direct buffer skips the page cache, and the blob holds exactly its bytes (padding cut off)',
      async () => {
        for (const bytes of [256 * 1024, 100_001, 4096, 1]) {
          const before = store.writes.direct;
          const id = await store.put([chunkOf(bytes)]);
          expect(store.writes.direct).toBe(before + 1);
          const stored = fs.readFileSync(path.join(root, id.slice(0, 2), id));
          expect(stored.length).toBe(bytes);
          expect(stored.equals(expected(bytes))).toBe(true);
          expect(await text(await store.get(id, { start: bytes - 1, end: bytes - 1 }))).toBe(
            expected(bytes)
              .subarray(bytes - 1)
              .toString(),
          );
        }
        expect(store.writes.buffered).toBe(0);
        expect(fs.readdirSync(store.tmpDir)).toEqual([]);
      },
    );

    test('bytes outside a direct buffer, several pieces, or the option off: written through the page cache, same bytes', async () => {
      await store.put([Buffer.from('plain buffer')]);
      await store.put([chunkOf(10), chunkOf(20)]);
      await store.put([chunkOf(4096).subarray(1)]); // not on a page boundary
      expect(store.writes).toEqual({ direct: 0, buffered: 3 });

      const off = new LocalBlobStore(path.join(root, 'off'), { directWrites: false });
      expect(off.writesDirect).toBe(false);
      const id = await off.put([chunkOf(5000)]);
      expect(off.writes).toEqual({ direct: 0, buffered: 1 });
      expect(
        Buffer.from(await (await off.get(id)).toArray().then((a) => Buffer.concat(a))).equals(expected(5000)),
      ).toBe(true);
    });

    test.runIf(process.platform === 'linux')(
      'a direct write that fails for another reason than EINVAL rejects, leaves nothing, and direct writes stay on',
      async () => {
        fs.rmSync(store.tmpDir, { recursive: true });
        await expect(store.put([chunkOf(4096)])).rejects.toMatchObject({ code: 'ENOENT' });
        expect(store.writesDirect).toBe(true);
        fs.mkdirSync(store.tmpDir);
        await store.put([chunkOf(4096)]);
        expect(store.writes.direct).toBe(1);
        expect(fs.readdirSync(store.tmpDir)).toEqual([]);
      },
    );

    test.runIf(process.platform === 'linux')(
      'a reader fills whole pages of a direct buffer straight from disk, and any other buffer through the page cache',
      async () => {
        const bytes = 3 * 4096 + 10;
        const id = await store.put([chunkOf(bytes)]);
        const reader = await store.openReader(id);
        try {
          const into = new Uint8Array(allocateDirectBuffer(64 * 1024));
          // A whole-page request past the end stops at it, and nothing outside the view is written.
          const tail = into.subarray(4096, 4096 + 4 * 4096);
          into[4096 + 4 * 4096] = 0x5a;
          expect(await reader.read(tail, 0)).toBe(bytes);
          expect(Buffer.from(tail.subarray(0, bytes)).equals(expected(bytes))).toBe(true);
          expect(into[4096 + 4 * 4096]).toBe(0x5a);
          // Not on a page, or not whole pages: through the page cache, same bytes.
          const odd = Buffer.alloc(5);
          expect(await reader.read(odd, bytes - 5)).toBe(5);
          expect(odd.equals(expected(bytes).subarray(bytes - 5))).toBe(true);
          expect(await reader.read(into.subarray(0, 100), 4096)).toBe(100);
          expect(Buffer.from(into.subarray(0, 100)).equals(expected(bytes).subarray(4096, 4196))).toBe(true);
        } finally {
          await reader.close();
        }
        await expect(store.openReader('0'.repeat(32))).rejects.toBeInstanceOf(BlobMissingError);
      },
    );

    test('a direct buffer pads a view to whole pages only where it has room', () => {
      const buffer = allocateDirectBuffer(64 * 1024);
      expect(directWritable(new Uint8Array(buffer, 0, 10))?.length).toBe(
        process.platform === 'linux' ? 4096 : undefined,
      );
      expect(directWritable(new Uint8Array(buffer, 4096, 64 * 1024 - 4096))).not.toBeNull();
      expect(directWritable(new Uint8Array(buffer, 100, 10))).toBeNull();
      expect(directWritable(new Uint8Array(new SharedArrayBuffer(64 * 1024), 0, 10))).toBeNull();
    });
  });
});
