import { defineConfig } from '../config/define.ts';
import { commaList, optionalString, positiveInt } from '../config/env.ts';

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

/** The outbound fetcher's variables (docs/osint.md): a platform service, so its settings are the platform's. */
export const outboundConfig = defineConfig({
  title: 'Outbound requests (docs/osint.md)',
  vars: {
    OUTBOUND_CONCURRENCY: {
      schema: positiveInt('OUTBOUND_CONCURRENCY').default(96),
      doc: 'most outbound requests (OSINT, lyrics) in flight at once, over all searches',
    },
    OUTBOUND_TIMEOUT_MS: {
      schema: positiveInt('OUTBOUND_TIMEOUT_MS').default(8000),
      doc: 'time limit of one outbound request, redirects included',
    },
    OUTBOUND_TEST_ALLOW: {
      schema: commaList().refine(
        (list) => list.every((a) => a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a)),
        {
          message:
            'OUTBOUND_TEST_ALLOW may only list loopback addresses (127.x.x.x, ::1); it is for test harnesses',
        },
      ),
      doc: '**test harnesses only**: loopback addresses the outbound fetcher (OSINT, music lyrics) may reach (the e2e run sets `127.0.0.1`); never set it in production',
    },
    DNS_SERVERS: {
      schema: commaList(),
      doc: 'DNS servers OSINT lookups ask (`ip` or `ip:port`, comma-separated)',
      shownDefault: "the system's",
    },
    OUTBOUND_PER_MEMBER: {
      schema: positiveInt('OUTBOUND_PER_MEMBER').default(64),
      doc: "one member's share of the outbound requests in flight (at most `OUTBOUND_CONCURRENCY`), so the rest stay free for others",
    },
    OUTBOUND_USER_AGENT: {
      schema: optionalString,
      doc: 'User-Agent of outbound requests; an honest one is `Mozilla/5.0 (compatible; GuildhallOSINT/1.0; authorized research)`',
      shownDefault: "a current browser's",
    },
  },
  build: (e): OutboundConfig => {
    return {
      concurrency: e.OUTBOUND_CONCURRENCY,
      timeoutMs: e.OUTBOUND_TIMEOUT_MS,
      testAllow: e.OUTBOUND_TEST_ALLOW,
      dnsServers: e.DNS_SERVERS,
      perMember: Math.min(e.OUTBOUND_PER_MEMBER, e.OUTBOUND_CONCURRENCY),
      userAgent: e.OUTBOUND_USER_AGENT,
    };
  },
});
