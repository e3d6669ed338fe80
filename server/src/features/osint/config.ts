import { z } from 'zod';
import { type EnvOf, httpUrl, optionalString, positiveInt } from '../../platform/config/env.ts';

/** The OSINT feature's variables (docs/osint.md); config.ts adds them to the one environment schema. */
export const osintEnv = {
  HIBP_API_KEY: optionalString,
  HIBP_API_URL: httpUrl('HIBP_API_URL').default('https://haveibeenpwned.com/api/v3'),
  GRAVATAR_API_URL: httpUrl('GRAVATAR_API_URL').default('https://api.gravatar.com/v3'),
  RDAP_BOOTSTRAP_URL: httpUrl('RDAP_BOOTSTRAP_URL').default('https://data.iana.org/rdap'),
  CT_SEARCH_URL: httpUrl('CT_SEARCH_URL').default('https://crt.sh'),
  OSINT_SITE_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/\{domain\}(:\d+)?\/?$/.test(v), {
      message: 'OSINT_SITE_URL must look like https://{domain}/ (an optional port allowed)',
    })
    .default('https://{domain}/'),
  OSINT_SITES_FILE: optionalString,
  OSINT_SITE_TIMEOUT_MS: positiveInt('OSINT_SITE_TIMEOUT_MS').default(10_000),
  OSINT_HISTORY_DAYS: positiveInt('OSINT_HISTORY_DAYS').default(30),
  OSINT_SEARCHES_PER_MINUTE: positiveInt('OSINT_SEARCHES_PER_MINUTE').default(10),
};

export type OsintConfig = {
  hibpApiKey?: string;
  hibpApiUrl: string;
  gravatarApiUrl: string;
  rdapBootstrapUrl: string;
  ctSearchUrl: string;
  /** Where a domain's web site is inspected; `{domain}` is replaced. */
  siteUrl: string;
  /** A WhatsMyName-format site list replacing the shipped one. */
  sitesFile?: string;
  siteTimeoutMs: number;
  searchesPerMinute: number;
  /** Days a member's past searches are kept (OSINT_HISTORY_DAYS). */
  historyDays: number;
};

export function osintConfig(e: EnvOf<typeof osintEnv>): OsintConfig {
  return {
    hibpApiKey: e.HIBP_API_KEY,
    hibpApiUrl: e.HIBP_API_URL,
    gravatarApiUrl: e.GRAVATAR_API_URL,
    rdapBootstrapUrl: e.RDAP_BOOTSTRAP_URL,
    ctSearchUrl: e.CT_SEARCH_URL,
    siteUrl: e.OSINT_SITE_URL,
    sitesFile: e.OSINT_SITES_FILE,
    siteTimeoutMs: e.OSINT_SITE_TIMEOUT_MS,
    searchesPerMinute: e.OSINT_SEARCHES_PER_MINUTE,
    historyDays: e.OSINT_HISTORY_DAYS,
  };
}

/**
 * What the feature's context holds: its settings, plus the two of the platform's outbound fetcher it
 * reports on (the loopback allowance it warns about, the DNS servers its readiness probe asks).
 */
export type OsintFeatureConfig = OsintConfig & { outbound: { testAllow: string[]; dnsServers: string[] } };
