import type { OsintSource, OverallRisk, SourceRisk } from '@guildhall/common';

/**
 * The risk model (docs/osint.md lists every rule with its reason). Each source sets its own risk by the
 * rules below, together with the rule that set it (shown on the badge); the overall level follows from
 * them. Risk means exposure of the searched subject: what an attacker could learn or use, not whether
 * the subject is malicious.
 */
export type Rated = { risk: SourceRisk; rule: string | null };
const rated = (risk: SourceRisk, rule: string | null): Rated => ({ risk, rule });

/**
 * Accounts found under a searched username: 1–4 low, 5–14 medium, 15 or more high. A candidate username
 * made from a person's name (or an e-mail's local part) may belong to anyone who shares it, so its hits
 * are informational (none): counting them made every common name MEDIUM.
 */
export function platformRisk(foundOn: number, mode: 'account' | 'candidate' = 'account'): Rated {
  if (foundOn === 0) return rated('none', null);
  if (mode === 'candidate') {
    return rated(
      'none',
      `Found on ${foundOn}, informational: a candidate username may belong to someone else`,
    );
  }
  if (foundOn >= 15) return rated('high', `Found on ${foundOn} platforms (15 or more: high)`);
  if (foundOn >= 5) return rated('medium', `Found on ${foundOn} platforms (5–14: medium)`);
  return rated('low', `Found on ${foundOn} platforms (1–4: low)`);
}

/** Data classes whose exposure lets an attacker into accounts or money. */
const SENSITIVE_CLASSES = [
  'passwords',
  'password hints',
  'security questions and answers',
  'credit cards',
  'partial credit card data',
  'bank account numbers',
  'social security numbers',
  'government issued ids',
  'auth tokens',
  'passport numbers',
];
const MANY_BREACHES = 3;

/**
 * Breaches: high when any exposed a password, a security answer, a card or an identity number, or the
 * address is in 3 or more; medium for fewer breaches that exposed only contact data (spam, phishing).
 */
export function breachRisk(breaches: { name: string; dataClasses: string[] }[]): Rated {
  if (breaches.length === 0) return rated('none', null);
  const sensitive = breaches.find((b) =>
    b.dataClasses.some((c) => SENSITIVE_CLASSES.includes(c.toLowerCase())),
  );
  if (sensitive) {
    const what = sensitive.dataClasses.filter((c) => SENSITIVE_CLASSES.includes(c.toLowerCase()));
    return rated('high', `${sensitive.name} exposed ${what.join(', ').toLowerCase()}`);
  }
  if (breaches.length >= MANY_BREACHES)
    return rated('high', `In ${breaches.length} breaches (3 or more: high)`);
  return rated(
    'medium',
    `In ${breaches.length} breach${breaches.length === 1 ? '' : 'es'} that exposed contact data only`,
  );
}

/** A disposable (throw-away) mail domain: medium. */
export function disposableRisk(isDisposable: boolean): Rated {
  return isDisposable ? rated('medium', 'A disposable (throw-away) mail domain') : rated('none', null);
}

/** A public Gravatar profile ties the address to a name, photo and links: low. */
export function gravatarRisk(hasProfile: boolean): Rated {
  return hasProfile
    ? rated('low', 'A public profile ties the address to a name, photo and links')
    : rated('none', null);
}

/** A valid number is reachable: low; a VoIP or premium-rate line (common in fraud): medium. */
export function phoneRisk(valid: boolean, lineType: string | undefined): Rated {
  if (!valid) return rated('none', null);
  return lineType === 'VOIP' || lineType === 'PREMIUM_RATE'
    ? rated('medium', `A ${lineType === 'VOIP' ? 'VoIP' : 'premium-rate'} line (common in fraud)`)
    : rated('low', 'A valid, reachable number');
}

/**
 * Mail spoofing: SPF ending in `+all` (or a bare `all`) lets any server send as the domain: high. No SPF
 * or no DMARC record, or SPF `?all`: medium. DMARC with p=none (monitor only): low.
 */
export function mailAuthRisk(spf: string | null, dmarc: string | null): Rated {
  if (spf && /(^|\s)\+?all(\s|$)/i.test(spf))
    return rated('high', 'SPF ends in +all: any server may send as the domain');
  if (!spf) return rated('medium', 'No SPF record: the domain can be spoofed in mail');
  if (!dmarc) return rated('medium', 'No DMARC record: the domain can be spoofed in mail');
  if (/(^|\s)\?all(\s|$)/i.test(spf))
    return rated('medium', 'SPF ends in ?all (neutral): it does not refuse spoofed mail');
  if (/\bp\s*=\s*none\b/i.test(dmarc)) return rated('low', 'DMARC p=none only monitors spoofed mail');
  return rated('none', null);
}

