import { createHash, randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sharedS3Server } from '../../test/files-store.ts';
import { crc32cHex, crc32cOf } from './integrity.ts';
import { S3_PART_BYTES, S3BlobStore } from './s3.ts';

let store: S3BlobStore;
beforeAll(async () => {
  const s3 = await sharedS3Server();
  const env = s3.env();
  store = new S3BlobStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
    prefix: env.S3_PREFIX!,
  });
});
afterAll(async () => {
  await store.close();
  await (await sharedS3Server()).close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('S3BlobStore (against s3rver on loopback)', () => {
  test('stores bytes under an id it picks, reads them back whole or by Range, lists and deletes them', async () => {
    const id = await store.put([Buffer.from('hello world')], 11);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await text(await store.get(id))).toBe('hello world');
    expect(await text(await store.get(id, { start: 6, end: 10 }))).toBe('world');
    const listed: string[] = [];
    for await (const b of store.list()) listed.push(b.id);
    expect(listed).toEqual([id]);
    await store.delete(id);
    await store.delete(id); // idempotent
    await expect(store.get(id)).rejects.toThrow(/missing/);
  });

  test('a body larger than one part goes up as a multipart upload, byte for byte', async () => {
    const data = randomBytes(2 * S3_PART_BYTES + 12345);
    async function* pieces() {
      for (let i = 0; i < data.length; i += 1_000_000) yield data.subarray(i, i + 1_000_000);
    }
    const id = await store.put(pieces());
    const back = Buffer.concat(await (await store.get(id)).toArray());
    expect(back.length).toBe(data.length);
    expect(sha256(back)).toBe(sha256(data));
    await store.delete(id);
  });

  test('a whole chunk is checked against its CRC32C (or, stored before migration 012, its SHA-256) as it arrives', async () => {
    const data = Buffer.from('chunk bytes');
    const id = await store.put([data], data.length);
    const crc32c = crc32cHex(crc32cOf(data));
    const good = await store.get(id, undefined, { crc32c, sha256: null, size: data.length });
    expect(await text(good)).toBe('chunk bytes');
    const bad = await store.get(id, undefined, { crc32c: '00000000', sha256: null, size: data.length });
    await expect(text(bad)).rejects.toThrow(/corrupt/);
    const legacy = await store.get(id, undefined, { crc32c: null, sha256: sha256(data), size: data.length });
    expect(await text(legacy)).toBe('chunk bytes');
    const badLegacy = await store.get(id, undefined, {
      crc32c: null,
      sha256: '0'.repeat(64),
      size: data.length,
    });
    await expect(text(badLegacy)).rejects.toThrow(/corrupt/);
    await store.delete(id);
  });

  test('ids are never keys: anything not shaped like its own ids is refused', async () => {
    for (const bad of ['../x', 'a/b', '', 'A'.repeat(32)]) {
      await expect(store.get(bad)).rejects.toThrow(/Not an S3 blob id/);
    }
  });
});
