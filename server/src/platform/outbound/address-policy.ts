import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server may reach on a user's behalf: global unicast only. Loopback, private,
 * link-local (and so cloud metadata at 169.254.169.254), CGNAT (Alibaba's metadata 100.100.100.200),
 * multicast, broadcast, unspecified, documentation/benchmark/reserved blocks, unique-local IPv6
 * (AWS's fd00:ec2::254) and the IPv6 forms that embed an IPv4 address (mapped, 6to4, NAT64, Teredo)
 * are refused. An IPv4-mapped address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  return parsed.range() === 'unicast';
}

/**
 * The canonical text of an address (IPv4-mapped IPv6 becomes its IPv4), or null when it is not an
 * address in standard notation. Only standard forms are accepted here: decimal, octal and hex IPv4
 * spellings are normalised earlier by the URL parser, and anything else is a name to resolve.
 */
export function canonicalAddress(address: string): string | null {
  const parsed = parseAddress(address);
  return parsed ? parsed.toString() : null;
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (net.isIP(bare) === 0) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

/** The address's range name as ipaddr.js calls it (unicast, loopback, private, linkLocal, …). */
export function addressRange(address: string): string | null {
  return parseAddress(address)?.range() ?? null;
}

/** True for an address the allow-list (test harnesses only) names. */
export function isAllowListed(address: string, allow: readonly string[]): boolean {
  if (allow.length === 0) return false;
  const canonical = canonicalAddress(address);
  return canonical !== null && allow.some((a) => canonicalAddress(a) === canonical);
}
