import { OSINT_UNCHECKED_REASONS as R } from '@guildhall/common';
import type { Site } from './sites.ts';

export type SiteOutcome = 'found' | 'not_found' | 'unknown';
export type Verdict = { outcome: SiteOutcome; reason?: string };

/** What a site answered, as much as the verdict needs. */
export type SiteAnswer = {
  status: number;
  headers: Record<string, string>;
  /** The start of the body (block pages announce themselves early). */
  head: string;
  /** Whether the site's e_string and m_string occur anywhere in the body. */
  hasHit: boolean;
  hasMiss: boolean;
  /** Whether the account occurs in the body (case-insensitive). */
  hasAccount: boolean;
};

/** Bot walls that stand in front of a site whatever it would have said (checked before anything else). */
const BOT_WALLS: { reason: string; test: (a: SiteAnswer) => boolean }[] = [
  {
    reason: R.cloudflare,
    test: (a) =>
      a.headers['cf-mitigated'] === 'challenge' ||
      /<title>\s*(Just a moment\.\.\.|Attention Required! \| Cloudflare)/i.test(a.head) ||
      /cf[-_]chl[-_]|challenges\.cloudflare\.com|cdn-cgi\/challenge-platform/i.test(a.head),
  },
  {
    reason: R.ddosGuard,
    test: (a) =>
      (/ddos-guard/i.test(a.headers.server ?? '') && a.status >= 400) || /<title>\s*DDoS-Guard/i.test(a.head),
  },
  {
    reason: R.incapsula,
    test: (a) => /Incapsula incident ID|_Incapsula_Resource|Request unsuccessful\. Incapsula/i.test(a.head),
  },
  {
    reason: R.blocked,
    // Akamai's and similar edge denials.
    test: (a) =>
      /<title>\s*Access Denied\s*<\/title>/i.test(a.head) && /Reference\s*#|edgesuite|akamai/i.test(a.head),
  },
];

/** Captcha walls (DataDome, PerimeterX, reCAPTCHA, hCaptcha, Turnstile): checked after a hit, before a miss. */
const CAPTCHA =
  /captcha-delivery\.com|geo\.captcha|px-captcha|_pxCaptcha|g-recaptcha|recaptcha\/api\.js|h-captcha|hcaptcha\.com\/1\/api|cf-turnstile|<title>[^<]*captcha/i;

/** A page whose script computes the challenge cookie (nginx testcookie's encrypted mode): needs JavaScript. */
const SCRIPT_CHALLENGE = /slowAES\.decrypt\(/;

/** A redirect to a sign-in or challenge page says nothing about the account. */
const LOGIN_PATH =
  /\/(log-?in|sign-?in|signin|auth|sso|oauth|session|account\/login|accounts\/login|checkpoint|captcha|challenge)\b|[?&](next|return_?to|redirect(_uri)?|continue)=/i;

/**
 * The verdict on one site's answer (docs/osint.md, "The username check"). In order:
 *
 * 1. a 5xx → unknown (the site failed), unless it is the miss code and the page holds a non-empty miss
 *    string; 429 → unknown (rate limited);
 * 2. a bot wall (Cloudflare, DDoS-Guard, Incapsula, edge denials) → unknown, named;
 * 3. a redirect: to a login or challenge page → unknown; a hit only where the rule describes it
 *    precisely (the hit code, and the hit string in the body or the Location, or with no hit string a
 *    Location naming the account); a miss where the miss rule matches;
 * 4. the hit rule (status e_code and e_string in the body), with the site's optional "the account must
 *    appear on the page" guard → found;
 * 5. a captcha page or a script challenge → unknown;
 * 6. the miss rule (status m_code and m_string in the body; an empty m_string matches any body) → not found;
 * 7. anything else → unknown, with the status.
 */
export function judge(site: Site, a: SiteAnswer, account: string): Verdict {
  // A 5xx is the site failing, unless the miss rule names that very status and a string it found on
  // the page (a few sites answer a missing account with a 500 page of their own).
  if (a.status >= 500) {
    if (a.status === site.m_code && site.m_string !== '' && a.hasMiss) return { outcome: 'not_found' };
    return { outcome: 'unknown', reason: R.serverError };
  }
  if (a.status === 429) return { outcome: 'unknown', reason: R.rateLimited };
  for (const wall of BOT_WALLS) if (wall.test(a)) return { outcome: 'unknown', reason: wall.reason };

  if (a.status >= 300 && a.status < 400) {
    const location = a.headers.location ?? '';
    if (LOGIN_PATH.test(location)) return { outcome: 'unknown', reason: R.login };
    if (a.status === site.e_code) {
      const precise = site.e_string ? a.hasHit : location.toLowerCase().includes(account.toLowerCase());
      if (precise) return { outcome: 'found' };
    }
    if (a.status === site.m_code && (site.m_string === '' || a.hasMiss)) return { outcome: 'not_found' };
    return { outcome: 'unknown', reason: `${R.unexpected} (HTTP ${a.status})` };
  }

  if (a.status === site.e_code && a.hasHit) {
    if (site.account_must_appear && !a.hasAccount) {
      return { outcome: 'unknown', reason: 'The page did not name the account' };
    }
    return { outcome: 'found' };
  }
  if (CAPTCHA.test(a.head)) return { outcome: 'unknown', reason: R.captcha };
  if (SCRIPT_CHALLENGE.test(a.head)) return { outcome: 'unknown', reason: R.scriptCheck };
  if (a.status === site.m_code && (site.m_string === '' || a.hasMiss)) return { outcome: 'not_found' };
  return { outcome: 'unknown', reason: `${R.unexpected} (HTTP ${a.status})` };
}
