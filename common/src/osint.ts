import { z } from 'zod';

/**
 * The OSINT lookup (portal-tools §2 OSINT, §3 OSINT result, §5, §7, §8, §9): search types, the result
 * shape, the spec's texts and limits, and the realtime progress of a username scan. docs/osint.md
 * describes the sources and every risk rule.
 */

export const OSINT_TYPES = ['email', 'phone', 'username', 'domain', 'ip', 'person'] as const;
export type OsintType = (typeof OSINT_TYPES)[number];

export const SOURCE_RISKS = ['high', 'medium', 'low', 'none'] as const;
export type SourceRisk = (typeof SOURCE_RISKS)[number];

export const OVERALL_RISKS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type OverallRisk = (typeof OVERALL_RISKS)[number];

/** §9: the first 5 found platforms are listed, then "+N more". */
export const OSINT_PLATFORMS_SHOWN = 5;
/** Longest query accepted (a person's full name or an e-mail address fits easily). */
export const OSINT_QUERY_MAX = 254;

export const OSINT_TEXTS = {
  authRequired: 'Authentication required. Please log in.',
  searchFailed: 'Search failed',
  errorSourceName: 'Error',
  failedStatus: 'Failed',
  queryRequired: 'query is required',
  queryTooLong: `query must be at most ${OSINT_QUERY_MAX} characters`,
  badType: `type must be one of ${OSINT_TYPES.join(', ')}`,
  disclaimer:
    'This tool is for educational and authorized security research only. Only look up people, accounts and systems you are permitted to investigate.',
  badEmail: 'Enter an e-mail address such as name@example.com',
  badPhone: 'Enter a phone number in international form, such as +44 20 7946 0958',
  badUsername: 'A username is 1–64 letters, digits, dots, dashes or underscores',
  badDomain: 'Enter a domain name such as example.com',
  badIp: 'Enter an IPv4 or IPv6 address',
  badPerson: 'Enter a name of two to five words',
} as const;

/** Labels and input hints of the six type buttons (order as in §2). */
export const OSINT_TYPE_LABELS: Record<OsintType, { label: string; placeholder: string }> = {
  email: { label: 'Email', placeholder: 'name@example.com' },
  phone: { label: 'Phone', placeholder: '+44 20 7946 0958' },
  username: { label: 'Username', placeholder: 'johndoe' },
  domain: { label: 'Domain', placeholder: 'example.com' },
  ip: { label: 'IP', placeholder: '8.8.8.8' },
  person: { label: 'Person', placeholder: 'Jane Doe' },
};

/** §2: the static list of tools. */
export const OSINT_TOOLS = {
  active: ['Breach Monitoring', 'Social Media', 'Domain Analysis'],
  comingSoon: ['IP Intelligence', 'Dark Web', 'Threat Intel', 'Image Analysis', 'Document Analysis'],
} as const;

/** §2: the databases the screen names, with what the server actually draws on for each (docs/osint.md). */
export const OSINT_DATABASES = [
  { kind: 'Breach', name: 'Have I Been Pwned' },
  { kind: 'Leak', name: 'Gravatar public profiles' },
  { kind: 'Host scanning', name: 'DNS, RDAP and certificate transparency (crt.sh)' },
  { kind: 'Malware scan', name: 'Not queried yet (coming soon)' },
  { kind: 'Social media', name: 'WhatsMyName site list' },
] as const;

export const OsintSearchBody = z.strictObject(
  {
    query: z
      .string({ error: OSINT_TEXTS.queryRequired })
      .trim()
      .min(1, { error: OSINT_TEXTS.queryRequired })
      .max(OSINT_QUERY_MAX, { error: OSINT_TEXTS.queryTooLong }),
    type: z.enum(OSINT_TYPES, { error: OSINT_TEXTS.badType }),
    /** Beyond the spec: lets the page match realtime progress to the search it started. */
    searchId: z
      .string()
      .regex(/^[\w-]{8,64}$/, { error: 'searchId must be 8–64 letters, digits, dashes or underscores' })
      .optional(),
  },
  { error: (iss) => (iss.code === 'invalid_type' ? 'Request body must be a JSON object' : undefined) },
);
export type OsintSearchBody = z.input<typeof OsintSearchBody>;

const JsonValue: z.ZodType<unknown> = z.unknown();

export const OsintSource = z.object({
  name: z.string(),
  /** What happened: a short word such as Found, Not found, Clean, Breached, Valid, Failed, Not configured. */
  status: z.string(),
  data: JsonValue,
  risk: z.enum(SOURCE_RISKS),
  url: z.string().nullable(),
});
export type OsintSource = z.infer<typeof OsintSource>;

/** A platform-type source's data (§3): the platforms found and how many were checked. */
export const PlatformData = z.object({
  sources: z.array(z.object({ name: z.string(), status: z.literal('Found'), url: z.string() })),
  summary: z.object({ foundOn: z.number(), totalPlatforms: z.number(), unknown: z.number() }),
});
export type PlatformData = z.infer<typeof PlatformData>;

export const OsintResult = z.object({
  query: z.string(),
  type: z.enum(OSINT_TYPES),
  summary: z.object({
    totalSources: z.number(),
    platformsFound: z.number().optional(),
    overallRisk: z.enum(OVERALL_RISKS),
  }),
  sources: z.array(OsintSource),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type OsintResult = z.infer<typeof OsintResult>;

export const OsintSearchResponse = z.object({
  success: z.literal(true),
  results: OsintResult,
  error: z.null(),
});
export type OsintSearchResponse = z.infer<typeof OsintSearchResponse>;

/** Realtime: progress of a username scan, pushed to the searching user's own room (`user:<id>`). */
export const OSINT_PROGRESS_EVENT = 'osint:progress';
export type OsintProgress = {
  searchId: string;
  checked: number;
  total: number;
  /** Platforms found since the previous push. */
  hits: { name: string; url: string }[];
};

/** True when a platform-type source's data: the page lists its platforms. */
export function isPlatformData(data: unknown): data is PlatformData {
  return PlatformData.safeParse(data).success;
}

/** §9: the first 5 platforms, and how many more there are. */
export function visiblePlatforms<T>(found: T[]): { shown: T[]; more: number } {
  return {
    shown: found.slice(0, OSINT_PLATFORMS_SHOWN),
    more: Math.max(0, found.length - OSINT_PLATFORMS_SHOWN),
  };
}
