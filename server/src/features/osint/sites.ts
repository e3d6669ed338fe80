import fs from 'node:fs';
import { z } from 'zod';
import shipped from './data/wmn-data.json' with { type: 'json' };
import { TOP_SITE_NAMES } from './top-sites.ts';

/**
 * A site of the WhatsMyName list: where an account's page is (`uri_check`, `{account}` replaced) and what
 * a hit and a miss look like (status code and a string in the body). data/README.md: source and licence.
 */
const Site = z.object({
  name: z.string().min(1),
  uri_check: z.string(),
  uri_pretty: z.string().optional(),
  post_body: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  strip_bad_char: z.string().optional(),
  e_code: z.number().int(),
  e_string: z.string(),
  m_code: z.number().int(),
  m_string: z.string(),
  cat: z.string(),
  valid: z.boolean().optional(),
  /** Accounts known to exist (the self-check expects them found). */
  known: z.array(z.string()).optional(),
  /** Our extension: a hit also needs the account on the page (sites prone to false positives). */
  account_must_appear: z.boolean().optional(),
});
export type Site = z.infer<typeof Site>;

/** Categories left out of scans: a members' portal has no business probing adult sites. */
const EXCLUDED_CATEGORIES = new Set(['xx NSFW xx']);

/** The usable sites of a WhatsMyName-format document: well formed, not marked invalid, not excluded. */
export function parseSiteList(doc: unknown): Site[] {
  const sites = z.object({ sites: z.array(z.unknown()) }).parse(doc).sites;
  const out: Site[] = [];
  for (const raw of sites) {
    const parsed = Site.safeParse(raw);
    if (!parsed.success) continue;
    const site = parsed.data;
    if (site.valid === false || EXCLUDED_CATEGORIES.has(site.cat)) continue;
    if (!site.uri_check.includes('{account}') && !site.post_body?.includes('{account}')) continue;
    out.push(site);
  }
  return out;
}

/** The shipped list, or the one OSINT_SITES_FILE names (same format). */
export function loadSites(file?: string): Site[] {
  return parseSiteList(file ? JSON.parse(fs.readFileSync(file, 'utf8')) : shipped);
}

export { TOP_SITE_NAMES };

export function topSites(sites: Site[]): Site[] {
  const wanted = new Set<string>(TOP_SITE_NAMES);
  return sites.filter((s) => wanted.has(s.name));
}

/** The account's address on a site: the public profile page when the list gives one. */
export function siteUrls(site: Site, account: string): { check: string; profile: string } {
  let value = account;
  for (const ch of site.strip_bad_char ?? '') value = value.replaceAll(ch, '');
  const encoded = encodeURIComponent(value);
  const check = site.uri_check.replaceAll('{account}', encoded);
  return { check, profile: site.uri_pretty ? site.uri_pretty.replaceAll('{account}', encoded) : check };
}
