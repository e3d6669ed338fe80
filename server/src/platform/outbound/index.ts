import type { OutboundConfig } from './config.ts';
import { createOutbound, type Outbound } from './fetcher.ts';
import { createResolver } from './resolver.ts';

export { addressRange, canonicalAddress, isPublicAddress } from './address-policy.ts';
export { type BodyScan, readBody } from './body-reader.ts';
export { findRefusal, OutboundRefusedError, OutboundTimeoutError } from './errors.ts';
export {
  BROWSER_USER_AGENT,
  type CertificateInfo,
  createOutbound,
  type FetchOptions,
  type FetchResult,
  HONEST_USER_AGENT,
  MAX_BODY_BYTES,
  MAX_REDIRECTS,
  mergeHeaders,
  type Outbound,
  outboundScope,
  type SiteInspection,
} from './fetcher.ts';
export { createLimiter, type Limiter } from './limiter.ts';
export { createResolver, type DnsResolver, resolveAddresses } from './resolver.ts';

/** The outbound fetcher as configured: DNS servers, concurrency, time limit, and (tests only) an allow-list. */
export function outboundFromConfig(config: OutboundConfig): Outbound {
  return createOutbound({
    resolver: createResolver(config.dnsServers),
    concurrency: config.concurrency,
    timeoutMs: config.timeoutMs,
    allow: config.testAllow,
    perOwner: config.perMember,
    userAgent: config.userAgent,
  });
}
