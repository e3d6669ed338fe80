import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressKey, requestAddressResolver } from './client-address.ts';

describe('clientAddressKey (issue 15: IPv6 clients are counted by /64)', () => {
  it('two addresses in one /64 share a key; another /64 does not', () => {
    expect(clientAddressKey('2001:db8:1:2::1')).toBe(clientAddressKey('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    expect(clientAddressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(clientAddressKey('2001:db8:1:2::1'));
  });

  it('IPv4 (plain or IPv4-mapped) stays per address', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.8')).not.toBe(clientAddressKey('203.0.113.7'));
  });
});

describe('requestAddressResolver', () => {
  const req = (remote: string, xff?: string) =>
    ({
      socket: { remoteAddress: remote },
      connection: { remoteAddress: remote },
      headers: xff ? { 'x-forwarded-for': xff } : {},
    }) as unknown as IncomingMessage;

  it('believes one hop with TRUST_PROXY=1, none with false', () => {
    expect(requestAddressResolver(1)(req('127.0.0.1', 'forged, 203.0.113.7'))).toBe('203.0.113.7');
    expect(requestAddressResolver(false)(req('127.0.0.1', 'forged, 203.0.113.7'))).toBe('127.0.0.1');
    expect(requestAddressResolver(['127.0.0.1'])(req('127.0.0.1', '203.0.113.7'))).toBe('203.0.113.7');
  });
});
