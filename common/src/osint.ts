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

/**
 * INCONCLUSIVE (beyond the spec's three levels, docs/spec-deviations.md): no source raised the risk, but at
 * least one could not be checked, so LOW would claim more than was established.
 */
export const OVERALL_RISKS = ['LOW', 'MEDIUM', 'HIGH', 'INCONCLUSIVE'] as const;
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

/**
 * Every source is tri-state: it found something, it checked and found nothing, or it could not check
 * (unreachable, timed out, blocked, refused, not configured). "Could not check" is never a reassuring value.
 */
export const SOURCE_STATES = ['found', 'not_found', 'could_not_check'] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

export const OsintSource = z.object({
  name: z.string(),
  /** What happened: a short word such as Found, Not found, Clean, Breached, Valid, Failed, Not configured. */
  status: z.string(),
  data: JsonValue,
  risk: z.enum(SOURCE_RISKS),
  url: z.string().nullable(),
  state: z.enum(SOURCE_STATES),
  /** Why it could not check, in words for members (operators find the details in the log). */
  reason: z.string().nullable().optional(),
  /** The rule that set `risk` (docs/osint.md, "Risk model"). */
  riskRule: z.string().nullable().optional(),
});
export type OsintSource = z.infer<typeof OsintSource>;

/**
 * A platform-type source's data (§3): the platforms found, and (beyond the spec) each site that could not
 * be checked with why, the sites' categories (the list's `cat`) and the account searched (for pivots).
 */
export const PlatformData = z.object({
  sources: z.array(
    z.object({
      name: z.string(),
      status: z.literal('Found'),
      url: z.string(),
      category: z.string().optional(),
    }),
  ),
  summary: z.object({
    foundOn: z.number(),
    totalPlatforms: z.number(),
    unknown: z.number(),
    notFound: z.number().optional(),
  }),
  unchecked: z
    .array(
      z.object({ name: z.string(), url: z.string(), reason: z.string(), category: z.string().optional() }),
    )
    .optional(),
  account: z.string().optional(),
  /** Sites of the list not scanned because admins or the self-check disabled them (issue 28). */
  disabled: z.array(z.string()).optional(),
});
export type PlatformData = z.infer<typeof PlatformData>;

export const OsintResult = z.object({
  /** The stored search (history, export, reports); absent on a result that was not stored. */
  id: z.string().optional(),
  query: z.string(),
  type: z.enum(OSINT_TYPES),
  summary: z.object({
    totalSources: z.number(),
    platformsFound: z.number().optional(),
    overallRisk: z.enum(OVERALL_RISKS),
    /** Why the overall level is INCONCLUSIVE (which sources could not be checked). */
    inconclusive: z.string().optional(),
    /** Sources that could not check. */
    uncheckedSources: z.number().optional(),
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

/** Member-facing reasons a site or source could not be checked (grouped on the screen). */
export const OSINT_UNCHECKED_REASONS = {
  timeout: 'Timed out',
  rateLimited: 'Rate limited by the site',
  cloudflare: 'Blocked by a bot check (Cloudflare)',
  ddosGuard: 'Blocked by a bot check (DDoS-Guard)',
  incapsula: 'Blocked by a bot check (Imperva Incapsula)',
  captcha: 'Asked for a captcha',
  scriptCheck: 'Blocked by a bot check (script challenge)',
  blocked: 'Blocked by the site',
  login: 'Redirected to a login page',
  serverError: 'The site had an error (HTTP 5xx)',
  unexpected: 'Unexpected answer',
  unreachable: 'Could not connect',
  dns: 'The name could not be looked up',
  refused: 'Refused (not a public address)',
  aborted: 'Stopped',
} as const;

/** Texts of the history, export and report features (beyond the spec). */
export const OSINT_HISTORY_TEXTS = {
  notFound: 'Search not found',
  tooManyRunning: 'You already have searches running; wait for one to finish',
  badControl: 'The search text must not contain control characters',
} as const;

/** Searches one member may have running at once; further ones answer 429. */
export const OSINT_SEARCHES_RUNNING_MAX = 3;

/** GET /api/osint/searches: the member's own past searches, newest first. */
export const OsintHistoryEntry = z.object({
  id: z.string(),
  type: z.enum(OSINT_TYPES),
  query: z.string(),
  overallRisk: z.enum(OVERALL_RISKS),
  createdAt: z.string(),
});
export type OsintHistoryEntry = z.infer<typeof OsintHistoryEntry>;
export const OsintHistoryResponse = z.object({
  searches: z.array(OsintHistoryEntry),
  /** How long searches are kept (OSINT_HISTORY_DAYS). */
  keptDays: z.number(),
});
export type OsintHistoryResponse = z.infer<typeof OsintHistoryResponse>;
export const OsintSearchIdParams = z.strictObject({
  id: z.string().regex(/^[\w-]{8,64}$/, { error: 'id must be a search id' }),
});
export const OsintExportQuery = z.strictObject({
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }),
});

/** GET /api/osint/sites: the site list's state (its age is shown on the screen). */
export const OsintSiteListInfo = z.object({
  sites: z.number(),
  disabled: z.number(),
  categories: z.array(z.string()),
  /** When the list was taken from WhatsMyName (ISO date), null when unknown. */
  listDate: z.string().nullable(),
  /** When the admins' self-check last ran, null when never. */
  lastSelfCheck: z.string().nullable(),
});
export type OsintSiteListInfo = z.infer<typeof OsintSiteListInfo>;

/** POST /api/osint/reports: a member says a site's verdict was wrong. */
export const OsintReportBody = z.strictObject({
  searchId: z.string().regex(/^[\w-]{8,64}$/, { error: 'searchId must be a search id' }),
  site: z.string().trim().min(1, { error: 'site is required' }).max(120, { error: 'site is too long' }),
  verdict: z.enum(['found', 'not_found', 'could_not_check'], {
    error: 'verdict must be found, not_found or could_not_check',
  }),
  note: z.string().trim().max(500, { error: 'note must be at most 500 characters' }).optional(),
});
export type OsintReportBody = z.input<typeof OsintReportBody>;
export const OsintReport = z.object({
  id: z.string(),
  site: z.string(),
  account: z.string(),
  verdict: z.string(),
  note: z.string().nullable(),
  reporter: z.string(),
  createdAt: z.string(),
  status: z.enum(['open', 'accepted', 'dismissed']),
});
export type OsintReport = z.infer<typeof OsintReport>;
export const OsintReportsResponse = z.object({
  reports: z.array(OsintReport),
  disabledSites: z.array(z.object({ name: z.string(), reason: z.string(), disabledAt: z.string() })),
});
export type OsintReportsResponse = z.infer<typeof OsintReportsResponse>;
/** PUT /api/osint/reports/:id answers the site decided on and whether it is now out of scans. */
export const OsintReportDecisionResponse = z.object({ site: z.string(), siteDisabled: z.boolean() });
export const OsintReportDecisionBody = z.strictObject({
  decision: z.enum(['accepted', 'dismissed'], { error: 'decision must be accepted or dismissed' }),
});
export const OsintReportIdParams = z.strictObject({
  id: z.string().regex(/^[\w-]{8,64}$/, { error: 'id must be a report id' }),
});
/** Distinct members reporting the same site before it is disabled pending review. */
export const OSINT_REPORTS_TO_DISABLE = 3;
