import { defineConfig, type SliceOf } from '../config/define.ts';
import { commaList, optionalString, positiveInt } from '../config/env.ts';

/** The outbound fetcher's variables (docs/osint.md): a platform service, so its settings are the platform's. */
export const outboundConfig = defineConfig({
  title: 'Outbound requests (docs/osint.md)',
  vars: {
    OUTBOUND_CONCURRENCY: {
      field: 'concurrency',
      schema: positiveInt('OUTBOUND_CONCURRENCY').default(96),
      doc: 'most outbound requests (OSINT, lyrics) in flight at once, over all searches',
    },
    OUTBOUND_TIMEOUT_MS: {
      field: 'timeoutMs',
      schema: positiveInt('OUTBOUND_TIMEOUT_MS').default(8000),
      doc: 'time limit of one outbound request, redirects included',
    },
    OUTBOUND_TEST_ALLOW: {
      field: 'testAllow',
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
      field: 'dnsServers',
      schema: commaList(),
      doc: 'DNS servers OSINT lookups ask (`ip` or `ip:port`, comma-separated)',
      shownDefault: "the system's",
    },
    OUTBOUND_PER_MEMBER: {
      schema: positiveInt('OUTBOUND_PER_MEMBER').default(64),
      doc: "one member's share of the outbound requests in flight (at most `OUTBOUND_CONCURRENCY`), so the rest stay free for others",
    },
    OUTBOUND_USER_AGENT: {
      field: 'userAgent',
      schema: optionalString,
      doc: 'User-Agent of outbound requests; an honest one is `Mozilla/5.0 (compatible; GuildhallOSINT/1.0; authorized research)`',
      shownDefault: "a current browser's",
    },
  },
  // One member's share can never be more than all the slots.
  build: (e) => ({ perMember: Math.min(e.OUTBOUND_PER_MEMBER, e.OUTBOUND_CONCURRENCY) }),
});

/**
 * The outbound fetcher's settings (`config.outbound`); `testAllow` is set only by test harnesses, empty
 * `dnsServers` means the system's, no `userAgent` a browser's.
 */
export type OutboundConfig = SliceOf<typeof outboundConfig>;
