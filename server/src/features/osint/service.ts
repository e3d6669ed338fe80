import type { OsintResult, OsintType } from '@guildhall/common';
import type { Db } from '../../db/index.ts';
import { recordActivity } from '../admin/index.ts';
import type { OsintContext, ProgressSink } from './context.ts';
import { storeSearch } from './history.ts';
import { normalizeQuery } from './queries.ts';
import { overallRisk } from './risk.ts';
import { domainSources } from './sources/domain.ts';
import { emailSources } from './sources/email.ts';
import { ipSources } from './sources/ip.ts';
import { personSources } from './sources/person.ts';
import { phoneSources } from './sources/phone.ts';
import { type SourceSet, usernameSources } from './sources/username.ts';

export type Searcher = { id: string; username: string };

/**
 * One OSINT search (portal-tools §3): the query is checked and normalised for its type, the search is
 * written to the audit trail, the type's sources run in parallel (stopped when `ctx.signal` aborts: the
 * member went away), and the result is summarised with the overall risk and stored in the member's
 * history.
 */
export async function runSearch(
  ctx: OsintContext,
  db: Db,
  who: Searcher,
  input: { query: string; type: OsintType },
  onProgress?: ProgressSink,
): Promise<OsintResult> {
  const query = normalizeQuery(input.type, input.query);
  await recordActivity(db, {
    actor: who,
    action: 'osint.search',
    target: { id: input.type, name: query },
    details: { type: input.type, query },
  });
  const set = await sourcesFor(ctx, input.type, query, onProgress);
  ctx.signal?.throwIfAborted();
  return storeSearch(db, ctx.clock.now(), who.id, summarise(query, input.type, set, ctx.clock.now()));
}

function sourcesFor(
  ctx: OsintContext,
  type: OsintType,
  query: string,
  onProgress?: ProgressSink,
): Promise<SourceSet> {
  switch (type) {
    case 'username':
      return usernameSources(ctx, query, onProgress);
    case 'email':
      return emailSources(ctx, query);
    case 'phone':
      return phoneSources(query);
    case 'domain':
      return domainSources(ctx, query);
    case 'ip':
      return ipSources(ctx, query);
    case 'person':
      return personSources(ctx, query);
  }
}

function platformCount(sources: OsintResult['sources']): number | undefined {
  let total: number | undefined;
  for (const s of sources) {
    const found = (s.data as { summary?: { foundOn?: unknown } } | null)?.summary?.foundOn;
    if (typeof found === 'number') total = (total ?? 0) + found;
  }
  return total;
}

export function summarise(query: string, type: OsintType, set: SourceSet, now: number): OsintResult {
  const platformsFound = platformCount(set.sources);
  const overall = overallRisk(set.sources);
  return {
    query,
    type,
    summary: {
      totalSources: set.sources.length,
      ...(platformsFound !== undefined ? { platformsFound } : {}),
      ...overall,
    },
    sources: set.sources,
    metadata: { ...set.metadata, searchedAt: new Date(now).toISOString() },
  };
}
