import { z } from 'zod';
import { defineConfig } from '../../platform/config/define.ts';
import { httpUrl, optionalString, positiveInt } from '../../platform/config/env.ts';

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

/** The OSINT feature's variables (docs/osint.md): `config.osint`. */
export const osintConfig = defineConfig({
  title: 'OSINT (docs/osint.md)',
  vars: {
    HIBP_API_KEY: {
      schema: optionalString,
      doc: 'Have I Been Pwned API key; without it the e-mail breach check says "Not configured"',
    },
    HIBP_API_URL: {
      schema: httpUrl('HIBP_API_URL').default('https://haveibeenpwned.com/api/v3'),
      doc: "Have I Been Pwned's API base",
    },
    GRAVATAR_API_URL: {
      schema: httpUrl('GRAVATAR_API_URL').default('https://api.gravatar.com/v3'),
      doc: "Gravatar's API base",
    },
    RDAP_BOOTSTRAP_URL: {
      schema: httpUrl('RDAP_BOOTSTRAP_URL').default('https://data.iana.org/rdap'),
      doc: "IANA's RDAP bootstrap (which registry answers for a domain or address)",
    },
    CT_SEARCH_URL: {
      schema: httpUrl('CT_SEARCH_URL').default('https://crt.sh'),
      doc: 'the Certificate Transparency search (crt.sh)',
    },
    OSINT_SITE_URL: {
      schema: z
        .string()
        .trim()
        .refine((v) => /^https?:\/\/\{domain\}(:\d+)?\/?$/.test(v), {
          message: 'OSINT_SITE_URL must look like https://{domain}/ (an optional port allowed)',
        })
        .default('https://{domain}/'),
      doc: "where a domain's web site is inspected (`{domain}` is replaced)",
    },
    OSINT_SITES_FILE: {
      schema: optionalString,
      doc: 'a WhatsMyName-format site list to use instead of the shipped one',
      shownDefault: 'the shipped WhatsMyName list',
    },
    OSINT_SITE_TIMEOUT_MS: {
      schema: positiveInt('OSINT_SITE_TIMEOUT_MS').default(10_000),
      doc: 'time limit per profile site in a username scan',
    },
    OSINT_HISTORY_DAYS: {
      schema: positiveInt('OSINT_HISTORY_DAYS').default(30),
      doc: "how long a member's past searches are kept, in days",
    },
    OSINT_SEARCHES_PER_MINUTE: {
      schema: positiveInt('OSINT_SEARCHES_PER_MINUTE').default(10),
      doc: 'OSINT searches per member per minute',
    },
  },
  build: (e): OsintConfig => {
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
  },
});

/**
 * What the feature's context holds: its settings, plus the two of the platform's outbound fetcher it
 * reports on (the loopback allowance it warns about, the DNS servers its readiness probe asks).
 */
export type OsintFeatureConfig = OsintConfig & { outbound: { testAllow: string[]; dnsServers: string[] } };
