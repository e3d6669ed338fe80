import { z } from 'zod';
import { defineConfig, type SliceOf } from '../../platform/config/define.ts';
import { httpUrl, optionalString, positiveInt } from '../../platform/config/env.ts';

/** The OSINT feature's variables (docs/osint.md): `config.osint`. */
export const osintConfig = defineConfig({
  title: 'OSINT (docs/osint.md)',
  vars: {
    HIBP_API_KEY: {
      field: 'hibpApiKey',
      schema: optionalString,
      doc: 'Have I Been Pwned API key; without it the e-mail breach check says "Not configured"',
    },
    HIBP_API_URL: {
      field: 'hibpApiUrl',
      schema: httpUrl('HIBP_API_URL').default('https://haveibeenpwned.com/api/v3'),
      doc: "Have I Been Pwned's API base",
    },
    GRAVATAR_API_URL: {
      field: 'gravatarApiUrl',
      schema: httpUrl('GRAVATAR_API_URL').default('https://api.gravatar.com/v3'),
      doc: "Gravatar's API base",
    },
    RDAP_BOOTSTRAP_URL: {
      field: 'rdapBootstrapUrl',
      schema: httpUrl('RDAP_BOOTSTRAP_URL').default('https://data.iana.org/rdap'),
      doc: "IANA's RDAP bootstrap (which registry answers for a domain or address)",
    },
    CT_SEARCH_URL: {
      field: 'ctSearchUrl',
      schema: httpUrl('CT_SEARCH_URL').default('https://crt.sh'),
      doc: 'the Certificate Transparency search (crt.sh)',
    },
    OSINT_SITE_URL: {
      field: 'siteUrl',
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
      field: 'sitesFile',
      schema: optionalString,
      doc: 'a WhatsMyName-format site list to use instead of the shipped one',
      shownDefault: 'the shipped WhatsMyName list',
    },
    OSINT_SITE_TIMEOUT_MS: {
      field: 'siteTimeoutMs',
      schema: positiveInt('OSINT_SITE_TIMEOUT_MS').default(10_000),
      doc: 'time limit per profile site in a username scan',
    },
    OSINT_HISTORY_DAYS: {
      field: 'historyDays',
      schema: positiveInt('OSINT_HISTORY_DAYS').default(30),
      doc: "how long a member's past searches are kept, in days",
    },
    OSINT_SUBDOMAINS_KEPT: {
      field: 'subdomainsKept',
      schema: positiveInt('OSINT_SUBDOMAINS_KEPT').default(200),
      doc: "how many of a domain's Certificate Transparency subdomains a report lists (the count says how many were logged); raise it to see a large domain's whole surface, lower it to keep stored reports small",
    },
    OSINT_SEARCHES_PER_MINUTE: {
      field: 'searchesPerMinute',
      schema: positiveInt('OSINT_SEARCHES_PER_MINUTE').default(10),
      doc: 'OSINT searches per member per minute',
    },
  },
});

/** The OSINT feature's settings (`config.osint`). */
export type OsintConfig = SliceOf<typeof osintConfig>;

/**
 * What the feature's context holds: its settings, plus the two of the platform's outbound fetcher it
 * reports on (the loopback allowance it warns about, the DNS servers its readiness probe asks).
 */
export type OsintFeatureConfig = OsintConfig & { outbound: { testAllow: string[]; dnsServers: string[] } };
