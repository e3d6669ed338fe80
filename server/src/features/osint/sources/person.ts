import type { OsintContext } from '../context.ts';
import { platformSource, scanOptions, scanSites } from '../scan.ts';
import { topSites } from '../sites.ts';
import { source } from '../source-result.ts';
import type { SourceSet } from './username.ts';

/**
 * A person's name: the usernames people with that name commonly pick, each checked on the top sites,
 * and links to search the name further by hand.
 */
export async function personSources(ctx: OsintContext, name: string): Promise<SourceSet> {
  const candidates = candidateUsernames(name);
  const sites = topSites(ctx.sites);
  const scans = await Promise.all(
    candidates.map(async (c) =>
      platformSource(
        `Username "${c}"`,
        await scanSites(ctx.outbound, sites, c, scanOptions(ctx)),
        c,
        'candidate',
      ),
    ),
  );
  const quoted = encodeURIComponent(`"${name}"`);
  const links = [
    { name: 'Web search', url: `https://duckduckgo.com/?q=${quoted}` },
    {
      name: 'LinkedIn',
      url: `https://www.linkedin.com/search/results/people/?keywords=${encodeURIComponent(name)}`,
    },
    {
      name: 'GitHub users',
      url: `https://github.com/search?type=users&q=${encodeURIComponent(`fullname:"${name}"`)}`,
    },
    { name: 'News', url: `https://news.google.com/search?q=${quoted}` },
  ];
  return {
    sources: [
      source('Candidate Usernames', `${candidates.length} candidates`, { candidates, links }),
      ...scans,
    ],
    metadata: { name, candidates: candidates.length, sitesPerCandidate: sites.length },
  };
}

/** "Jane Q. Doe" → janedoe, jane.doe, jane_doe, jdoe, doejane, janed (letters and digits only, deduplicated). */
export function candidateUsernames(name: string): string[] {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^a-z0-9]/g, ''))
    .filter(Boolean);
  const first = words[0] ?? '';
  const last = words.at(-1) ?? '';
  if (words.length < 2) return first ? [first] : [];
  const out = [
    `${first}${last}`,
    `${first}.${last}`,
    `${first}_${last}`,
    `${first[0]}${last}`,
    `${last}${first}`,
    `${first}${last[0]}`,
  ];
  return [...new Set(out)];
}