export const CERT_EXPIRY_WARNING_DAYS = 14;
export const REGISTRATION_EXPIRY_WARNING_DAYS = 30;
export const REQUIRED_SECURITY_HEADERS = ['strict-transport-security', 'content-security-policy'] as const;

/**
 * The site's certificate and headers: an expired or untrusted certificate is high; one expiring within
 * 14 days is medium; a missing HSTS or CSP header on the final page is low.
 */
export function siteRisk(
  cert: { validTo: string; authorized: boolean } | null,
  missingHeaders: string[],
  now: number,
): Rated {
  if (cert) {
    const daysLeft = (Date.parse(cert.validTo) - now) / 86_400_000;
    if (daysLeft < 0) return rated('high', 'The certificate has expired');
    if (!cert.authorized) return rated('high', 'The certificate is not trusted');
    if (daysLeft <= CERT_EXPIRY_WARNING_DAYS)
      return rated('medium', `The certificate expires within ${CERT_EXPIRY_WARNING_DAYS} days`);
  }
  return missingHeaders.length > 0
    ? rated('low', `Missing ${missingHeaders.join(', ')}`)
    : rated('none', null);
}

/** A registration that lapses within 30 days can be taken over: medium. */
export function registrationRisk(expires: string | null, now: number): Rated {
  if (!expires) return rated('none', null);
  const daysLeft = (Date.parse(expires) - now) / 86_400_000;
  return daysLeft <= REGISTRATION_EXPIRY_WARNING_DAYS
    ? rated('medium', `The registration expires within ${REGISTRATION_EXPIRY_WARNING_DAYS} days`)
    : rated('none', null);
}

/** Many names in certificate logs widen the attack surface: more than 25 subdomains is low. */
export function subdomainRisk(count: number): Rated {
  return count > 25 ? rated('low', `${count} subdomains logged (more than 25)`) : rated('none', null);
}

export type Overall = { overallRisk: OverallRisk; inconclusive?: string; uncheckedSources: number };

/**
 * Overall, from the sources that checked: HIGH when any is high or three or more are medium; MEDIUM when
 * any is medium or three or more are low. Otherwise LOW — but only if every source checked: when one
 * could not, nothing established that the risk is low, so the level is INCONCLUSIVE, naming them. A
 * source that is not configured on this portal is a deployment choice shown on its card, not a failure.
 */
export function overallRisk(
  sources: (Pick<OsintSource, 'risk' | 'state' | 'name' | 'reason' | 'status'> & { data?: unknown })[],
): Overall {
  const checked = sources.filter((s) => s.state !== 'could_not_check');
  // A platform source that found a few sites while half or more could not be checked is only partly
  // checked: its "low" must not make the whole result LOW either.
  const partly = checked
    .filter((s) => mostlyUnchecked(s.data))
    .map((s) => ({ ...s, reason: unreachedShare(s.data) }));
  const failed = [
    ...sources.filter((s) => s.state === 'could_not_check' && s.status !== 'Not configured'),
    ...partly,
  ];
  const count = (risk: SourceRisk) => checked.filter((s) => s.risk === risk).length;
  const uncheckedSources = failed.length;
  if (count('high') > 0 || count('medium') >= 3) return { overallRisk: 'HIGH', uncheckedSources };
  if (count('medium') > 0 || count('low') >= 3) return { overallRisk: 'MEDIUM', uncheckedSources };
  if (failed.length > 0) {
    const names = failed.map((s) => `${s.name}${s.reason ? ` (${s.reason})` : ''}`).join('; ');
    return {
      overallRisk: 'INCONCLUSIVE',
      inconclusive: `Could not check ${failed.length} of ${sources.length} source${sources.length === 1 ? '' : 's'}: ${names}`,
      uncheckedSources,
    };
  }
  return { overallRisk: 'LOW', uncheckedSources };
}

function platformSummary(data: unknown): { unknown: number; totalPlatforms: number } | null {
  const summary = (data as { summary?: { unknown?: unknown; totalPlatforms?: unknown } } | null)?.summary;
  return typeof summary?.unknown === 'number' && typeof summary.totalPlatforms === 'number'
    ? { unknown: summary.unknown, totalPlatforms: summary.totalPlatforms }
    : null;
}

function mostlyUnchecked(data: unknown): boolean {
  const s = platformSummary(data);
  return !!s && s.totalPlatforms > 0 && s.unknown / s.totalPlatforms >= 0.5;
}

function unreachedShare(data: unknown): string {
  const s = platformSummary(data)!;
  return `${s.unknown} of ${s.totalPlatforms} sites could not be checked`;
}
