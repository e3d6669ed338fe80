import type { OsintSource, OverallRisk, SourceRisk } from '@guildhall/common';

/**
 * The risk model (docs/osint.md lists every rule with its reason). Each source sets its own risk by the
 * rules below; the overall level follows from them. Risk means exposure of the searched subject: what
 * an attacker could learn or use, not whether the subject is malicious.
 */

/** Accounts found on N platforms: 0 none, 1–4 low, 5–14 medium, 15 or more high. */
export function platformRisk(foundOn: number): SourceRisk {
  if (foundOn >= 15) return 'high';
  if (foundOn >= 5) return 'medium';
  if (foundOn >= 1) return 'low';
  return 'none';
}

/** An address found in at least one breach: high. */
export function breachRisk(breaches: number): SourceRisk {
  return breaches > 0 ? 'high' : 'none';
}

/** A disposable (throw-away) mail domain: medium. */
export function disposableRisk(isDisposable: boolean): SourceRisk {
  return isDisposable ? 'medium' : 'none';
}

/** A public Gravatar profile ties the address to a name, photo and links: low. */
export function gravatarRisk(hasProfile: boolean): SourceRisk {
  return hasProfile ? 'low' : 'none';
}

/** A valid number is reachable: low; a VoIP or premium-rate line (common in fraud): medium. */
export function phoneRisk(valid: boolean, lineType: string | undefined): SourceRisk {
  if (!valid) return 'none';
  return lineType === 'VOIP' || lineType === 'PREMIUM_RATE' ? 'medium' : 'low';
}

/** Mail spoofing: no SPF or no DMARC record is medium; DMARC with p=none (monitor only) is low. */
export function mailAuthRisk(spf: string | null, dmarc: string | null): SourceRisk {
  if (!spf || !dmarc) return 'medium';
  if (/\bp\s*=\s*none\b/i.test(dmarc)) return 'low';
  return 'none';
}

export const CERT_EXPIRY_WARNING_DAYS = 14;
export const REGISTRATION_EXPIRY_WARNING_DAYS = 30;
export const REQUIRED_SECURITY_HEADERS = ['strict-transport-security', 'content-security-policy'] as const;

/**
 * The site's certificate and headers: an expired or untrusted certificate is high; one expiring within
 * 14 days is medium; a missing HSTS or CSP header is low.
 */
export function siteRisk(
  cert: { validTo: string; authorized: boolean } | null,
  missingHeaders: string[],
  now = Date.now(),
): SourceRisk {
  if (cert) {
    const daysLeft = (Date.parse(cert.validTo) - now) / 86_400_000;
    if (daysLeft < 0 || !cert.authorized) return 'high';
    if (daysLeft <= CERT_EXPIRY_WARNING_DAYS) return 'medium';
  }
  return missingHeaders.length > 0 ? 'low' : 'none';
}

/** A registration that lapses within 30 days can be taken over: medium. */
export function registrationRisk(expires: string | null, now = Date.now()): SourceRisk {
  if (!expires) return 'none';
  const daysLeft = (Date.parse(expires) - now) / 86_400_000;
  return daysLeft <= REGISTRATION_EXPIRY_WARNING_DAYS ? 'medium' : 'none';
}

/** Many names in certificate logs widen the attack surface: more than 25 subdomains is low. */
export function subdomainRisk(count: number): SourceRisk {
  return count > 25 ? 'low' : 'none';
}

/**
 * Overall: HIGH when any source is high or three or more are medium; MEDIUM when any is medium or three
 * or more are low; LOW otherwise.
 */
export function overallRisk(sources: Pick<OsintSource, 'risk'>[]): OverallRisk {
  const count = (risk: SourceRisk) => sources.filter((s) => s.risk === risk).length;
  if (count('high') > 0 || count('medium') >= 3) return 'HIGH';
  if (count('medium') > 0 || count('low') >= 3) return 'MEDIUM';
  return 'LOW';
}
