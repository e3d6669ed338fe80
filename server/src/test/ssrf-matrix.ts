/**
 * The SSRF matrix: every way of writing an address on the server's own networks, run against the
 * outbound fetcher itself and against each feature that fetches user-given addresses (OSINT).
 */

/** Loopback, private, link-local (cloud metadata), unspecified, IPv6 and IPv4-mapped, and odd notations. */
export const SSRF_ADDRESSES = [
  '127.0.0.1',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.0.1',
  '169.254.169.254',
  '0.0.0.0',
  '[::1]',
  '[fc00::1]',
  '[::ffff:127.0.0.1]',
  '2130706433',
  '0177.0.0.1',
];

/** Names the fake DNS (test/fake-osint.ts) resolves to non-public addresses; rebind.test answers 127.0.0.1, then 127.0.0.2. */
export const SSRF_NAMES = [
  'loopback.test',
  'private.test',
  'metadata.test',
  'ula.test',
  'mapped.test',
  'rebind.test',
];
