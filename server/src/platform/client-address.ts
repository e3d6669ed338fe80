import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../config.ts';

/**
 * The key rate limits count a client by: an IPv4 address as it is, an IPv6 address by its /64, since one
 * IPv6 subscriber is usually handed a whole /64 and could otherwise rotate through it.
 */
export function clientAddressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/**
 * The client's address for a raw request (the realtime handshake), trusting X-Forwarded-For exactly as
 * the HTTP routes do (TRUST_PROXY, the same rules as Fastify's trustProxy).
 */
export function requestAddressResolver(trust: TrustProxy): (req: IncomingMessage) => string {
  const trustFn: (address: string, hop: number) => boolean =
    typeof trust === 'number'
      ? (_address, hop) => hop < trust
      : typeof trust === 'boolean'
        ? () => trust
        : proxyaddr.compile(trust);
  return (req) => proxyaddr(req, trustFn);
}
