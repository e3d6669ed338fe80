import ipaddr from 'ipaddr.js';
import type { Clock } from '../../platform/feature.ts';
import type { Outbound } from '../../platform/outbound/index.ts';

/**
 * RDAP (RFC 9082/9083) through IANA's bootstrap registry (RFC 9224): the bootstrap file for the kind of
 * object names the RDAP service of each TLD or address block; the object is then asked of that service.
 */
type Bootstrap = { services: [string[], string[]][] };
type Kind = 'dns' | 'ipv4' | 'ipv6';

const BOOTSTRAP_TTL_MS = 24 * 60 * 60 * 1000;
const RDAP_ACCEPT = { accept: 'application/rdap+json, application/json' };

export type RdapClient = {
  domain(name: string, signal?: AbortSignal): Promise<{ data: RdapObject | null; url: string | null }>;
  ip(address: string, signal?: AbortSignal): Promise<{ data: RdapObject | null; url: string | null }>;
};

export type RdapEvent = { eventAction: string; eventDate: string };
export type RdapEntity = {
  roles?: string[];
  vcardArray?: [string, [string, unknown, string, unknown][]];
  handle?: string;
};
export type RdapObject = {
  handle?: string;
  name?: string;
  ldhName?: string;
  status?: string[];
  events?: RdapEvent[];
  entities?: RdapEntity[];
  startAddress?: string;
  endAddress?: string;
  country?: string;
  type?: string;
  nameservers?: { ldhName: string }[];
};

export function createRdapClient(outbound: Outbound, bootstrapBase: string, clock: Clock): RdapClient {
  const cache = new Map<Kind, { at: number; data: Bootstrap }>();

  const bootstrap = async (kind: Kind, signal?: AbortSignal): Promise<Bootstrap> => {
    const hit = cache.get(kind);
    if (hit && clock.now() - hit.at < BOOTSTRAP_TTL_MS) return hit.data;
    const res = await outbound.fetch(`${bootstrapBase}/${kind}.json`, { signal });
    if (res.status !== 200) throw new Error(`RDAP bootstrap answered HTTP ${res.status}`);
    const data = JSON.parse(res.body) as Bootstrap;
    cache.set(kind, { at: clock.now(), data });
    return data;
  };

  const query = async (base: string | null, path: string, signal?: AbortSignal) => {
    if (!base) return { data: null, url: null };
    const url = `${base.replace(/\/?$/, '/')}${path}`;
    const res = await outbound.fetch(url, { headers: RDAP_ACCEPT, signal });
    if (res.status === 404) return { data: null, url };
    if (res.status !== 200) throw new Error(`RDAP answered HTTP ${res.status}`);
    return { data: JSON.parse(res.body) as RdapObject, url };
  };

  return {
    async domain(name, signal) {
      const labels = name.toLowerCase().split('.');
      const services = (await bootstrap('dns', signal)).services;
      // The longest matching suffix wins (a bootstrap may list "co.uk" beside "uk").
      let base: string | null = null;
      let best = 0;
      for (const [entries, urls] of services) {
        for (const entry of entries) {
          const parts = entry.toLowerCase().split('.');
          const suffix = labels.slice(-parts.length).join('.');
          if (suffix === entry.toLowerCase() && parts.length > best) {
            best = parts.length;
            base = pickUrl(urls);
          }
        }
      }
      return query(base, `domain/${encodeURIComponent(name)}`, signal);
    },
    async ip(address, signal) {
      const parsed = ipaddr.parse(address);
      const kind: Kind = parsed.kind() === 'ipv4' ? 'ipv4' : 'ipv6';
      const services = (await bootstrap(kind, signal)).services;
      let base: string | null = null;
      let best = -1;
      for (const [entries, urls] of services) {
        for (const cidr of entries) {
          try {
            const [range, bits] = ipaddr.parseCIDR(cidr);
            if (range.kind() === parsed.kind() && parsed.match(range, bits) && bits > best) {
              best = bits;
              base = pickUrl(urls);
            }
          } catch {
            // A malformed entry in the bootstrap file is skipped.
          }
        }
      }
      return query(base, `ip/${address}`, signal);
    },
  };
}

/** https where the bootstrap offers it. */
function pickUrl(urls: string[]): string | null {
  return urls.find((u) => u.startsWith('https://')) ?? urls[0] ?? null;
}

export function eventDate(obj: RdapObject | null, action: string): string | null {
  return obj?.events?.find((e) => e.eventAction === action)?.eventDate ?? null;
}

/** The formatted name (vCard fn) of the first entity with the role. */
export function entityName(obj: RdapObject | null, role: string): string | null {
  const entity = obj?.entities?.find((e) => e.roles?.includes(role));
  const fn = entity?.vcardArray?.[1]?.find((p) => p[0] === 'fn');
  return typeof fn?.[3] === 'string' ? fn[3] : (entity?.handle ?? null);
}
