import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../config.ts';
import {
  filesStoreEnv,
  sharedFakeDiscordFiles,
  sharedS3Server,
  storedBlobIds,
  type TestFilesStore,
} from '../../test/files-store.ts';
import { createBlobStore, type RoutingBlobStore } from './index.ts';
import { BlobMissingError, crc32cHex, crc32cOf } from './integrity.ts';

/**
 * The behaviours every blob store gives the files feature, run on each store the product offers, built
 * by the product's own factory from configuration: local disk, S3 (s3rver on loopback) and a Discord
 * channel (the fake Discord on loopback). The HTTP suites run on the local store only; one smoke test
 * per store (features/files/stores-smoke.test.ts) drives the routes end to end on each.
 */
const STORES: TestFilesStore[] = ['local', 's3', 'discord'];
const dirs: string[] = [];
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

afterAll(async () => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  await (await sharedS3Server()).close();
  await (await sharedFakeDiscordFiles()).close();
});

async function storeOf(kind: TestFilesStore) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-contract-'));
  dirs.push(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(await filesStoreEnv(kind)) });
  return Object.assign(createBlobStore(config), { config });
}

/** A store's puts for one file (Discord keeps a file's chunks in one thread; others ignore it). */
function scoped(store: RoutingBlobStore, fileId: string, group?: string | null) {
  return store.forFile(fileId, async () => {}, group);
}

describe.each(STORES)('blob store contract: %s', (kind) => {
  test('puts bytes under an id it picks; reads them back whole and by inclusive range', async () => {
    const store = await storeOf(kind);
    const data = randomBytes(300_000);
    const id = await scoped(store, 'f1').put(
      [data.subarray(0, 100_000), data.subarray(100_000)],
      data.length,
    );
    expect(typeof id).toBe('string');
    const whole = Buffer.concat(await (await store.get(id)).toArray());
    expect(sha256(whole)).toBe(sha256(data));
    const part = Buffer.concat(await (await store.get(id, { start: 99_990, end: 100_009 })).toArray());
    expect(part).toEqual(data.subarray(99_990, 100_010));
    await store.close();
  });

  test('accepts an async body; a body that fails rejects the put and leaves nothing behind', async () => {
    const store = await storeOf(kind);
    async function* good() {
      yield Buffer.from('async ');
      yield Buffer.from('body');
    }
    const id = await scoped(store, 'f2').put(good());
    expect(await text(await store.get(id))).toBe('async body');
    async function* failing() {
      yield Buffer.from('half');
      throw new Error('client went away');
    }
    await expect(scoped(store, 'f3').put(failing())).rejects.toThrow();
    expect(await storedBlobIds(store.config)).toEqual([id]);
    await store.close();
  });

  test('a whole-chunk read is checked against its CRC32C (or legacy SHA-256): a mismatch fails the stream', async () => {
    const store = await storeOf(kind);
    const data = Buffer.from('chunk bytes for the check');
    const id = await scoped(store, 'f4').put([data], data.length);
    const crc32c = crc32cHex(crc32cOf(data));
    expect(await text(await store.get(id, undefined, { crc32c, sha256: null, size: data.length }))).toBe(
      data.toString(),
    );
    const bad = await store.get(id, undefined, { crc32c: '00000000', sha256: null, size: data.length });
    await expect(text(bad)).rejects.toThrow(/corrupt/);
    const legacy = { crc32c: null, sha256: sha256(data), size: data.length };
    expect(await text(await store.get(id, undefined, legacy))).toBe(data.toString());
    await store.close();
  });

  test('delete is idempotent and a deleted (or never stored) blob cannot be read', async () => {
    const store = await storeOf(kind);
    const id = await scoped(store, 'f5').put([Buffer.from('short-lived')], 11);
    await store.delete(id);
    await store.delete(id);
    // Named as missing (the download answers 410 with STORED_DATA_MISSING), not a bare store error.
    await expect(store.get(id).then((s) => text(s))).rejects.toBeInstanceOf(BlobMissingError);
    await store.close();
  });

  test('a file continued later (a resumable upload) goes on in the same group', async () => {
    const store = await storeOf(kind);
    const first = scoped(store, 'f6');
    const a = await first.put([Buffer.from('part one')], 8);
    const group = first.group();
    const b = await scoped(store, 'f6', group).put([Buffer.from('part two')], 8);
    expect(await text(await store.get(a))).toBe('part one');
    expect(await text(await store.get(b))).toBe('part two');
    if (kind === 'discord') expect(a.split('/')[0]).toBe(b.split('/')[0]); // one thread per file
    await store.close();
  });

  test('answers its readiness check while the service is up', async () => {
    const store = await storeOf(kind);
    await expect(store.check()).resolves.toBeUndefined();
    await store.close();
  });
});
