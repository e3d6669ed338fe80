import { commaList, type EnvOf, optionalString, positiveInt } from '../config/env.ts';

/** The outbound fetcher's variables (docs/osint.md): a platform service, so its settings are the platform's. */
export const outboundEnv = {
  OUTBOUND_CONCURRENCY: positiveInt('OUTBOUND_CONCURRENCY').default(96),
  OUTBOUND_TIMEOUT_MS: positiveInt('OUTBOUND_TIMEOUT_MS').default(8000),
  OUTBOUND_TEST_ALLOW: commaList().refine(
    (list) => list.every((a) => a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a)),
    {
      message:
        'OUTBOUND_TEST_ALLOW may only list loopback addresses (127.x.x.x, ::1); it is for test harnesses',
    },
  ),
  DNS_SERVERS: commaList(),
  OUTBOUND_PER_MEMBER: positiveInt('OUTBOUND_PER_MEMBER').default(64),
  OUTBOUND_USER_AGENT: optionalString,
};

export type OutboundConfig = {
  /** Most outbound requests in flight at once, over all searches. */
  concurrency: number;
  timeoutMs: number;
  /** Loopback addresses the fetcher may reach: set only by test harnesses; empty in production. */
  testAllow: string[];
  /** DNS servers (`ip` or `ip:port`); empty means the system's. */
  dnsServers: string[];
  /** Most requests in flight for one member (the rest of the slots stay free for others). */
  perMember: number;
  /** The User-Agent sent (default a browser's; the honest one is HONEST_USER_AGENT). */
  userAgent?: string;
};

export function outboundConfig(e: EnvOf<typeof outboundEnv>): OutboundConfig {
  return {
    concurrency: e.OUTBOUND_CONCURRENCY,
    timeoutMs: e.OUTBOUND_TIMEOUT_MS,
    testAllow: e.OUTBOUND_TEST_ALLOW,
    dnsServers: e.DNS_SERVERS,
    perMember: Math.min(e.OUTBOUND_PER_MEMBER, e.OUTBOUND_CONCURRENCY),
    userAgent: e.OUTBOUND_USER_AGENT,
  };
}
