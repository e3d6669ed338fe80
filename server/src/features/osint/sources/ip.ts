import net from 'node:net';
import type { OsintSource } from '@guildhall/common';
import { addressRange, isPublicAddress } from '../../../platform/outbound/index.ts';
import { type OsintContext, SOURCE_TIMEOUT_MS } from '../context.ts';
import { entityName } from '../rdap.ts';
import { nothing, runSource, source, unchecked } from '../source-result.ts';
import type { SourceSet } from './username.ts';

/**
 * An IP address: version and range; for a public address also reverse DNS, the RDAP network and its
 * owner, and country and city from the offline database. A private or reserved address is described
 * and nothing is looked up for it: the server's own network is nobody's business.
 */
export async function ipSources(ctx: OsintContext, address: string): Promise<SourceSet> {
  const version = net.isIP(address) as 4 | 6;
  const range = addressRange(address) ?? 'unknown';
  const isPublic = isPublicAddress(address);
  const base = source('IP Address', isPublic ? 'Public' : 'Private or reserved', {
    address,
    version,
    range,
    isPublic,
  });
  const metadata = { address, version: `IPv${version}`, range, public: isPublic };
  if (!isPublic) return { sources: [base], metadata };
  const opts = { signal: ctx.signal, log: ctx.log };
  const results = await Promise.all([
    runSource('Reverse DNS', SOURCE_TIMEOUT_MS, () => reverseSource(ctx, address), opts),
    runSource('RDAP Network', SOURCE_TIMEOUT_MS * 2, (signal) => rdapSource(ctx, address, signal), opts),
    runSource('Geolocation', SOURCE_TIMEOUT_MS, () => geoSource(ctx, address, version), opts),
  ]);
  return { sources: [base, ...results.flat()], metadata };
}

async function reverseSource(ctx: OsintContext, address: string): Promise<OsintSource> {
  try {
    const names = await ctx.outbound.resolver.reverse(address);
    return names.length > 0
      ? source('Reverse DNS', 'Found', { names })
      : nothing('Reverse DNS', 'None', { names });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return nothing('Reverse DNS', 'None', { names: [] });
    throw err;
  }
}

async function rdapSource(ctx: OsintContext, address: string, signal: AbortSignal): Promise<OsintSource> {
  const { data, url } = await ctx.rdap.ip(address, signal);
  if (!url) return unchecked('RDAP Network', 'Unknown', 'No RDAP service for this address');
  if (!data) return nothing('RDAP Network', 'Not found', {}, url);
  const info = {
    network: data.name ?? null,
    handle: data.handle ?? null,
    range: data.startAddress && data.endAddress ? `${data.startAddress} – ${data.endAddress}` : null,
    country: data.country ?? null,
    type: data.type ?? null,
    owner: entityName(data, 'registrant') ?? entityName(data, 'administrative'),
    abuse: entityName(data, 'abuse'),
  };
  return source('RDAP Network', 'Found', info, 'none', url);
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

async function geoSource(ctx: OsintContext, address: string, version: 4 | 6): Promise<OsintSource> {
  const rec = await ctx.geo(address, version);
  if (!rec) return nothing('Geolocation', 'Not found', {});
  const data = {
    country: rec.country_code ?? null,
    countryName: rec.country_code ? (REGION_NAMES.of(rec.country_code) ?? rec.country_code) : null,
    region: rec.state1 ?? null,
    city: rec.city ?? null,
    latitude: rec.latitude ?? null,
    longitude: rec.longitude ?? null,
    timezone: rec.timezone ?? null,
    database: 'IP Geolocation by DB-IP (CC BY 4.0)',
  };
  return source('Geolocation', 'Found', data, 'none', 'https://db-ip.com');
}
